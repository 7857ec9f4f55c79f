import { unary } from '@wallet-api/core/grpc';
import type { ChartPeriod } from '@wallet-api/core/charts';
import type { FungibleChart, GetFungibleChartRequest } from '@wallet-api/core/proto/fungible_charts';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import {
  byImplementationChartParams,
  byImplementationChartQuery,
  fungibleChartParams,
  fungibleChartQuery,
  fungibleChartResponseSchema,
  type FungibleChartResource,
  type FungibleChartStats,
} from '../schemas/fungible-chart.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

const isoSeconds = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();

/** decisions.md "Fungibles": first, min, avg, max and last of the prices served (all null without points). */
export function chartStats(prices: readonly number[]): FungibleChartStats {
  if (prices.length === 0) return { first: null, min: null, avg: null, max: null, last: null };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const price of prices) {
    min = Math.min(min, price);
    max = Math.max(max, price);
    sum += price;
  }
  return { first: prices[0]!, min, avg: sum / prices.length, max, last: prices.at(-1)! };
}

export function toFungibleChartResource(chart: FungibleChart, period: ChartPeriod, baseUrl: string): FungibleChartResource {
  const points = chart.points.map((point): [number, number] => [Number(point.timestamp), point.price]);
  return {
    type: 'fungible_charts',
    id: `${chart.fungibleId}-${period}`,
    attributes: {
      begin_at: isoSeconds(chart.beginAt),
      end_at: isoSeconds(chart.endAt),
      stats: chartStats(points.map(([, price]) => price)),
      points,
    },
    relationships: {
      fungible: { links: { related: `${baseUrl}/v1/fungibles/${encodeURIComponent(chart.fungibleId)}` }, data: { type: 'fungibles', id: chart.fungibleId } },
    },
  };
}

const readChart = (backends: Backends, request: GetFungibleChartRequest) =>
  unary(backends.fungibleCharts, backends.fungibleCharts.getFungibleChart, request, { name: 'FungibleCharts/GetFungibleChart' });

/**
 * Spec 4.11's fungible charts. The by-implementation route is declared first: the router would
 * otherwise take `by-implementation` for a fungible id.
 */
export function addFungibleChartRoutes(routes: ApiRoutes, backends: Backends): void {
  routes.add({
    method: 'get',
    path: '/v1/fungibles/by-implementation/charts/{chart_period}',
    summary:
      "The price chart of the fungible one of whose implementations is given (the native asset by its chain id alone): the fungible's one price at each point of a period",
    tag: 'fungibles',
    params: byImplementationChartParams,
    query: byImplementationChartQuery,
    headers: networkHeaders,
    response: fungibleChartResponseSchema,
    errors: [404],
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const chart = await readChart(backends, {
        context: toRequestContext(organization, headers['X-Env']),
        fungibleId: '',
        implementationChainId: query.implementation.chainId,
        implementationAddress: query.implementation.address,
        currency: query.currency,
        period: params.chart_period,
      });
      return { links: { self: selfUrl }, data: toFungibleChartResource(chart, params.chart_period, baseUrl) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/fungibles/{fungible_id}/charts/{chart_period}',
    summary: "A fungible's one price at each point of a period (spec 4.1's periods; `max` over its price history)",
    tag: 'fungibles',
    params: fungibleChartParams,
    query: fungibleChartQuery,
    headers: networkHeaders,
    response: fungibleChartResponseSchema,
    errors: [404],
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const chart = await readChart(backends, {
        context: toRequestContext(organization, headers['X-Env']),
        fungibleId: params.fungible_id,
        implementationChainId: '',
        implementationAddress: '',
        currency: query.currency,
        period: params.chart_period,
      });
      return { links: { self: selfUrl }, data: toFungibleChartResource(chart, params.chart_period, baseUrl) };
    },
  });
}
