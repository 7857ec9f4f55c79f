import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';
import { uniqueName } from '@wallet-api/core/testing';
import { createPublicClient, http, parseAbi, type Address, type Hex, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { createBlockSource } from '../src/fetch/block-source.js';
import { createPoolEventSource } from '../src/fetch/pool-event-source.js';
import { collectPublished, eventually, setupIndexing, startOwnChain, type IndexingHarness, type OwnChain, type Published } from './setup-indexing.js';

// The pool events the indexer publishes for the test world (shared chains, only read), held
// against the chain: its own logs read with getLogs, the manifest's pools, and the pools' state
// read by eth_call at each block.

const poolLogAbi = parseAbi([
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);
const poolStateAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
]);

const q96 = 2n ** 96n;
const abs = (value: bigint) => (value < 0n ? -value : value);

/** V3 Mint and Burn of no liquidity (fee collection pokes) change no pool state. */
const changesState = (log: { eventName: string; args: Record<string, any> }) =>
  !((log.eventName === 'Mint' || log.eventName === 'Burn') && log.args.amount === 0n);
const isV2 = (log: { eventName: string; args: Record<string, any> }) => log.eventName === 'Sync' || (log.eventName === 'Swap' && 'amount0In' in log.args);

let manifest: Manifest;
let harness: IndexingHarness;

beforeAll(async () => {
  manifest = await readManifest();
  harness = await setupIndexing();
});

afterAll(async () => {
  await harness?.close();
});

