// Prices from the chain itself, end to end: the test world's ethereum state on an anvil of the
// test's own, the indexer publishing its pool events to Kafka topics of the test's own, the price
// consumer folding them into ClickHouse, and GetPrices / GetFungibles over gRPC. Every expected
// number is computed here from eth_call reads of the pools, vaults and tokens at the right block.
import { sql } from '@wallet-api/core/clickhouse';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { eventually, uniqueName } from '@wallet-api/core/testing';
import { status } from '@grpc/grpc-js';
import { createPublicClient, encodeFunctionData, http, parseAbi, type Address, type Hex } from 'viem';
import { npmArtifact } from '../../../devnet/src/compile/index.js';
import type { DefiManifest } from '../../../devnet/src/protocols/defi/manifest.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/manifest.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { expectedPrices, readPools, relativeError, routingOf, uniswapPools, type Routing, type TestPool } from './price-expectations.js';
import { startPricePipeline, type PricePipeline } from './setup-prices.js';

const tolerance = 1e-9;

const erc20 = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
]);
const routerAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);
const factoryAbi = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address)',
  'function getPair(address, address) view returns (address)',
]);
const pairAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function totalSupply() view returns (uint256)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);
const v3SwapEvent = parseAbi([
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])[0];
const vaultAbi = parseAbi(['function convertToAssets(uint256 shares) view returns (uint256)']);
const day = 86_400;

let pipeline: PricePipeline;
let uniswap: UniswapManifest;
let tokens: TokensManifest;
let routing: Routing;
/** The registry's pools: what the service may trust. */
let trustedPools: TestPool[];
let stopIndexer: () => Promise<void>;
let firstConsumer: { stop(): Promise<void> };

const lower = (address: string) => address.toLowerCase();
const symbol = (name: string) => lower(tokens.tokens.find((token) => token.symbol === name && token.kind !== 'spam')!.address);
const context = (addons: string[] = []) => ({ organizationId: '', roles: [], addons, network: Network.NETWORK_MAINNET });

async function servedPrices(queries: { address: string; timestamp: number }[], currency = 'usd'): Promise<(number | undefined)[]> {
  const response = await unary(pipeline.grpc, pipeline.grpc.getPrices, {
    context: context(),
    currency,
    queries: queries.map((query) => ({ token: { chainId: pipeline.chainId, address: query.address }, timestamp: String(query.timestamp) })),
  });
  return response.prices.map((price) => price.price);
}

async function expectedAt(blockNumber: bigint, pools: readonly TestPool[] = trustedPools): Promise<Map<string, number>> {
  return expectedPrices(await readPools(pipeline.client, pools, blockNumber), routing);
}

/** A V2 LP token's USD price at a block: its reserves at that block at their tokens' prices then, per LP token. */
async function expectedLpPrice(pair: { address: string; token0: string; token1: string }, blockNumber: bigint, prices: Map<string, number>): Promise<number> {
  const read = <T>(functionName: 'getReserves' | 'totalSupply') =>
    pipeline.client.readContract({ address: pair.address as Address, abi: pairAbi, functionName, blockNumber }) as Promise<T>;
  const [[reserve0, reserve1], supply] = await Promise.all([read<readonly [bigint, bigint, number]>('getReserves'), read<bigint>('totalSupply')]);
  const [d0, d1] = [routing.decimals.get(lower(pair.token0))!, routing.decimals.get(lower(pair.token1))!];
  return (
    ((Number(reserve0) / 10 ** d0) * prices.get(lower(pair.token0))! + (Number(reserve1) / 10 ** d1) * prices.get(lower(pair.token1))!) /
    (Number(supply) / 1e18)
  );
}

const deployer = () => pipeline.world.deployer as Address;
const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 10 * day);

async function send(to: string, data: Hex, gas = 6_000_000n): Promise<void> {
  await pipeline.chain.session.send({ from: deployer(), to: to as Address, data, gas });
}

