// The block clock against a real anvil: blocks found by time match the chain's own timestamps,
// and a time below the newest remembered stable block is answered without asking the head.
import { createPublicClient, http, type PublicClient } from 'viem';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { createBlockClock } from '../src/prices/block-clock.js';

const genesis = 1_700_000_000;
const stableDepth = 4n;
let chain: OwnChain;
let client: PublicClient;
/** Block number -> timestamp, as mined. */
const mined = new Map<bigint, number>([[0n, genesis]]);

beforeAll(async () => {
  chain = await startOwnChain({ genesisTimestamp: genesis });
  client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient;
  // Uneven gaps, and two blocks in the same second.
  const gaps = [12, 12, 30, 0, 7, 12, 100, 12, 1, 12, 12, 12];
  let time = genesis;
  for (const gap of gaps) {
    time += gap;
    const block = await chain.session.mine(time);
    mined.set(block.number, time);
  }
}, 60_000);
afterAll(async () => chain?.stop());

/** The newest mined block at or before `timestamp`. */
function expectedAt(timestamp: number): bigint | undefined {
  return [...mined].filter(([, time]) => time <= timestamp).at(-1)?.[0];
}

test('finds the newest block at or before each time, and says which are stable', async () => {
  const clock = createBlockClock(client, { stableDepth });
  const head = [...mined.keys()].at(-1)!;
  for (const timestamp of [genesis - 1, ...[...mined.values()].flatMap((time) => [time - 1, time, time + 1])]) {
    const found = await clock.blockAt(timestamp);
    const expected = expectedAt(timestamp);
    expect([timestamp, found?.number]).toEqual([timestamp, expected]);
    if (found) expect([timestamp, found.stable]).toEqual([timestamp, found.number <= head - stableDepth]);
  }
});

test('a time below a remembered stable block is answered from memory, without asking the head', async () => {
  let headReads = 0;
  const counted = {
    ...client,
    getBlockNumber: (...args: Parameters<PublicClient['getBlockNumber']>) => (headReads++, client.getBlockNumber(...args)),
  } as PublicClient;
  const clock = createBlockClock(counted, { stableDepth });
  const late = [...mined.values()].at(-6)!;
  await clock.blockAt(late);
  expect(headReads).toBe(1);
  const early = [...mined.values()][3]!;
  const found = await clock.blockAt(early + 1);
  expect(found).toEqual({ number: expectedAt(early + 1), stable: true });
  expect(headReads).toBe(1);
});

test('recent blocks are read once per rollback epoch, and again under a new epoch; a time before the head is found again without asking it', async () => {
  let blockReads = 0;
  let headReads = 0;
  const counted = {
    ...client,
    getBlock: (...args: Parameters<PublicClient['getBlock']>) => (blockReads++, client.getBlock(...args)),
    getBlockNumber: (...args: Parameters<PublicClient['getBlockNumber']>) => (headReads++, client.getBlockNumber(...args)),
  } as PublicClient;
  const clock = createBlockClock(counted, { stableDepth: 1_000n });
  const recentTime = [...mined.values()].at(-3)!;
  const expected = { number: expectedAt(recentTime), stable: false };

  expect(await clock.blockAt(recentTime, 'epoch-1')).toEqual({ ...expected, epoch: 'epoch-1' });
  const firstSearch = blockReads;
  expect(headReads).toBe(1);
  expect(await clock.blockAt(recentTime, 'epoch-1')).toEqual({ ...expected, epoch: 'epoch-1' });
  // The time has a later block after it: its block holds until a reorg, and nothing is read.
  expect([blockReads, headReads]).toEqual([firstSearch, 1]);
  // Another time: every block of the search is recent at this depth and remembered, the head read alone.
  expect(await clock.blockAt(recentTime + 1, 'epoch-1')).toEqual({ number: expectedAt(recentTime + 1), stable: false, epoch: 'epoch-1' });
  expect([blockReads, headReads]).toEqual([firstSearch, 2]);

  expect(await clock.blockAt(recentTime, 'epoch-2')).toEqual({ ...expected, epoch: 'epoch-2' });
  expect(blockReads).toBeGreaterThan(firstSearch);

  // Without an epoch nothing recent is remembered.
  const beforeUnremembered = blockReads;
  expect(await clock.blockAt(recentTime)).toEqual(expected);
  expect(blockReads).toBeGreaterThan(beforeUnremembered);
});
