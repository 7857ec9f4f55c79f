import type { Address } from 'viem';
import type { ChainReader } from '../chain/chain-reader.js';
import type { ProtocolPosition } from './protocol-position.js';

export interface AdapterInput {
  reader: ChainReader;
  /** Lowercase. */
  wallet: Address;
  /** Every read of one refresh is made at this block. */
  blockNumber: bigint;
  /** Lowercase ERC-20 contracts the wallet holds on the chain (from its balances). */
  heldTokens: readonly string[];
}

/** Reads what a wallet has in one deployment of a protocol, with the contracts' own arithmetic. */
export interface ProtocolAdapter {
  read(input: AdapterInput): Promise<ProtocolPosition[]>;
}