describe.each(['ethereum', 'base', 'sepolia'])('pool events of the test world on %s', (worldChainId) => {
  // A chain id of the test's own: its checkpoints and messages meet no other suite's.
  const chainId = uniqueName(worldChainId);
  let chain: ChainWorld;
  let uniswap: UniswapManifest;
  let client: PublicClient;
  let published: Published & { stop(): Promise<void> };
  let stopIndexer: () => Promise<void>;
  let chainLogs: Awaited<ReturnType<typeof readPoolLogs>>;

  async function readPoolLogs() {
    return (await client.getLogs({ events: poolLogAbi, fromBlock: 0n, toBlock: BigInt(chain.endBlock), strict: true })).filter(changesState);
  }

  beforeAll(async () => {
    chain = manifest.chains.find((candidate) => candidate.id === worldChainId)!;
    uniswap = chain.protocols.uniswap as UniswapManifest;
    client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    chainLogs = await readPoolLogs();
    published = await collectPublished(harness.kafka, harness.topics, chainId);
    stopIndexer = harness.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
    await eventually(() => expect(published.blocks.map((block) => Number(block.number))).toContain(chain.endBlock), 120_000);
    // Pool events precede their block on the producer side; across topics the consumer may see
    // them later, so wait until the count settles at the chain's.
    await eventually(() => expect(published.poolEvents).toHaveLength(chainLogs.length), 30_000);
  }, 180_000);

  afterAll(async () => {
    await stopIndexer?.();
    await published?.stop();
    await harness.prisma.indexedBlock.deleteMany({ where: { chainId } });
  });

  test('every Sync, Swap, Initialize, Mint and Burn log of the chain, once, in log order, from its pool', () => {
    expect(chainLogs.length).toBeGreaterThan(0);
    const fromChain = chainLogs.map((log) => ({
      block: log.blockNumber.toString(),
      blockHash: log.blockHash,
      transactionIndex: log.transactionIndex,
      logIndex: log.logIndex,
      pool: log.address.toLowerCase(),
      kind: isV2(log) ? PoolKind.POOL_KIND_UNISWAP_V2 : PoolKind.POOL_KIND_UNISWAP_V3,
    }));
    const fromTopic = published.poolEvents.map((event) => ({
      block: event.blockNumber,
      blockHash: event.blockHash,
      transactionIndex: event.transactionIndex,
      logIndex: event.logIndex,
      pool: event.pool,
      kind: event.kind,
    }));
    expect(fromTopic).toEqual(fromChain);
  });

  test("each event names its pool's tokens, factory and fee as the world deployed them", () => {
    const pools = new Map<string, { token0: string; token1: string; factory: string; fee: number }>([
      ...uniswap.v2.pairs.map(
        (pair) => [pair.address.toLowerCase(), { token0: pair.token0, token1: pair.token1, factory: uniswap.v2.factory, fee: 0 }] as const,
      ),
      ...uniswap.v3.pools.map(
        (pool) => [pool.address.toLowerCase(), { token0: pool.token0, token1: pool.token1, factory: uniswap.v3.factory, fee: pool.fee }] as const,
      ),
    ]);
    for (const event of published.poolEvents) {
      const deployed = pools.get(event.pool);
      expect({ pool: event.pool, deployed: deployed !== undefined }).toEqual({ pool: event.pool, deployed: true });
      expect({ pool: event.pool, token0: event.token0, token1: event.token1, factory: event.factory, fee: event.fee }).toEqual({
        pool: event.pool,
        token0: deployed!.token0.toLowerCase(),
        token1: deployed!.token1.toLowerCase(),
        factory: deployed!.factory.toLowerCase(),
        fee: deployed!.fee,
      });
    }
  });

  test('each event carries what its log says: reserves, price, liquidity and swapped amounts', async () => {
    const blockTimes = new Map<bigint, bigint>();
    for (const number of new Set(chainLogs.map((log) => log.blockNumber))) blockTimes.set(number, (await client.getBlock({ blockNumber: number })).timestamp);
    chainLogs.forEach((log, index) => {
      const event = published.poolEvents[index]!;
      const at = { block: event.blockNumber, logIndex: event.logIndex };
      expect({ ...at, timestamp: event.blockTimestamp }).toEqual({ ...at, timestamp: blockTimes.get(log.blockNumber)!.toString() });
      const state = (reserve0: bigint, reserve1: bigint, sqrtPriceX96: bigint, liquidity: bigint, volume0: bigint, volume1: bigint) => ({
        ...at,
        reserve0: reserve0.toString(),
        reserve1: reserve1.toString(),
        sqrtPriceX96: sqrtPriceX96.toString(),
        liquidity: liquidity.toString(),
        volume0: volume0.toString(),
        volume1: volume1.toString(),
      });
      const actual = state(
        BigInt(event.reserve0),
        BigInt(event.reserve1),
        BigInt(event.sqrtPriceX96),
        BigInt(event.liquidity),
        BigInt(event.volume0),
        BigInt(event.volume1),
      );
      const args = log.args as Record<string, bigint>;
      if (log.eventName === 'Sync') {
        expect(actual).toEqual(state(args.reserve0!, args.reserve1!, 0n, 0n, 0n, 0n));
      } else if (log.eventName === 'Initialize') {
        expect(actual).toEqual(state(0n, 0n, args.sqrtPriceX96!, 0n, 0n, 0n));
      } else if ('amount0In' in args) {
        // A V2 pair emits the Sync of its new reserves right before the Swap.
        const sync = chainLogs[index - 1]!;
        expect({ ...at, previous: sync.eventName, pool: sync.address, transaction: sync.transactionHash }).toEqual({
          ...at,
          previous: 'Sync',
          pool: log.address,
          transaction: log.transactionHash,
        });
        const reserves = sync.args as { reserve0: bigint; reserve1: bigint };
        expect(actual).toEqual(state(reserves.reserve0, reserves.reserve1, 0n, 0n, args.amount0In! + args.amount0Out!, args.amount1In! + args.amount1Out!));
      } else if (log.eventName === 'Swap') {
        const { liquidity, sqrtPriceX96 } = args as { liquidity: bigint; sqrtPriceX96: bigint };
        expect(actual).toEqual(
          state((liquidity * q96) / sqrtPriceX96, (liquidity * sqrtPriceX96) / q96, sqrtPriceX96, liquidity, abs(args.amount0!), abs(args.amount1!)),
        );
      } else {
        // A liquidity change keeps the price and swaps nothing; its liquidity is checked against the chain below.
        const liquidity = BigInt(event.liquidity);
        const sqrtPriceX96 = BigInt(event.sqrtPriceX96);
        expect(sqrtPriceX96).toBeGreaterThan(0n);
        expect(actual).toEqual(state((liquidity * q96) / sqrtPriceX96, (liquidity * sqrtPriceX96) / q96, sqrtPriceX96, liquidity, 0n, 0n));
      }
    });
  });

  test('the last event of a pool in a block holds the state the pool reads at that block', async () => {
    const lastOfBlock = new Map<string, PoolEvent>();
    for (const event of published.poolEvents) lastOfBlock.set(`${event.blockNumber}:${event.pool}`, event);
    const checked = { v2: 0, v3: 0, v3AfterLiquidityChange: 0 };
    const liquidityChanges = new Set(
      chainLogs.filter((log) => log.eventName === 'Mint' || log.eventName === 'Burn').map((log) => `${log.blockNumber}:${log.logIndex}`),
    );
    for (const event of lastOfBlock.values()) {
      const read = { address: event.pool as Address, abi: poolStateAbi, blockNumber: BigInt(event.blockNumber) } as const;
      const at = { block: event.blockNumber, pool: event.pool };
      if (event.kind === PoolKind.POOL_KIND_UNISWAP_V2) {
        const [reserve0, reserve1] = await client.readContract({ ...read, functionName: 'getReserves' });
        expect({ ...at, reserve0: event.reserve0, reserve1: event.reserve1 }).toEqual({ ...at, reserve0: reserve0.toString(), reserve1: reserve1.toString() });
        checked.v2++;
        continue;
      }
      const [[sqrtPriceX96], liquidity] = await Promise.all([
        client.readContract({ ...read, functionName: 'slot0' }),
        client.readContract({ ...read, functionName: 'liquidity' }),
      ]);
      expect({ ...at, sqrtPriceX96: event.sqrtPriceX96, liquidity: event.liquidity }).toEqual({
        ...at,
        sqrtPriceX96: sqrtPriceX96.toString(),
        liquidity: liquidity.toString(),
      });
      checked.v3++;
      if (liquidityChanges.has(`${event.blockNumber}:${event.logIndex}`)) checked.v3AfterLiquidityChange++;
    }
    expect(checked.v2).toBeGreaterThan(0);
    expect(checked.v3).toBeGreaterThan(0);
    // Blocks whose last pool log is a Mint or Burn: the liquidity replayed over the block's logs.
    expect(checked.v3AfterLiquidityChange).toBeGreaterThan(0);
  });
});