/** A timestamp for the next block: anvil refuses one behind the wall clock once it runs. */
async function nextTime(): Promise<number> {
  return Math.max((await pipeline.chain.session.latestTimestamp()) + 1, Math.floor(Date.now() / 1000) + 1);
}

/** Mines what was sent; answers the block number. */
async function mine(): Promise<bigint> {
  return (await pipeline.chain.session.mine(await nextTime())).number;
}

function expectClose(actual: number | undefined, expected: number | undefined, what: string): void {
  if (expected === undefined) {
    expect([what, actual]).toEqual([what, undefined]);
    return;
  }
  expect([what, actual !== undefined && relativeError(actual, expected) <= tolerance]).toEqual([what, true]);
}

beforeAll(async () => {
  pipeline = await startPricePipeline();
  uniswap = pipeline.world.protocols.uniswap as UniswapManifest;
  tokens = pipeline.world.protocols.tokens as TokensManifest;
  routing = routingOf(pipeline.registry, pipeline.chainId, tokens.tokens);
  trustedPools = uniswapPools(uniswap);
  firstConsumer = await pipeline.startConsumer(uniqueName('prices'));
  stopIndexer = pipeline.harness.runIndexer({ chainId: pipeline.chainId, rpcUrl: pipeline.chain.rpcUrl });
  await pipeline.indexedThrough(await pipeline.lastPoolEventBlock(trustedPools));
}, 300_000);

afterAll(async () => {
  await stopIndexer?.();
  await pipeline?.close();
});

