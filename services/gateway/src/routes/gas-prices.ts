import { unary } from '@wallet-api/core/grpc';
import { GasType, type Eip1559Speed, type GasPrice } from '@wallet-api/core/proto/gas';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import { gasPriceListResponseSchema, gasPricesQuery, type GasPriceResource, type GasTypeName } from '../schemas/gas-price.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

const gasTypeOf: Record<GasTypeName, GasType> = {
  classic: GasType.GAS_TYPE_CLASSIC,
  eip1559: GasType.GAS_TYPE_EIP1559,
  optimistic: GasType.GAS_TYPE_OPTIMISTIC,
};

const wei = (value: string) => Number(value);

const speed = (prices: Eip1559Speed | undefined) => ({
  priority_fee: wei(prices?.priorityFee ?? '0'),
  max_fee: wei(prices?.maxFee ?? '0'),
  estimation_seconds: prices?.estimationSeconds ?? 0,
});

export function toGasPriceResource(price: GasPrice, baseUrl: string): GasPriceResource {
  const updated_at = new Date(Number(price.updatedAt)).toISOString();
  const common = {
    type: 'gas-prices' as const,
    relationships: {
      chain: { links: { related: `${baseUrl}/v1/chains/${encodeURIComponent(price.chainId)}` }, data: { type: 'chains' as const, id: price.chainId } },
    },
    meta: { block_number: Number(price.blockNumber) },
  };
  if (price.gasType === GasType.GAS_TYPE_CLASSIC && price.classic) {
    const { slow, standard, fast, rapid } = price.classic;
    return {
      ...common,
      id: `${price.chainId}-classic`,
      attributes: { updated_at, gas_type: 'classic', info: { slow: wei(slow), standard: wei(standard), fast: wei(fast), rapid: wei(rapid) } },
    };
  }
  if (price.gasType === GasType.GAS_TYPE_EIP1559 && price.eip1559) {
    const info = price.eip1559;
    return {
      ...common,
      id: `${price.chainId}-eip1559`,
      attributes: {
        updated_at,
        gas_type: 'eip1559',
        info: { base_fee: wei(info.baseFee), slow: speed(info.slow), standard: speed(info.standard), fast: speed(info.fast), rapid: speed(info.rapid) },
      },
    };
  }
  // Only a reference-data newer than this gateway (optimistic prices) gets here: a deployment of mismatched versions.
  throw apiError(500, 'the request could not be completed');
}

/** decisions.md "Gas prices": the latest snapshot of each EVM chain, from reference-data's memory. */
export function addGasPriceRoutes(routes: ApiRoutes, backends: Backends): void {
  const { gasPrices } = backends;
  routes.add({
    method: 'get',
    path: '/v1/gas-prices/',
    summary: 'Gas prices of each EVM chain, one entry per chain and gas type (testnets with X-Env: testnet)',
    tag: 'gas',
    query: gasPricesQuery,
    headers: networkHeaders,
    response: gasPriceListResponseSchema,
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const answer = await unary(
        gasPrices,
        gasPrices.getGasPrices,
        {
          context: toRequestContext(organization, headers['X-Env']),
          chainIds: query['filter[chain_ids]'] ?? [],
          gasTypes: (query['filter[gas_types]'] ?? []).map((name) => gasTypeOf[name]),
        },
        { name: 'GasPrices/GetGasPrices' },
      );
      return { links: { self: selfUrl }, data: answer.gasPrices.map((price) => toGasPriceResource(price, baseUrl)) };
    },
  });
}