/** A client of `rpcUrl` that counts the eth_call requests it sends. */
function countingClient(rpcUrl: string): { client: PublicClient; calls: () => number } {
  let calls = 0;
  const client = createPublicClient({
    transport: http(rpcUrl, {
      onFetchRequest: (_request, init) => {
        if (typeof init.body === 'string' && JSON.parse(init.body).method === 'eth_call') calls++;
      },
    }),
    cacheTime: 0,
  });
  return { client, calls: () => calls };
}

describe('the pool event source', () => {
  test("reads each pool's tokens, factory and fee once, the state before the block only for a liquidity change first in it, and nothing for a block without pool logs", async () => {
    const chain = manifest.chains.find((candidate) => candidate.id === 'ethereum')!;
    const { client, calls } = countingClient(chain.rpcUrl);
    const source = createBlockSource({ client, chainId: chain.id });
    const pools = createPoolEventSource({ client });
    const logs = (await client.getLogs({ events: poolLogAbi, fromBlock: 0n, toBlock: BigInt(chain.endBlock), strict: true })).filter(changesState);
    const withLogs = new Set(logs.map((log) => log.blockNumber));
    // slot0() and liquidity() at the parent block, for each block and pool whose first log there is a Mint or Burn.
    const firstInBlock = new Map<string, string>();
    for (const log of logs) if (!firstInBlock.has(`${log.blockNumber}:${log.address}`)) firstInBlock.set(`${log.blockNumber}:${log.address}`, log.eventName);
    const priorReads = 2 * [...firstInBlock.values()].filter((name) => name === 'Mint' || name === 'Burn').length;
    expect(priorReads).toBeGreaterThan(0);
    const seen = new Map<string, number>();
    for (let number = 0n; number <= BigInt(chain.endBlock); number++) {
      const before = calls();
      const events = await pools.eventsOf((await source.fetch(number))!);
      for (const event of events) seen.set(event.pool, event.kind === PoolKind.POOL_KIND_UNISWAP_V3 ? 4 : 3);
      if (!withLogs.has(number)) expect({ number, calls: calls() - before }).toEqual({ number, calls: 0 });
    }
    expect(seen.size).toBe(new Set(logs.map((log) => log.address.toLowerCase())).size);
    expect(calls()).toBe([...seen.values()].reduce((sum, perPool) => sum + perPool, priorReads));
  });

  describe('contracts that log like a pool but are none', () => {
    const sender: Address = '0x00000000000000000000000000000000000f0110';
    const syncTopic = '1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1';
    // Any call logs a Sync of two zero reserves and returns nothing: token0() answers no data.
    const silent: Address = '0x00000000000000000000000000000000005111e7';
    const silentCode: Hex = `0x7f${syncTopic}60406000a100`;
    // A call without data logs the same Sync; a call with data (token0() too) reverts.
    const reverting: Address = '0x0000000000000000000000000000000000e77e27';
    const revertingCode: Hex = `0x36602b577f${syncTopic}60406000a1005b60006000fd`;
    let chain: OwnChain;

    beforeAll(async () => {
      chain = await startOwnChain();
      await chain.session.client.setCode({ address: silent, bytecode: silentCode });
      await chain.session.client.setCode({ address: reverting, bytecode: revertingCode });
      await chain.session.setBalance(sender, 10n ** 18n);
    });

    afterAll(async () => {
      await chain?.stop();
    });

    test('their logs are on the chain, no pool event comes of them, and they are asked once', async () => {
      for (const to of [silent, reverting]) await chain.session.send({ from: sender, to, gas: 100_000n });
      const block = await chain.session.mine((await chain.session.latestTimestamp()) + 12);
      const logs = await chain.session.client.getLogs({ events: poolLogAbi, fromBlock: block.number, toBlock: block.number, strict: true });
      expect(logs.map((log) => [log.eventName, log.address.toLowerCase()])).toEqual([
        ['Sync', silent],
        ['Sync', reverting],
      ]);
      const { client, calls } = countingClient(chain.rpcUrl);
      const bundle = (await createBlockSource({ client, chainId: 'not-pools' }).fetch(block.number))!;
      const pools = createPoolEventSource({ client });
      expect(await pools.eventsOf(bundle)).toEqual([]);
      const asked = calls();
      expect(asked).toBeGreaterThan(0);
      expect(await pools.eventsOf(bundle)).toEqual([]);
      expect(calls()).toBe(asked);
    });
  });
});
