import { invalidArgument, notFound, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { chartPeriods, isChartPeriod } from '@wallet-api/core/charts';
import { Network } from '@wallet-api/core/proto/common';
import { FungibleChartsService, type FungibleChartsServer } from '@wallet-api/core/proto/fungible_charts';
import type { ChangeVersions } from '@wallet-api/core/cache';
import type { ClickHouse } from '@wallet-api/core/clickhouse';
import type { ChainConfig } from '../chains/chain-config.js';
import { createChartedFungibles, type ChartedFungibles } from '../fungible-charts/charted-fungible.js';
import { createFungibleCharts, type FungibleCharts } from '../fungible-charts/fungible-charts.js';
import { currencies, isCurrency } from '../prices/currencies.js';
import { createFirstPriceStore } from '../store/first-price-store.js';
import type { ReferenceDataDomain } from './reference-data-service.js';

/** The service over reference-data's domain (its registry, tokens and price oracle) and price store. */
export function fungibleChartsServiceOver(options: {
  chains: readonly ChainConfig[];
  domain: Pick<ReferenceDataDomain, 'registry' | 'tokens' | 'prices'>;
  clickhouse: ClickHouse;
  versions: ChangeVersions;
}): ServiceRegistration {
  const { domain } = options;
  if (!domain.prices) throw new Error('fungible charts need the price oracle');
  return fungibleChartsService({
    fungibles: createChartedFungibles({ chains: options.chains, registry: domain.registry, tokens: domain.tokens }),
    charts: createFungibleCharts({
      oracle: domain.prices,
      registry: domain.registry,
      firstPrices: createFirstPriceStore(options.clickhouse),
      versions: options.versions,
    }),
  });
}

/** GetFungibleChart: finds the fungible, then charts its one price. */
export function fungibleChartsService(options: { fungibles: ChartedFungibles; charts: FungibleCharts }): ServiceRegistration {
  return registration<FungibleChartsServer>('walletapi.fungiblecharts.FungibleCharts', FungibleChartsService, {
    async getFungibleChart(request) {
      if (!isChartPeriod(request.period)) throw invalidArgument(`path parameter chart_period: must be one of ${chartPeriods.join(', ')}`);
      const currency = request.currency.trim().toLowerCase() || 'usd';
      if (!isCurrency(currency)) throw invalidArgument(`parameter currency: must be one of ${currencies.join(', ')}`);
      const network = request.context?.network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet';
      const byId = request.fungibleId !== '';
      const fungible = byId
        ? await options.fungibles.byId(request.fungibleId, network)
        : await options.fungibles.byImplementation(request.implementationChainId, request.implementationAddress, network);
      if (!fungible) {
        const named = byId
          ? `fungible ${request.fungibleId}`
          : `implementation ${request.implementationChainId}${request.implementationAddress ? `:${request.implementationAddress}` : ''}`;
        throw notFound(`${named} is not a known fungible on ${network}`);
      }
      const chart = await options.charts.chart({ fungible, currency, period: request.period, network });
      return {
        fungibleId: chart.fungibleId,
        beginAt: String(chart.window.beginAt),
        endAt: String(chart.window.endAt),
        points: chart.points.map((point) => ({ timestamp: String(point.timestamp), price: point.price })),
      };
    },
  });
}
