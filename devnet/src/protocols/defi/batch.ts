import type { Hash } from 'viem';
import type { ChainSession, TxRequest } from '../../chain/index.js';

/** Sends dependent setup transactions (each with explicit gas) and mines them in one block, failing on any revert. */
export async function mineBatch(session: ChainSession, requests: readonly TxRequest[], timestamp: number): Promise<void> {
  const hashes: Hash[] = [];
  for (const request of requests) hashes.push(await session.send(request));
  const block = await session.mine(timestamp);
  const failed = hashes.filter((hash) => block.receipts.get(hash)?.status !== 'success');
  if (failed.length > 0) throw new Error(`setup block ${block.number}: ${failed.length} of ${hashes.length} transactions reverted, e.g. ${failed[0]}`);
}
