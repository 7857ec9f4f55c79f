import type { WalletChart } from '@wallet-api/core/proto/chart';
import { PositionsFilter } from '@wallet-api/core/proto/positions';
import { consumerGroupCaughtUp, eventually, setupKafka } from '@wallet-api/core/testing';
import { createPublicClient, encodeFunctionData, erc20Abi, http, parseEther, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from '../../positions/test/setup-positions.js';
import { contextOf, createChartTruth, stepIndices, type ChartTruth } from './chart-truth.js';
import { startChartHarness, type ChartHarness } from './setup-chart.js';

// Charts of what happens now, on an anvil of the test's own loaded with the test world: transfers
// mined this minute move the hour chart at the right points while their balance changes still wait
// in memory for their INSERT, and a reorg that replaces them changes the recent points to the new
// branch's and no point from before it.
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const chainId = 'ethereum';

let world: ChainWorld;
let chain: OwnChain;
let client: PublicClient;
let harness: PositionsHarness;
let positions: PositionsService;
let charts: ChartHarness;
let truth: ChartTruth;
const kafka = setupKafka('chart-live-test');
/**
 * The chart service's clock: the wall clock, or ahead of it once a test mined a block ahead of it,
 * so that no test waits for real time to reach the blocks it mines.
 */
let chartClockMs = 0;
const chartNow = () => Math.max(Date.now(), chartClockMs);

beforeAll(async () => {
  world = (await readManifest()).chains.find((candidate) => candidate.id === chainId)!;
  chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  client = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 200 } }), cacheTime: 0 });
  harness = await startPositionsHarness({ rpcUrls: { [chainId]: chain.rpcUrl } });
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  // The positions service answers the portfolio the last chart point is compared with: its consumers keep the balances.
  await harness.startConsumers();
  positions = await harness.startService();
  // Rows wait in memory far longer than the test runs, once the world's backfill is stored.
  charts = await startChartHarness({
    topics: harness.topics,
    referenceData: harness.referenceData,
    versions: harness.changes.versions,
    storeEveryMs: 600_000,
    positionsAddress: positions.address,
    now: chartNow,
  });
  truth = await createChartTruth({ chain: { ...world, rpcUrl: chain.rpcUrl }, client, referenceData: harness.referenceData });
}, 120_000);

afterAll(async () => {
  await charts?.close();
  await harness?.close();
  await chain?.stop();
});

const chartOf = (wallet: Address, period: string): Promise<WalletChart> =>
  charts.chart({ context: contextOf(chainId), addresses: [wallet], chainIds: [chainId], period });

/** Mines a block at `time`, and moves the chart's clock on until the hour chart's last point (a multiple of 10 s) is at or after it. */
async function mineAt(time: number): Promise<void> {
  await chain.session.mine(time);
  chartClockMs = Math.max(chartClockMs, (Math.ceil(time / 10) * 10 + 1) * 1000);
}

/** The hour chart of each wallet equals the truth at its first and last points and on both sides of every change. */
async function expectHourTruth(wallets: readonly Address[]): Promise<WalletChart[]> {
  await truth.refreshBlocks();
  const served: WalletChart[] = [];
  for (const wallet of wallets) {
    const chart = await chartOf(wallet, 'hour');
    await truth.check(chart, wallet, new Set([0, chart.points.length - 1, ...stepIndices(chart, 20)]), `${wallet} hour`);
    served.push(chart);
  }
  return served;
}

