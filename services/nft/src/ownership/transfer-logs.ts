import { decodeAbiParameters, pad, toEventSelector, type Hex } from 'viem';
import type { NftStandard } from '../store/ownership-store.js';

export const transferTopic = toEventSelector('Transfer(address,address,uint256)');
export const transferSingleTopic = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
export const transferBatchTopic = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');

export interface RawLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  blockNumber: Hex | bigint | null;
  blockHash?: string | null;
  /** Some nodes (anvil, recent geth) put the block's time on each log. */
  blockTimestamp?: Hex | bigint | null;
}

/** A token the wallet received at some block: a candidate of its holdings, whose amount the chain is asked for. */
export interface ReceivedToken {
  contract: string;
  tokenId: string;
  standard: NftStandard;
  blockNumber: bigint;
  blockTimestamp?: bigint;
}

export const addressTopic = (address: string): Hex => pad(address as Hex, { size: 32 }).toLowerCase() as Hex;

const toBigInt = (value: Hex | bigint) => (typeof value === 'bigint' ? value : BigInt(value));

/**
 * The NFTs a log says were sent to someone: an ERC-721 Transfer (its token id is the fourth
 * topic; an ERC-20 Transfer has three and is no NFT), an ERC-1155 TransferSingle or TransferBatch.
 * A log that does not decode is no transfer (a contract may emit anything under these topics).
 */
export function receivedTokens(log: RawLog): ReceivedToken[] {
  if (log.blockNumber === null) return [];
  const base = {
    contract: log.address.toLowerCase(),
    blockNumber: toBigInt(log.blockNumber),
    ...(log.blockTimestamp !== undefined && log.blockTimestamp !== null ? { blockTimestamp: toBigInt(log.blockTimestamp) } : {}),
  };
  try {
    const [topic] = log.topics;
    if (topic === transferTopic && log.topics.length === 4) {
      return [{ ...base, standard: 'erc721', tokenId: BigInt(log.topics[3]!).toString() }];
    }
    if (topic === transferSingleTopic && log.topics.length === 4) {
      const [id] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data);
      return [{ ...base, standard: 'erc1155', tokenId: id.toString() }];
    }
    if (topic === transferBatchTopic && log.topics.length === 4) {
      const [ids] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
      return ids.map((id) => ({ ...base, standard: 'erc1155' as const, tokenId: id.toString() }));
    }
  } catch {
    return [];
  }
  return [];
}

/** Per token, the newest block it was received in: when the wallet's holding of it last changed upward. */
export function newestReceipts(tokens: readonly ReceivedToken[]): ReceivedToken[] {
  const newest = new Map<string, ReceivedToken>();
  for (const token of tokens) {
    const key = `${token.contract}:${token.tokenId}`;
    const seen = newest.get(key);
    if (!seen || seen.blockNumber < token.blockNumber) newest.set(key, token);
  }
  return [...newest.values()];
}
