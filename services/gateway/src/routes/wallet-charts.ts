import { chartEpoch, type ChartPeriod } from '@wallet-api/core/charts';
import { unary } from '@wallet-api/core/grpc';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { Backends } from '../grpc/backends.js';
import {
  chartFilters,
  chartQuery,
  walletChartParams,
  walletChartResponseSchema,
  walletSetChartParams,
  walletSetChartQuery,
  type ChartQuery,
  type PositionsFilterValue,
  type WalletChartResource,
} from '../schemas/chart.js';
import { networkHeaders } from '../schemas/common.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { resolveWalletScope, resolveWalletSetScopes, type ChainCapability } from './wallet-scope.js';

/** Spec 4.1: a chart reads a chain's history and balances, so each chain must report both. */
const chartCapabilities: readonly ChainCapability[] = ['transactions', 'positions'];

const isoSeconds = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();

function toWalletChartResource(id: string, chart: WalletChart): WalletChartResource {
  return {
    type: 'wallet_chart',
    id,
    attributes: {
      begin_at: isoSeconds(chart.beginAt),
      end_at: isoSeconds(chart.endAt),
      points: chart.points.map((point) => [Number(point.timestamp), point.value]),
    },
  };
}

/**
 * The parameter checks that need no backend, in the order a client fixes them: the URL, then the
 * rules between filters. Returns the `filter[positions]` in force.
 */
function checkChartRequest(selfUrl: string, query: ChartQuery): PositionsFilterValue {
  checkRequestUrlLength(selfUrl);
  return chartFilters(query);
}

const lowercase = (values: readonly string[] | undefined) => (values ?? []).map((value) => value.toLowerCase());

async function readChart(
  backends: Backends,
  request: { context: RequestContext; addresses: string[]; chainIds: string[]; period: ChartPeriod; query: ChartQuery; positions: PositionsFilterValue },
): Promise<WalletChart> {
  const { context, addresses, chainIds, period, query, positions } = request;
  return unary(
    backends.chart,
    backends.chart.getWalletChart,
    {
      context,
      addresses,
      chainIds,
      currency: query.currency,
      period,
      fungibleIds: query['filter[fungible_ids]'] ?? [],
      excludeFungibleIds: query['filter[exclude_fungible_ids]'] ?? [],
      positions,
      poolAddresses: lowercase(query['filter[pool_addresses]']),
      excludePoolAddresses: lowercase(query['filter[exclude_pool_addresses]']),
    },
    { name: 'Chart/GetWalletChart' },
  );
}

export function addWalletChartRoutes(routes: ApiRoutes, backends: Backends): void {
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/charts/{chart_period}',
    summary: "A wallet's balance value at each point of a period, over every chain of the network that indexes transactions and positions",
    tag: 'wallets',
    params: walletChartParams,
    query: chartQuery,
    headers: networkHeaders,
    response: walletChartResponseSchema,
    // The points move on with the clock as well as with the wallet's balance changes and prices.
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['charts'], variant: String(chartEpoch(params.chart_period, Math.floor(Date.now() / 1000))) }),
    async handle({ params, query, headers }, { organization, selfUrl }) {
      const positions = checkChartRequest(selfUrl, query);
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await resolveWalletScope(backends, {
        context,
        address: params.address,
        chainIds: query['filter[chain_ids]'],
        capabilities: chartCapabilities,
      });
      // A wallet without qualifying chains (Solana today) is still asked for: the service answers the period's points at zero.
      const chart = await readChart(backends, { context, addresses: [scope.address], chainIds: scope.chainIds, period: params.chart_period, query, positions });
      return { links: { self: selfUrl }, data: toWalletChartResource(`${scope.address}-${params.chart_period}`, chart) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallet-sets/charts/{chart_period}',
    summary: 'The balance value of up to one EVM and one Solana wallet together at each point of a period',
    tag: 'wallet-sets',
    params: walletSetChartParams,
    query: walletSetChartQuery,
    headers: networkHeaders,
    response: walletChartResponseSchema,
    async handle({ params, query, headers }, { organization, selfUrl }) {
      const positions = checkChartRequest(selfUrl, query);
      const context = toRequestContext(organization, headers['X-Env']);
      const scopes = await resolveWalletSetScopes(backends, {
        context,
        addresses: query.addresses,
        chainIds: query['filter[chain_ids]'],
        capabilities: chartCapabilities,
      });
      const addresses = scopes.map((scope) => scope.address);
      // The service reads every address on every chain given; an address has no balance changes on the other family's chains.
      const chainIds = [...new Set(scopes.flatMap((scope) => scope.chainIds))];
      const chart = await readChart(backends, { context, addresses, chainIds, period: params.chart_period, query, positions });
      return { links: { self: selfUrl }, data: toWalletChartResource(`${addresses.join(',')}-${params.chart_period}`, chart) };
    },
  });
}
