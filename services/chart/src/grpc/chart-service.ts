import { chartPeriods, chartWindow, isChartPeriod } from '@wallet-api/core/charts';
import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { ChartService, type ChartServer, type GetWalletChartRequest, type WalletChart } from '@wallet-api/core/proto/chart';
import { RequestContext } from '@wallet-api/core/proto/common';
import type { ChartValuation } from '../prices/chart-valuation.js';
import { pointCount } from '../series/bucketed-changes.js';
import type { ChartStore } from '../store/chart-store.js';

export interface ChartServiceDeps {
  store: ChartStore;
  valuation: ChartValuation;
  /** Unix milliseconds; the chart's last point is the newest at or before it. */
  now?: () => number;
}

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

/** EVM addresses are kept lowercase; other families' addresses are case-sensitive. */
const walletOf = (address: string) => (evmAddress.test(address) ? address.toLowerCase() : address);

export function chartService(deps: ChartServiceDeps): ServiceRegistration {
  const { store, valuation } = deps;
  const now = deps.now ?? Date.now;

  async function walletChart(request: GetWalletChartRequest): Promise<WalletChart> {
    const { period } = request;
    if (!isChartPeriod(period)) throw invalidArgument(`period must be one of ${chartPeriods.join(', ')}`);
    if (request.addresses.length === 0 || request.addresses.some((address) => address === '')) throw invalidArgument('addresses must name at least one wallet');
    const scope = { addresses: [...new Set(request.addresses.map(walletOf))], chainIds: [...new Set(request.chainIds)] };
    const nowSeconds = Math.floor(now() / 1000);
    const window = chartWindow(period, nowSeconds, period === 'max' ? await store.firstActivity(scope) : undefined);
    const changes = await store.changes(scope, window);
    const values = await valuation.values(
      {
        context: request.context ?? RequestContext.fromPartial({}),
        currency: request.currency || 'usd',
        fungibleIds: request.fungibleIds,
        excludeFungibleIds: request.excludeFungibleIds,
      },
      window,
      changes.balances(pointCount(window)).values(),
    );
    return {
      beginAt: String(window.beginAt),
      endAt: String(window.endAt),
      points: values.map((value, point) => ({ timestamp: String(window.beginAt + point * window.intervalSeconds), value })),
    };
  }

  return registration<ChartServer>('walletapi.chart.Chart', ChartService, {
    getWalletChart: (request) => walletChart(request),
  });
}
