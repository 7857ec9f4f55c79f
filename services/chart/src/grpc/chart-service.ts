import { chartPeriods, chartWindow, isChartPeriod } from '@wallet-api/core/charts';
import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { ChartService, type ChartServer, type GetWalletChartRequest, type WalletChart } from '@wallet-api/core/proto/chart';
import { RequestContext } from '@wallet-api/core/proto/common';
import type { ChartValuation } from '../prices/chart-valuation.js';
import type { AssetSeries, PositionSelection, ProtocolSeries } from '../protocols/protocol-series.js';
import { pointCount } from '../series/bucketed-changes.js';
import type { BlockClock } from '../store/block-clock.js';
import type { ChartStore } from '../store/chart-store.js';
import type { ChangesMemo } from '../series/changes-memo.js';

export interface ChartServiceDeps {
  store: ChartStore;
  /** The store's bucketed changes kept under the wallets' chart tokens: a price move reads none again. */
  changes: ChangesMemo;
  valuation: ChartValuation;
  protocols: ProtocolSeries;
  /** The newest indexed block's time, where a chart's last point stands. */
  clock: Pick<BlockClock, 'newestTime'>;
  /** Unix milliseconds; the chart's grid ends at the newest interval boundary at or before it. */
  now?: () => number;
}

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

/** EVM addresses are kept lowercase; other families' addresses are case-sensitive. */
const walletOf = (address: string) => (evmAddress.test(address) ? address.toLowerCase() : address);

const positionsFilters = ['only_simple', 'only_complex', 'no_filter'] as const;

/** The request's positions and pool filters, checked as the gateway checks them (spec 4.1 rules 2 and 3 applied there). */
function selectionOf(request: GetWalletChartRequest): PositionSelection {
  const positions = request.positions || 'only_simple';
  if (!(positionsFilters as readonly string[]).includes(positions)) throw invalidArgument(`positions must be one of ${positionsFilters.join(', ')}`);
  if (request.poolAddresses.length > 0 && request.excludePoolAddresses.length > 0)
    throw invalidArgument('pool_addresses and exclude_pool_addresses exclude each other');
  if (positions === 'only_simple' && (request.poolAddresses.length > 0 || request.excludePoolAddresses.length > 0)) {
    throw invalidArgument('a pool filter needs protocol positions: positions must not be only_simple');
  }
  const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());
  return {
    positions: positions as PositionSelection['positions'],
    poolAddresses: lower(request.poolAddresses),
    excludePoolAddresses: lower(request.excludePoolAddresses),
  };
}

/** `into` plus `series`, point by point. */
function addSeries(into: Map<string, AssetSeries>, series: ReadonlyMap<string, AssetSeries>): void {
  for (const [key, { asset, balances }] of series) {
    const existing = into.get(key);
    if (!existing) into.set(key, { asset, balances: [...balances] });
    else balances.forEach((balance, point) => (existing.balances[point]! += balance));
  }
}

/** `from` less `series` where `from` has the asset: a receipt is taken only from a balance charted. */
function subtractSeries(from: Map<string, AssetSeries>, series: ReadonlyMap<string, AssetSeries>): void {
  for (const [key, { balances }] of series) {
    const existing = from.get(key);
    if (existing) balances.forEach((balance, point) => (existing.balances[point]! -= balance));
  }
}

export function chartService(deps: ChartServiceDeps): ServiceRegistration {
  const { store, changes: memo, valuation, protocols, clock } = deps;
  const now = deps.now ?? Date.now;

  async function walletChart(request: GetWalletChartRequest): Promise<WalletChart> {
    const { period } = request;
    if (!isChartPeriod(period)) throw invalidArgument(`period must be one of ${chartPeriods.join(', ')}`);
    if (request.addresses.length === 0 || request.addresses.some((address) => address === '')) throw invalidArgument('addresses must name at least one wallet');
    const scope = { addresses: [...new Set(request.addresses.map(walletOf))], chainIds: [...new Set(request.chainIds)] };
    const selection = selectionOf(request);
    const nowSeconds = Math.floor(now() / 1000);
    const [window, newest] = await Promise.all([
      (async () => chartWindow(period, nowSeconds, period === 'max' ? await store.firstActivity(scope) : undefined))(),
      clock.newestTime(scope.chainIds),
    ]);
    // The grid's points, then the wallet now: its value at the newest indexed block, stamped with
    // that block's time, so the last point is what the portfolio says. Read as one more interval
    // of the grid, whose bucket holds every change after the last boundary.
    const times = Array.from({ length: pointCount(window) }, (_, point) => window.beginAt + point * window.intervalSeconds);
    const read = newest !== undefined && newest > window.endAt ? { ...window, endAt: window.endAt + window.intervalSeconds } : window;
    if (read !== window) times.push(Math.min(newest!, read.endAt));
    // Spec 4.1: a pool filter charts its protocol positions alone; no_filter charts both kinds.
    const simple = selection.positions !== 'only_complex' && selection.poolAddresses.length === 0;
    const complex = selection.positions !== 'only_simple';
    const [changes, protocol] = await Promise.all([
      simple ? memo.changes(scope, read) : undefined,
      complex ? protocols.points(scope, read, selection) : undefined,
    ]);
    const series = new Map<string, AssetSeries>(changes?.balances(times.length));
    if (protocol) {
      // A share token held is the protocol position it stands for: charted once, as the position
      // (an excluded pool goes as a whole).
      if (simple) subtractSeries(series, protocol.receipts);
      addSeries(series, protocol.assets);
    }
    const values = await valuation.values(
      {
        context: request.context ?? RequestContext.fromPartial({}),
        currency: request.currency || 'usd',
        fungibleIds: request.fungibleIds,
        excludeFungibleIds: request.excludeFungibleIds,
      },
      times,
      series.values(),
    );
    return {
      beginAt: String(window.beginAt),
      endAt: String(window.endAt),
      points: values.map((value, point) => ({ timestamp: String(times[point]), value })),
    };
  }

  return registration<ChartServer>('walletapi.chart.Chart', ChartService, {
    getWalletChart: (request) => walletChart(request),
  });
}
