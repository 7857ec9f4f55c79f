import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createPublicClient, http, parseEther, type Address } from 'viem';
import { createChainSession, startAnvil, type AnvilInstance, type ChainSession } from '../../../devnet/src/chain/index.js';
import { createBlockFollower, type FollowerEvent } from '../src/sync/block-follower.js';
import type { BlockRef } from '../src/sync/reconcile.js';

const finalityDepth = 5;
const sender: Address = '0x00000000000000000000000000000000000f0110';
const genesisTimestamp = 1_700_000_000;

let anvil: AnvilInstance;
let anvilDir: string;
let session: ChainSession;
let clock = genesisTimestamp;

/** Each block carries a transfer whose recipient names the branch, so a replayed height gets a new hash. */
async function mineBlocks(count: number, branch: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const to = `0x${branch.toString(16).padStart(20, '0')}${index.toString(16).padStart(20, '0')}` as Address;
    await session.send({ from: sender, to, value: 1n, gas: 21_000n });
    await session.mine((clock += 12));
  }
}

async function rollback(depth: number): Promise<void> {
  await session.client.request({ method: 'anvil_rollback' as never, params: [depth] as never });
  session.resetNonces();
  clock = await session.latestTimestamp();
}

async function chainHashes(from: bigint, to: bigint): Promise<BlockRef[]> {
  const refs: BlockRef[] = [];
  for (let number = from; number <= to; number++) refs.push({ number, hash: (await session.client.getBlock({ blockNumber: number })).hash });
  return refs;
}

interface Follower {
  events: FollowerEvent[];
  until(predicate: (event: FollowerEvent) => boolean): Promise<void>;
  stop(): Promise<void>;
}
/** Stopped after the tests, so a failed test leaves no follower polling. */
const followers: Follower[] = [];

/** Runs a follower in the background, as a consumer would, keeping every event it emits. */
function follow(fromCheckpoint?: readonly BlockRef[]): Follower {
  const client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
  const follower = createBlockFollower({
    client,
    chainId: '31337',
    startBlock: 1n,
    finalityDepth,
    pollIntervalMs: 50,
    ...(fromCheckpoint ? { fromCheckpoint } : {}),
  });
  const controller = new AbortController();
  const events: FollowerEvent[] = [];
  let failure: unknown;
  const done = (async () => {
    for await (const event of follower.events(controller.signal)) events.push(event);
  })().catch((error: unknown) => {
    failure = error;
  });
  const running: Follower = {
    events,
    async until(predicate) {
      const deadline = Date.now() + 10_000;
      while (!events.some(predicate)) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`no matching event within 10 s; got ${events.length} events`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      controller.abort();
      await done;
      if (failure) throw failure;
    },
  };
  followers.push(running);
  return running;
}

const blockAt = (number: bigint) => (event: FollowerEvent) => event.type === 'block' && event.block.number === number;

/** The chain a consumer holds after applying the events to `from`: blocks appended, reorgs cut back to the ancestor. */
function committed(events: readonly FollowerEvent[], from: readonly BlockRef[] = []): BlockRef[] {
  const chain = [...from];
  for (const event of events) {
    switch (event.type) {
      case 'block':
        expect(event.block.parentHash).toBe(chain.at(-1)?.hash ?? event.block.parentHash);
        chain.push({ number: event.block.number, hash: event.block.hash });
        break;
      case 'reorg':
        expect(chain.find((block) => block.number === event.commonAncestor.number)).toEqual(event.commonAncestor);
        chain.splice(chain.findIndex((block) => block.number === event.commonAncestor.number) + 1);
        break;
      case 'finalized':
        break;
      default:
        event satisfies never;
    }
  }
  return chain;
}

function finalizedOf(events: readonly FollowerEvent[]) {
  return events.flatMap((event) => (event.type === 'finalized' ? [{ number: event.number, hash: event.hash }] : []));
}

beforeAll(async () => {
  const anvils = new URL('../../../.data/devnet/test-anvil/', import.meta.url).pathname;
  await mkdir(anvils, { recursive: true });
  anvilDir = await mkdtemp(`${anvils}block-follower-`);
  anvil = await startAnvil({ chainId: 31337, cachePath: anvilDir, genesisTimestamp });
  session = await createChainSession(anvil.rpcUrl);
  await session.setBalance(sender, parseEther('10'));
  await mineBlocks(30, 1);
});

