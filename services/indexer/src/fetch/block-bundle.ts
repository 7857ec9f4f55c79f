import type { Address, Block, Hash, Hex, Transaction, TransactionReceipt } from 'viem';

/** One frame of a `debug_traceBlockByNumber` callTracer result, as the node returns it. */
export interface CallFrame {
  type: 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT' | (string & {});
  from: Address;
  /** Absent on a CREATE that failed before an address existed. */
  to?: Address;
  /** Hex wei; absent on STATICCALL and DELEGATECALL. */
  value?: Hex;
  gas: Hex;
  gasUsed: Hex;
  input: Hex;
  output?: Hex;
  /** Set when this frame reverted; every effect of the frame and its children was undone. */
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
}

export interface TransactionTrace {
  txHash: Hash;
  result: CallFrame;
}

/** Everything the indexer reads about one block, in the block's transaction order. */
export interface BlockBundle {
  chainId: string;
  block: Block<bigint, true, 'latest'> & { hash: Hash; number: bigint };
  transactions: Transaction[];
  /** `receipts[i]` belongs to `transactions[i]`. */
  receipts: TransactionReceipt[];
  /** `traces[i]` belongs to `transactions[i]`. */
  traces: TransactionTrace[];
}
