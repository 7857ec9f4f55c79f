import { formatTransactionReceipt, numberToHex, type Hash, type PublicClient, type RpcTransactionReceipt } from 'viem';
import { defaultRetryPolicy, withRetry, type RetryPolicy } from '../sync/backoff.js';
import type { BlockBundle, TransactionTrace } from './block-bundle.js';

export interface BlockSourceOptions {
  client: Pick<PublicClient, 'getBlock' | 'request'>;
  chainId: string;
  retry?: RetryPolicy;
  /** Told about every failed attempt that will be retried, for logs and metrics. */
  onTransientError?: (error: unknown) => void;
}

export interface BlockSource {
  /**
   * The block at `number` with its transactions, receipts and call traces. When `expectedHash` is
   * given and the node now has another block at that height, answers `undefined`: the block was
   * reorged away after the follower saw it, and the follower reports the reorg next.
   */
  fetch(number: bigint, expectedHash?: Hash): Promise<BlockBundle | undefined>;
}

/** The node's answers disagree with each other, e.g. receipts of another block at that height. */
export class InconsistentBlockError extends Error {
  override name = 'InconsistentBlockError';
}

export function createBlockSource(options: BlockSourceOptions): BlockSource {
  const { client, chainId } = options;
  const retry = options.retry ?? defaultRetryPolicy;

  async function fetchOnce(number: bigint, expectedHash?: Hash): Promise<BlockBundle | undefined> {
    const blockNumber = numberToHex(number);
    const [block, rawReceipts, traces] = await Promise.all([
      client.getBlock({ blockNumber: number, includeTransactions: true }),
      client.request({ method: 'eth_getBlockReceipts' as never, params: [blockNumber] as never }) as Promise<RpcTransactionReceipt[] | null>,
      client.request({ method: 'debug_traceBlockByNumber' as never, params: [blockNumber, { tracer: 'callTracer' }] as never }) as Promise<TransactionTrace[]>,
    ]);
    if (block.hash === null || block.number === null) throw new InconsistentBlockError(`chain ${chainId}: block ${number} came back pending`);
    if (expectedHash !== undefined && block.hash !== expectedHash) return undefined;
    const receipts = (rawReceipts ?? []).map((receipt) => formatTransactionReceipt(receipt));
    const transactions = block.transactions;
    // The three calls are separate requests: a reorg between them mixes branches, which shows as
    // receipts or traces of other transactions. Asking again gets one consistent branch.
    const consistent =
      receipts.length === transactions.length &&
      traces.length === transactions.length &&
      transactions.every(
        (transaction, index) =>
          receipts[index]!.blockHash === block.hash && receipts[index]!.transactionHash === transaction.hash && traces[index]!.txHash === transaction.hash,
      );
    if (!consistent) throw new InconsistentBlockError(`chain ${chainId}: block ${number} ${block.hash}: receipts or traces do not match its transactions`);
    return { chainId, block: block as BlockBundle['block'], transactions, receipts, traces };
  }

  return {
    fetch: (number, expectedHash) => withRetry(() => fetchOnce(number, expectedHash), retry, options.onTransientError),
  };
}
