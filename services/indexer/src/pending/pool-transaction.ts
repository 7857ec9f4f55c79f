import type { Hash, Hex } from 'viem';

/** One transaction of `txpool_content`'s `pending` section, as the node returns it (hex quantities). */
export interface PoolTransaction {
  hash: Hash;
  from: Hex;
  /** Null for a contract creation. */
  to: Hex | null;
  input: Hex;
  value: Hex;
  gas: Hex;
  nonce: Hex;
  /** Legacy and access-list transactions; anvil also reports it (= maxFeePerGas) on EIP-1559 ones. */
  gasPrice?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
}

/** `txpool_content`: sender -> nonce -> transaction. `queued` (nonce gaps) cannot be mined yet and is not read. */
export interface TxPoolContent {
  pending: Record<string, Record<string, PoolTransaction>>;
}

export const poolTransactions = (content: TxPoolContent): PoolTransaction[] =>
  Object.values(content.pending ?? {}).flatMap((byNonce) => Object.values(byNonce));

/**
 * The gas price the sender pays if the transaction is mined on top of a block with `baseFee`
 * (EIP-1559: the base fee plus the tip, capped by the max fee; legacy: the gas price). The fee of
 * a pending transaction is the simulation's gas used times this: the next block's base fee may
 * differ, so it is the fee at the head, as honest as a pending fee can be.
 */
export function effectiveGasPrice(transaction: PoolTransaction, baseFee: bigint | undefined): bigint {
  if (transaction.maxFeePerGas !== undefined && transaction.maxPriorityFeePerGas !== undefined) {
    const maxFee = BigInt(transaction.maxFeePerGas);
    const withTip = baseFee === undefined ? maxFee : baseFee + BigInt(transaction.maxPriorityFeePerGas);
    return withTip < maxFee ? withTip : maxFee;
  }
  return BigInt(transaction.gasPrice ?? '0x0');
}