afterAll(async () => {
  await Promise.allSettled(followers.map((follower) => follower.stop()));
  await anvil?.stop();
  if (anvilDir) await rm(anvilDir, { recursive: true, force: true });
});

describe('block follower on anvil', () => {
  let live: Follower;
  let orphaned: BlockRef[];
  let checkpoint: BlockRef[];

  test('backfills every block once and in order', async () => {
    live = follow();
    await live.until(blockAt(30n));
    const blocks = live.events.filter((event) => event.type === 'block');
    expect(blocks.map((event) => event.block.number)).toEqual(Array.from({ length: 30 }, (_, index) => BigInt(index + 1)));
    expect(committed(live.events)).toEqual(await chainHashes(1n, 30n));
    expect(finalizedOf(live.events)).toEqual(await chainHashes(1n, 25n));
  });

  test('follows new blocks', async () => {
    await mineBlocks(3, 2);
    await live.until(blockAt(33n));
    expect(committed(live.events)).toEqual(await chainHashes(1n, 33n));
    expect(live.events.filter((event) => event.type === 'reorg')).toEqual([]);
  });

  test('reports a reorg of depth 3 once, then the new branch', async () => {
    orphaned = await chainHashes(31n, 33n);
    const ancestor = (await chainHashes(30n, 30n))[0]!;
    const seen = live.events.length;
    await rollback(3);
    await mineBlocks(4, 3);
    await live.until(blockAt(34n));

    const after = live.events.slice(seen);
    expect(after.filter((event) => event.type === 'reorg')).toEqual([{ type: 'reorg', commonAncestor: ancestor, orphaned }]);
    const blocksAfterReorg = after.slice(after.findIndex((event) => event.type === 'reorg')).filter((event) => event.type === 'block');
    expect(blocksAfterReorg.map((event) => event.block.number)).toEqual([31n, 32n, 33n, 34n]);
    expect(committed(live.events)).toEqual(await chainHashes(1n, 34n));
    expect(
      committed(live.events)
        .slice(30)
        .map((block) => block.hash),
    ).not.toContain(orphaned[0]!.hash);
  });

  test('finalizes in order and only canonical blocks', async () => {
    const finalized = finalizedOf(live.events);
    expect(finalized.map((block) => block.number)).toEqual(Array.from({ length: 29 }, (_, index) => BigInt(index + 1)));
    expect(finalized).toEqual(await chainHashes(1n, 29n));
  });

  test('restarts from a checkpoint without skipping or repeating blocks', async () => {
    await live.stop();
    checkpoint = committed(live.events).slice(-(finalityDepth + 1));
    await mineBlocks(2, 4);

    live = follow(checkpoint);
    await live.until(blockAt(36n));
    expect(live.events.filter((event) => event.type !== 'finalized')).toEqual([
      expect.objectContaining({ type: 'block', block: expect.objectContaining({ number: 35n, parentHash: checkpoint.at(-1)!.hash }) }),
      expect.objectContaining({ type: 'block', block: expect.objectContaining({ number: 36n }) }),
    ]);
    expect(finalizedOf(live.events).map((block) => block.number)).toEqual([30n, 31n]);
  });

  test('on restart, reports first a reorg that happened while it was stopped', async () => {
    await live.stop();
    checkpoint = committed(live.events, checkpoint);
    const ancestor = checkpoint.find((block) => block.number === 34n)!;
    const lost = checkpoint.filter((block) => block.number > 34n);
    await rollback(2);
    await mineBlocks(3, 5);

    live = follow(checkpoint);
    await live.until(blockAt(37n));
    expect(live.events[0]).toEqual({ type: 'reorg', commonAncestor: ancestor, orphaned: lost });
    expect(live.events.filter((event) => event.type === 'block').map((event) => event.block.number)).toEqual([35n, 36n, 37n]);
    expect(committed(live.events, checkpoint)).toEqual(await chainHashes(29n, 37n));
    await live.stop();
  });
});
