import type { Hash } from 'viem';
import { createBlockFollower, type BlockFollowerOptions, type FollowerEvent } from './block-follower.js';

const hashAt = (number: bigint): Hash => `0x${number.toString(16).padStart(64, '0')}` as Hash;

/** A ten-block chain behind an RPC that fails every third request. */
function flakyClient(): BlockFollowerOptions['client'] {
  let requests = 0;
  const fail = () => {
    if (++requests % 3 === 0) throw new Error('503 from the RPC');
  };
  return {
    getBlockNumber: async () => {
      fail();
      return 9n;
    },
    getBlock: (async ({ blockNumber }: { blockNumber: bigint }) => {
      fail();
      return { number: blockNumber, hash: hashAt(blockNumber), parentHash: hashAt(blockNumber - 1n), timestamp: blockNumber * 12n };
    }) as unknown as BlockFollowerOptions['client']['getBlock'],
  };
}

test('transient RPC errors neither stop the follower nor skip or repeat blocks', async () => {
  const errors: unknown[] = [];
  const follower = createBlockFollower({
    client: flakyClient(),
    chainId: 'test',
    startBlock: 0n,
    finalityDepth: 2,
    pollIntervalMs: 5,
    batchSize: 4,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 },
    onTransientError: (error) => errors.push(error),
  });
  const controller = new AbortController();
  const events: FollowerEvent[] = [];
  for await (const event of follower.events(controller.signal)) {
    events.push(event);
    if (event.type === 'finalized' && event.number === 7n) controller.abort();
  }
  expect(events.flatMap((event) => (event.type === 'block' ? [event.block.number] : []))).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
  expect(events.flatMap((event) => (event.type === 'finalized' ? [event.number] : []))).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  expect(events.some((event) => event.type === 'reorg')).toBe(false);
  expect(errors.length).toBeGreaterThan(0);
}, 5_000);