describe('prices from the indexed pools of the test world', () => {
  test("every priced token's price at the head is the liquidity-weighted mean of its pools' states read from the chain", async () => {
    const head = await pipeline.client.getBlockNumber();
    const expected = await expectedAt(head);
    const priced = [...expected.keys()];
    // The world prices its majors, its standard tokens, and ignores its thin V3 pool.
    expect(new Set(priced)).toEqual(new Set(['WETH', 'USDC', 'DAI', 'WBTC', 'GOV', 'FROG', 'YLD'].map(symbol)));
    const served = await servedPrices(priced.map((address) => ({ address, timestamp: 0 })));
    priced.forEach((address, index) => expectClose(served[index], expected.get(address), address));
    // A token no trusted pool prices has no price; the native asset is priced as its wrapped token.
    const [tax, native] = await servedPrices([
      { address: symbol('TAX'), timestamp: 0 },
      { address: '', timestamp: 0 },
    ]);
    expect(tax).toBeUndefined();
    expectClose(native, expected.get(routing.weth), 'native');
  });

  test('the price at a past time is the mean of the pool states of the block that was newest then', async () => {
    for (const number of [30n, 60n, 90n, 110n]) {
      const [block, next] = await Promise.all([pipeline.client.getBlock({ blockNumber: number }), pipeline.client.getBlock({ blockNumber: number + 1n })]);
      const expected = await expectedAt(number);
      const priced = [...expected.keys()];
      for (const timestamp of [Number(block.timestamp), Math.floor(Number(block.timestamp + next.timestamp) / 2)]) {
        const served = await servedPrices(priced.map((address) => ({ address, timestamp })));
        priced.forEach((address, index) => expectClose(served[index], expected.get(address), `${address} at ${timestamp} (block ${number})`));
      }
    }
    const genesis = await pipeline.client.getBlock({ blockNumber: 0n });
    expect(await servedPrices([{ address: routing.weth, timestamp: Number(genesis.timestamp) }])).toEqual([undefined]);
  });

  test('currencies: eth and btc through the wrapped native and BTC token prices of the same time, fiat through the FX table', async () => {
    const head = await pipeline.client.getBlockNumber();
    const past = await pipeline.client.getBlock({ blockNumber: 70n });
    for (const [number, timestamp] of [
      [70n, Number(past.timestamp)],
      [head, 0],
    ] as const) {
      const expected = await expectedAt(number);
      const [gov, weth, wbtc] = [symbol('GOV'), routing.weth, symbol('WBTC')].map((address) => expected.get(address)!) as [number, number, number];
      const query = [{ address: symbol('GOV'), timestamp }];
      const [usd, eth, btc, eur, jpy] = (await Promise.all(['usd', 'eth', 'btc', 'eur', 'jpy'].map((currency) => servedPrices(query, currency)))).map(
        ([price]) => price,
      );
      expectClose(usd, gov, 'usd');
      expectClose(eth, gov / weth, 'eth');
      expectClose(btc, gov / wbtc, 'btc');
      expectClose(eur, gov * pipeline.fx.rates.eur, 'eur');
      expectClose(jpy, gov * pipeline.fx.rates.jpy, 'jpy');
    }
    await expect(servedPrices([{ address: routing.weth, timestamp: 0 }], 'xau')).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  test('LP tokens and vault shares are worth their underlying assets, read at the block of the time asked', async () => {
    const defi = pipeline.world.protocols.defi as DefiManifest;
    const pairs = uniswap.v2.pairs.slice(0, 4);
    const head = await pipeline.client.getBlockNumber();
    const past = await pipeline.client.getBlock({ blockNumber: 80n });
    for (const [number, timestamp] of [
      [80n, Number(past.timestamp)],
      [head, 0],
    ] as const) {
      const expected = await expectedAt(number);
      const lpExpected = await Promise.all(pairs.map((pair) => expectedLpPrice(pair, number, expected)));
      const vaultExpected = await Promise.all(
        defi.vaults.map(async (vault) => {
          const assets = await pipeline.client.readContract({
            address: vault.address,
            abi: vaultAbi,
            functionName: 'convertToAssets',
            args: [10n ** BigInt(vault.decimals)],
            blockNumber: number,
          });
          return (Number(assets) / 10 ** routing.decimals.get(lower(vault.asset))!) * expected.get(lower(vault.asset))!;
        }),
      );
      const served = await servedPrices([
        ...pairs.map((pair) => ({ address: lower(pair.address), timestamp })),
        ...defi.vaults.map((vault) => ({ address: lower(vault.address), timestamp })),
      ]);
      lpExpected.forEach((price, index) => expectClose(served[index], price, `LP ${pairs[index]!.address} at block ${number}`));
      vaultExpected.forEach((price, index) => expectClose(served[pairs.length + index], price, `vault ${defi.vaults[index]!.address} at block ${number}`));
    }
  });

  test('a vault or pair that did not exist yet at the time asked has no price then, even when its asset has one', async () => {
    const defi = pipeline.world.protocols.defi as DefiManifest;
    const genesis = await pipeline.client.getBlock({ blockNumber: 0n });
    const contracts = [...defi.vaults.map((vault) => lower(vault.address)), ...uniswap.v2.pairs.slice(0, 4).map((pair) => lower(pair.address))];
    for (const address of contracts) expect(await pipeline.client.getCode({ address: address as Address, blockNumber: 0n })).toBeUndefined();
    // A stablecoin vault's asset is priced at 1 at any time: only the vault's absence can leave it unpriced.
    expect(defi.vaults.some((vault) => pipeline.registry.pricing[pipeline.chainId]!.usd_stablecoins.includes(lower(vault.asset)))).toBe(true);
    const served = await servedPrices(contracts.map((address) => ({ address, timestamp: Number(genesis.timestamp) })));
    expect(served).toEqual(contracts.map(() => undefined));
  });

  test('a thin manipulated pool does not move the price, nor does a pool of a factory outside the registry claiming huge reserves', async () => {
    const [yld, usdc, gov] = [symbol('YLD'), symbol('USDC'), symbol('GOV')];
    const before = await servedPrices([
      { address: yld, timestamp: 0 },
      { address: gov, timestamp: 0 },
    ]);
    expect(before.every((price) => price !== undefined)).toBe(true);

    // A new YLD/USDC pair of the registry's own factory: 1 USDC against a millionth of a YLD, a
    // million dollars per YLD, then a swap in it.
    const router = uniswap.v2.router;
    for (const token of [yld, usdc, gov]) await send(token, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, 2n ** 255n] }), 100_000n);
    await send(
      router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'addLiquidity',
        args: [yld as Address, usdc as Address, 10n ** 12n, 10n ** 6n, 0n, 0n, deployer(), deadline()],
      }),
    );
    await mine();
    await send(
      router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [10n ** 5n, 0n, [usdc as Address, yld as Address], deployer(), deadline()],
      }),
    );
    await mine();

    // A real Uniswap V2 factory that is not the registry's, with a GOV/USDC pair holding a million
    // USDC against one GOV.
    const fakeFactory = await pipeline.chain.session.deploy(
      npmArtifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
      [deployer()],
      deployer(),
      await nextTime(),
    );
    await send(fakeFactory, encodeFunctionData({ abi: factoryAbi, functionName: 'createPair', args: [gov as Address, usdc as Address] }));
    await mine();
    const fakePair = lower(
      await pipeline.client.readContract({ address: fakeFactory, abi: factoryAbi, functionName: 'getPair', args: [gov as Address, usdc as Address] }),
    );
    await send(usdc, encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [fakePair as Address, 1_000_000n * 10n ** 6n] }), 100_000n);
    await send(gov, encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [fakePair as Address, 10n ** 18n] }), 100_000n);
    await send(fakePair, encodeFunctionData({ abi: pairAbi, functionName: 'mint', args: [deployer()] }), 300_000n);
    const head = await mine();
    await pipeline.indexedThrough(head);

    const thinPair = lower(
      await pipeline.client.readContract({ address: uniswap.v2.factory, abi: factoryAbi, functionName: 'getPair', args: [yld as Address, usdc as Address] }),
    );
    const [token0, token1] = [yld, usdc].sort();
    trustedPools.push({ kind: 'v2', address: thinPair, token0: token0!, token1: token1! });
    const stored = await pipeline.database.clickhouse.query<{ pool: string }>(
      sql`SELECT DISTINCT pool FROM pool_events WHERE chain_id = ${pipeline.chainId} AND pool IN (${thinPair}, ${fakePair})`,
    );
    expect(new Set(stored.map((row) => row.pool))).toEqual(new Set([thinPair, fakePair]));

    const after = await servedPrices([
      { address: yld, timestamp: 0 },
      { address: gov, timestamp: 0 },
    ]);
    expect(after).toEqual(before);
    const expected = await expectedAt(head);
    expectClose(after[0], expected.get(yld), 'YLD');
    expectClose(after[1], expected.get(gov), 'GOV');
    // What the manipulated pools would have made of them, had they counted:
    const [thin] = await readPools(pipeline.client, [{ kind: 'v2', address: thinPair, token0: token0!, token1: token1! }], head);
    expect(Number(thin!.reserve1) / 1e6 / (Number(thin!.reserve0) / 1e18)).toBeGreaterThan(100_000);
  });

  test('fungibles: one fungible across chains, market data from the chains and the price history, asset class only with the add-on', async () => {
    const gov = symbol('GOV');
    // A swap in the GOV/WETH pair within the last day, for the 24-hour volume.
    await send(
      uniswap.v2.router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [1_000n * 10n ** 18n, 0n, [gov as Address, routing.weth as Address], deployer(), deadline()],
      }),
    );
    const head = await mine();
    await pipeline.indexedThrough(head);
    const seconds = Math.floor(Date.now() / 1000);

    const ask = (addons: string[]) =>
      unary(pipeline.grpc, pipeline.grpc.getFungibles, {
        context: context(addons),
        currency: 'usd',
        fungibleIds: ['weth', 'gov', 'no-such-fungible', 'usdc'],
        implementations: [{ chainId: pipeline.chainId, address: gov }],
      });
    const plain = await ask([]);
    const classified = await ask(['classification']);
    expect(plain.fungibles.map((fungible) => fungible.id)).toEqual(['weth', 'gov', 'usdc']);
    expect(plain.fungibles.map((fungible) => fungible.assetClass)).toEqual(['', '', '']);
    expect(classified.fungibles.map((fungible) => fungible.assetClass)).toEqual(['', '', 'stablecoin']);

    const base = pipeline.manifest.chains.find((chain) => chain.id === 'base')!;
    const baseClient = createPublicClient({ transport: http(base.rpcUrl) });
    const expectedNow = await expectedAt(head);
    const blockTimes = new Map<bigint, number>();
    for (let number = 0n; number <= head; number++) blockTimes.set(number, Number((await pipeline.client.getBlock({ blockNumber: number })).timestamp));

    for (const fungible of plain.fungibles) {
      const address = fungible.id === 'weth' ? routing.weth : symbol(fungible.id.toUpperCase());
      expect(fungible.verified).toBe(true);
      expect(fungible.implementations).toEqual([
        { chainId: pipeline.chainId, address, decimals: routing.decimals.get(address) },
        { chainId: 'base', address, decimals: routing.decimals.get(address) },
      ]);
      const market = fungible.marketData!;
      const price = expectedNow.get(address)!;
      expectClose(market.price, price, `${fungible.id} price`);

      const [ownSupply, baseSupply] = await Promise.all(
        [pipeline.client, baseClient].map((client) => client.readContract({ address: address as Address, abi: erc20, functionName: 'totalSupply' })),
      );
      const holders = fungible.id === 'weth' ? [] : [pipeline.client, baseClient];
      const held = await Promise.all(
        holders.map((client) => client.readContract({ address: address as Address, abi: erc20, functionName: 'balanceOf', args: [deployer()] })),
      );
      const scale = 10 ** routing.decimals.get(address)!;
      const total = Number(ownSupply) / scale + Number(baseSupply) / scale;
      const circulating = total - held.reduce((sum, value) => sum + Number(value) / scale, 0);
      expectClose(market.totalSupply, total, `${fungible.id} total supply`);
      expectClose(market.circulatingSupply, circulating, `${fungible.id} circulating supply`);
      expectClose(market.marketCap, circulating * price, `${fungible.id} market cap`);
      expectClose(market.fullyDilutedValuation, total * price, `${fungible.id} FDV`);

      for (const [field, days] of [
        ['percent1d', 1],
        ['percent30d', 30],
        ['percent90d', 90],
        ['percent365d', 365],
      ] as const) {
        // Changes compare with the price at the start of the minute N days ago.
        const then = Math.floor(seconds / 60) * 60 - days * day;
        const block = [...blockTimes].filter(([, time]) => time <= then).at(-1)?.[0];
        const thenPrice = block === undefined ? undefined : (await expectedAt(block)).get(address);
        // Compared as price ratios: a change near zero has no meaningful relative error.
        const served = market.changes?.[field];
        expectClose(served === undefined ? undefined : 1 + served / 100, thenPrice === undefined ? undefined : price / thenPrice, `${fungible.id} ${field}`);
      }

      // Every swap side of the token in a registry pool in the last day, at the token's price after its block.
      let volume = 0;
      for (const pool of trustedPools.filter((candidate) => candidate.token0 === address || candidate.token1 === address)) {
        const side = pool.token0 === address ? 0 : 1;
        const logs = await pipeline.client.getLogs({
          address: pool.address as Address,
          event: pool.kind === 'v2' ? pairAbi[3] : v3SwapEvent,
          fromBlock: 0n,
          strict: true,
        });
        for (const log of logs) {
          if (blockTimes.get(log.blockNumber)! <= seconds - day) continue;
          const args = log.args as unknown as Record<string, bigint>;
          const amount =
            pool.kind === 'v2'
              ? args[`amount${side}In`]! + args[`amount${side}Out`]!
              : args[`amount${side}`]! < 0n
                ? -args[`amount${side}`]!
                : args[`amount${side}`]!;
          volume += (Number(amount) / scale) * (await expectedAt(log.blockNumber)).get(address)!;
        }
      }
      expect([fungible.id, volume > 0]).toEqual([fungible.id, true]);
      expect([fungible.id, market.changes?.percent30d !== undefined && market.changes?.percent365d !== undefined]).toEqual([fungible.id, true]);
      expect([fungible.id, relativeError(market.volume1d ?? 0, volume) <= tolerance || volume === (market.volume1d ?? 0)]).toEqual([fungible.id, true]);
    }
  });

  test("a rollback takes the orphaned block's price out of the history and the new branch's in", async () => {
    const usdc = symbol('USDC');
    const usdcWeth = uniswap.v2.pairs.find((pair) => [lower(pair.token0), lower(pair.token1)].sort().join() === [usdc, routing.weth].sort().join())!;
    const snapshot = await pipeline.chain.session.client.request({ method: 'evm_snapshot' as never, params: [] as never });
    const forkParent = await pipeline.client.getBlockNumber();
    const start = await nextTime();

    // The branch to be orphaned: a large buy of WETH.
    await send(
      uniswap.v2.router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [5_000_000n * 10n ** 6n, 0n, [usdc as Address, routing.weth as Address], deployer(), deadline()],
      }),
    );
    const orphan = await pipeline.chain.session.mine(start);
    await pipeline.indexedThrough(orphan.number);
    const movedPrices = await expectedAt(orphan.number);
    const moved = movedPrices.get(routing.weth)!;
    const lpOnOrphan = await expectedLpPrice(usdcWeth, orphan.number, movedPrices);
    await eventually(async () => {
      // The LP price at the orphaned block's height is read from the chain and remembered until a rollback.
      const [weth, lp] = await servedPrices([
        { address: routing.weth, timestamp: 0 },
        { address: lower(usdcWeth.address), timestamp: start + 90 },
      ]);
      expectClose(weth, moved, 'WETH on the orphaned branch');
      expectClose(lp, lpOnOrphan, 'the USDC/WETH LP token on the orphaned branch');
    });

    // The canonical branch: back to the fork, a sale of WETH at the same height, and one block more.
    await pipeline.chain.session.client.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    pipeline.chain.session.resetNonces();
    await send(routing.weth, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [uniswap.v2.router, 2n ** 255n] }), 100_000n);
    await send(
      uniswap.v2.router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [100n * 10n ** 18n, 0n, [routing.weth as Address, usdc as Address], deployer(), deadline()],
      }),
    );
    const replacement = await pipeline.chain.session.mine(start + 60);
    expect(replacement.number).toBe(orphan.number);
    const next = await pipeline.chain.session.mine(start + 180);

    const before = (await expectedAt(forkParent)).get(routing.weth)!;
    const replacementPrices = await expectedAt(replacement.number);
    const after = replacementPrices.get(routing.weth)!;
    const lpOnReplacement = await expectedLpPrice(usdcWeth, replacement.number, replacementPrices);
    expect(relativeError(after, moved)).toBeGreaterThan(1e-3);
    expect(relativeError(lpOnReplacement, lpOnOrphan)).toBeGreaterThan(1e-3);
    await eventually(async () => {
      const [latest, atOrphan, atReplacement, lpAtReplacement] = await servedPrices([
        { address: routing.weth, timestamp: 0 },
        { address: routing.weth, timestamp: start + 30 },
        { address: routing.weth, timestamp: start + 120 },
        { address: lower(usdcWeth.address), timestamp: start + 90 },
      ]);
      expectClose(latest, after, 'WETH at the head');
      expectClose(atOrphan, before, 'WETH between the fork and the new branch');
      expectClose(atReplacement, after, 'WETH on the new branch');
      // Same height and time as the orphaned block's read: only a forgotten read gives the new branch's reserves.
      expectClose(lpAtReplacement, lpOnReplacement, 'the USDC/WETH LP token on the new branch');
    }, 60_000);
    expect(next.number).toBe(orphan.number + 1n);
  });

  test('a consumer started afresh resumes from ClickHouse, and replaying the whole topic adds nothing', async () => {
    const volumes = async () =>
      (
        await unary(pipeline.grpc, pipeline.grpc.getFungibles, { context: context(), currency: 'usd', fungibleIds: ['usdc', 'gov'], implementations: [] })
      ).fungibles.map((fungible) => fungible.marketData!.volume1d ?? 0);
    const [usdcVolume, govVolume] = await volumes();
    await firstConsumer.stop();
    // A new consumer group reads the topic from its start: every event arrives again.
    await pipeline.startConsumer(uniqueName('replay'));
    const gov = symbol('GOV');
    await send(
      uniswap.v2.router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [500n * 10n ** 18n, 0n, [gov as Address, routing.weth as Address], deployer(), deadline()],
      }),
    );
    const head = await mine();
    await pipeline.indexedThrough(head);
    const expected = await expectedAt(head);
    const priced = [...expected.keys()];
    await eventually(async () => {
      const served = await servedPrices(priced.map((address) => ({ address, timestamp: 0 })));
      priced.forEach((address, index) => expectClose(served[index], expected.get(address), address));
    });
    const [usdcAfter, govAfter] = await volumes();
    expectClose(usdcAfter, usdcVolume, 'USDC volume after the replay');
    expectClose(govAfter, govVolume! + 500 * expected.get(gov)!, 'GOV volume with the new swap');
  });

  test('a WETH/stablecoin pair drained of WETH by dumping the stablecoin into it does not move the WETH price', async () => {
    const dai = symbol('DAI');
    const drained = trustedPools.find(
      (pool) => pool.kind === 'v2' && new Set([pool.token0, pool.token1]).has(dai) && new Set([pool.token0, pool.token1]).has(routing.weth),
    )!;
    const others = trustedPools.filter((pool) => pool !== drained);
    const balance = await pipeline.client.readContract({ address: dai as Address, abi: erc20, functionName: 'balanceOf', args: [deployer()] });
    await send(dai, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [uniswap.v2.router, 2n ** 255n] }), 100_000n);
    await send(
      uniswap.v2.router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [balance / 2n, 0n, [dai as Address, routing.weth as Address], deployer(), deadline()],
      }),
    );
    const head = await mine();
    await pipeline.indexedThrough(head);

    const [pair] = await readPools(pipeline.client, [drained], head);
    const [wethReserve, daiReserve] = (pair!.token0 === dai ? [pair!.reserve1, pair!.reserve0] : [pair!.reserve0, pair!.reserve1]).map(
      (amount) => Number(amount) / 1e18,
    ) as [number, number];
    const otherPools = await readPools(pipeline.client, others, head);
    const othersPrice = expectedPrices(otherPools, routing).get(routing.weth)!;
    // The drain is what the old rule fell for: the pair's price is far off, and its quote side
    // outweighs the stablecoin side of every other WETH pool together.
    const otherStable = otherPools
      .filter((pool) => new Set([pool.token0, pool.token1]).has(routing.weth) && (routing.stablecoins.has(pool.token0) || routing.stablecoins.has(pool.token1)))
      .reduce(
        (sum, pool) =>
          sum +
          (routing.stablecoins.has(pool.token0)
            ? Number(pool.reserve0) / 10 ** routing.decimals.get(pool.token0)!
            : Number(pool.reserve1) / 10 ** routing.decimals.get(pool.token1)!),
        0,
      );
    expect(daiReserve / wethReserve).toBeGreaterThan(1_000 * othersPrice);
    expect(daiReserve).toBeGreaterThan(10 * otherStable);

    const expected = (await expectedAt(head)).get(routing.weth)!;
    await eventually(async () => {
      const [weth] = await servedPrices([{ address: routing.weth, timestamp: 0 }]);
      expectClose(weth, expected, 'WETH after the drain');
      expect(Math.abs(weth! - othersPrice)).toBeLessThanOrEqual(routing.maxDeviation! * othersPrice);
    });
  });
});
