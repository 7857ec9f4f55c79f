import type { WalletTransaction } from '@wallet-api/core/proto/events';
import type { PublicClient } from 'viem';
import { decodeTransaction, toWalletTransaction } from '../decode/decode-transaction.js';
import { effectiveGasPrice, type PoolTransaction } from './pool-transaction.js';
import { simulatedLogs, withoutLogs, type LoggedCallFrame } from './simulated-logs.js';

/**
 * A pending transaction decoded like a mined one: simulated at the head (`debug_traceCall` with
 * the call tracer and its logs), and the simulation's logs and call tree read by the indexer's
 * decoder, so transfers, approvals, operation type, application and trash are what the mined
 * transaction will show if the state it runs on does not change first. Block number 0, no block
 * hash, the block time the first-seen second. `baseFee`: the head's (undefined before London).
 */
export async function decodePending(
  client: Pick<PublicClient, 'request'>,
  chainId: string,
  pooled: PoolTransaction,
  firstSeenMs: number,
  baseFee: bigint | undefined,
): Promise<WalletTransaction> {
  // No gas price: the call is not charged, so the node checks neither the balance for gas nor the base fee.
  const call = { from: pooled.from, ...(pooled.to ? { to: pooled.to } : {}), data: pooled.input, value: pooled.value, gas: pooled.gas };
  const root = (await client.request({
    method: 'debug_traceCall' as never,
    params: [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }] as never,
  })) as LoggedCallFrame;
  const failed = root.error !== undefined;
  const decoded = decodeTransaction({
    block: { chainId, number: 0n, hash: '', timestamp: BigInt(Math.floor(firstSeenMs / 1000)) },
    transaction: { hash: pooled.hash, from: pooled.from, to: pooled.to, input: pooled.input, value: BigInt(pooled.value), nonce: Number(BigInt(pooled.nonce)) },
    receipt: {
      status: failed ? 'reverted' : 'success',
      // A root CREATE's frame names the address it made.
      contractAddress: pooled.to === null && !failed ? (root.to ?? null) : null,
      logs: simulatedLogs(root),
      transactionIndex: 0,
      gasUsed: BigInt(root.gasUsed),
      effectiveGasPrice: effectiveGasPrice(pooled, baseFee),
    },
    trace: { txHash: pooled.hash, result: withoutLogs(root) },
  });
  return toWalletTransaction(decoded);
}