/** Waits until the chain's blocks so far are indexed and their prices folded: old points' prices are settled. */
async function worldCharted(): Promise<void> {
  const head = await client.getBlockNumber();
  await eventually(async () => {
    const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: head } } });
    expect(checkpoint).not.toBeNull();
  }, 240_000);
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.prices.pool-events`, harness.topics.poolEvents.name), 120_000);
}

test('transfers mined now move the hour chart at their points; a reorg replacing them changes the recent points and none before', async () => {
  await worldCharted();

  const rich: Address[] = [];
  for (const wallet of world.wallets.filter((candidate) => candidate.kind === 'eoa')) {
    const address = wallet.address.toLowerCase() as Address;
    if ((await client.getBalance({ address })) > parseEther('1')) rich.push(address);
    if (rich.length === 2) break;
  }
  const [sender, recipient] = rich as [Address, Address];
  // The world's changes are charted (waiting rows commit no offsets, so the chart itself says so).
  const yearBefore = await eventually(
    () =>
      Promise.all(
        rich.map(async (wallet) => {
          const chart = await chartOf(wallet, 'year');
          await truth.check(chart, wallet, new Set([chart.points.length - 1, ...stepIndices(chart, 20)]), `${wallet} year`);
          return chart;
        }),
      ),
    120_000,
  );

  // A chain loaded from a state file refuses block times before the moment it was loaded.
  let clock = Math.max(await chain.session.latestTimestamp(), Math.floor(chartNow() / 1000)) + 1;
  const firstLive = clock;
  await chain.session.send({ from: sender, to: recipient, value: parseEther('0.25'), gas: 21_000n });
  await mineAt(clock);
  await chain.session.send({ from: recipient, to: sender, value: parseEther('0.01'), gas: 21_000n });
  await mineAt((clock += 11));
  const beforeReorg = await eventually(async () => {
    const served = await expectHourTruth(rich);
    // Both transfers show: the sender's last point is below its first.
    expect(served[0]!.points.at(-1)!.value).toBeLessThan(served[0]!.points[0]!.value);
    return served;
  }, 60_000);

  await chain.session.client.request({ method: 'anvil_rollback' as never, params: [2] as never });
  chain.session.resetNonces();
  await chain.session.send({ from: recipient, to: sender, value: parseEther('0.5'), gas: 21_000n });
  for (let block = 0; block < 3; block++) await mineAt((clock += 11));
  const afterReorg = await eventually(async () => {
    const served = await expectHourTruth(rich);
    // On the new branch the sender gained: its last point is above its first.
    expect(served[0]!.points.at(-1)!.value).toBeGreaterThan(served[0]!.points[0]!.value);
    return served;
  }, 120_000);

  // Points before the first live block are what they were; the year chart did not move at all.
  // (The hour window slid meanwhile: the points both charts have are compared.)
  const older = (chart: WalletChart) =>
    new Map(chart.points.filter((point) => Number(point.timestamp) < firstLive).map((point) => [point.timestamp, point.value]));
  const shared = (after: WalletChart, before: WalletChart) => {
    const [now, then] = [older(after), older(before)];
    const common = [...now.keys()].filter((timestamp) => then.has(timestamp));
    expect(common.length).toBeGreaterThan(100);
    return [common.map((timestamp) => now.get(timestamp)), common.map((timestamp) => then.get(timestamp))];
  };
  afterReorg.forEach((chart, index) => {
    const [now, then] = shared(chart, beforeReorg[index]!);
    expect(now).toEqual(then);
  });
  const yearAfter = await Promise.all(rich.map((wallet) => chartOf(wallet, 'year')));
  yearAfter.forEach((chart, index) => {
    const [now, then] = shared(chart, yearBefore[index]!);
    expect(now).toEqual(then);
  });
}, 420_000);

test('a liquidity position moved now moves the protocol chart at its point; a reorg removing the move restores the recent points and no point before', async () => {
  // The pool's position alone (the pool filter): the wallet's other positions do not blur the move.
  const checkHour = async (wallet: Address, pair: Address) => {
    await truth.refreshBlocks();
    const selection = { positions: 'no_filter' as const, poolAddresses: [pair] };
    const chart = await charts.chart({ context: contextOf(chainId), addresses: [wallet], chainIds: [chainId], period: 'hour', ...selection });
    await truth.check(chart, wallet, new Set([0, chart.points.length - 1, ...stepIndices(chart, 20)]), `${wallet} hour in ${pair}`, selection);
    return chart;
  };
  await worldCharted();
  // A wallet with Uniswap V2 liquidity (its LP token is the pool's address), and one to hand half of it to.
  const now = Math.max(await chain.session.latestTimestamp(), Math.floor(chartNow() / 1000));
  let provider: { wallet: Address; pair: Address } | undefined;
  for (const candidate of world.wallets.filter((entry) => entry.kind === 'eoa' && entry.address !== world.deployer)) {
    const wallet = candidate.address.toLowerCase() as Address;
    const v2 = (await truth.holdingsAt(wallet, now)).find(
      (holding) => holding.receipt.startsWith('fungible:') && holding.pool === holding.receipt.split(':')[1],
    );
    if (v2 && (await client.getBalance({ address: wallet })) > parseEther('0.1')) {
      provider = { wallet, pair: v2.pool as Address };
      break;
    }
  }
  expect(provider).toBeDefined();
  const { wallet, pair } = provider!;
  const recipient = world.wallets.find((entry) => entry.kind === 'eoa' && entry.address.toLowerCase() !== wallet)!.address.toLowerCase() as Address;
  const before = await eventually(() => checkHour(wallet, pair), 120_000);

  let clock = Math.max(await chain.session.latestTimestamp(), Math.floor(chartNow() / 1000)) + 1;
  const firstLive = clock;
  const lp = await client.readContract({ address: pair, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
  chain.session.resetNonces();
  await chain.session.send({
    from: wallet,
    to: pair,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, lp / 2n] }),
    gas: 100_000n,
  });
  await mineAt(clock);
  const moved = await eventually(async () => {
    const chart = await checkHour(wallet, pair);
    // Half the liquidity left.
    expect(chart.points.at(-1)!.value).toBeLessThan(chart.points[0]!.value * 0.75);
    return chart;
  }, 60_000);
  expect(moved.points[0]!.value).toBeGreaterThan(0);

  await chain.session.client.request({ method: 'anvil_rollback' as never, params: [1] as never });
  chain.session.resetNonces();
  for (let block = 0; block < 3; block++) await mineAt((clock += 11));
  const restored = await eventually(async () => {
    const chart = await checkHour(wallet, pair);
    // On the new branch the liquidity never moved.
    expect(chart.points.at(-1)!.value).toBeGreaterThan(chart.points[0]!.value * 0.75);
    return chart;
  }, 120_000);

  const older = (chart: WalletChart) =>
    new Map(chart.points.filter((point) => Number(point.timestamp) < firstLive).map((point) => [point.timestamp, point.value]));
  const [then, after] = [older(before), older(restored)];
  const common = [...after.keys()].filter((timestamp) => then.has(timestamp));
  expect(common.length).toBeGreaterThan(100);
  expect(common.map((timestamp) => after.get(timestamp))).toEqual(common.map((timestamp) => then.get(timestamp)));
}, 420_000);

test("a chart's last point is the wallet at the newest indexed block, stamped with its time: it equals the portfolio for each positions filter", async () => {
  await worldCharted();
  // A wallet whose protocol positions are all of the kinds charts chart (liquidity pools and vaults): its portfolio then covers what its chart does.
  let chosen: Address | undefined;
  for (const candidate of world.wallets.filter((entry) => entry.kind === 'eoa' && entry.address !== world.deployer)) {
    const wallet = candidate.address.toLowerCase() as Address;
    const complex = await positions.list({ address: wallet, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX, sync: true });
    if (
      complex.length > 0 &&
      complex.every((row) => row.protocolModule === 'liquidity_pool' || row.protocolModule === 'vault') &&
      (await client.getBalance({ address: wallet })) > parseEther('0.1')
    ) {
      chosen = wallet;
      break;
    }
  }
  expect(chosen).toBeDefined();
  const wallet = chosen!;
  const recipient = world.wallets.find((entry) => entry.kind === 'eoa' && entry.address.toLowerCase() !== wallet)!.address as Address;

  // A transfer mined now, after the day chart's last 5-minute boundary, early enough in the interval
  // that the checks below end before the next boundary (after it, the grid's own last point is now).
  // They take seconds; 90 s leaves a slow machine room. Late in an interval, the chart's clock moves
  // on to the next one rather than the test waiting for it.
  let clock = Math.max(await chain.session.latestTimestamp(), Math.floor(chartNow() / 1000)) + 1;
  if (300 - (clock % 300) < 90) clock += 300 - (clock % 300) + 1;
  chartClockMs = Math.max(chartClockMs, clock * 1000);
  chain.session.resetNonces();
  await chain.session.send({ from: wallet, to: recipient, value: parseEther('0.05'), gas: 21_000n });
  await chain.session.mine(clock);
  const head = await client.getBlock();
  expect(Number(head.timestamp)).toBe(clock);

  await eventually(async () => {
    for (const [filter, portfolioFilter] of [
      ['only_simple', PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE],
      ['only_complex', PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX],
      ['no_filter', PositionsFilter.POSITIONS_FILTER_NO_FILTER],
    ] as const) {
      const chart = await charts.chart({ context: contextOf(chainId), addresses: [wallet], chainIds: [chainId], period: 'day', positions: filter });
      const last = chart.points.at(-1)!;
      const portfolio = await positions.portfolio({ address: wallet, chainIds: [chainId], positions: portfolioFilter, sync: true });
      expect({ filter, stamped: Number(last.timestamp) }).toEqual({ filter, stamped: clock });
      // The grid before it is untouched: every other point is on the 5-minute boundaries up to end_at.
      expect(Number(chart.points.at(-2)!.timestamp)).toBe(Number(chart.endAt));
      expect(portfolio.total).toBeGreaterThan(0);
      expect({ filter, value: last.value }).toEqual({ filter, value: expect.closeTo(portfolio.total, 6) });
    }
  }, 120_000);
}, 420_000);
