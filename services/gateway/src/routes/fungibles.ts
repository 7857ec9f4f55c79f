import { unary } from '@wallet-api/core/grpc';
import { chartPeriods } from '@wallet-api/core/charts';
import { FungibleSort, type ListedFungible } from '@wallet-api/core/proto/fungibles';
import { toFungibleInfo } from '@wallet-api/core/resources';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import {
  byImplementationQuery,
  fungibleIdParam,
  fungibleListResponseSchema,
  fungibleResponseSchema,
  fungiblesListQuery,
  type FungibleResource,
  type FungibleSortParam,
} from '../schemas/fungible.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

const sorts: Record<FungibleSortParam, FungibleSort> = {
  '-market_data.market_cap': FungibleSort.FUNGIBLE_SORT_MARKET_CAP_DESC,
  'market_data.market_cap': FungibleSort.FUNGIBLE_SORT_MARKET_CAP_ASC,
  '-market_data.price.last': FungibleSort.FUNGIBLE_SORT_PRICE_DESC,
  'market_data.price.last': FungibleSort.FUNGIBLE_SORT_PRICE_ASC,
  '-market_data.trading_volumes.volume_1d': FungibleSort.FUNGIBLE_SORT_VOLUME_1D_DESC,
  'market_data.trading_volumes.volume_1d': FungibleSort.FUNGIBLE_SORT_VOLUME_1D_ASC,
};

/** Spec 2.2 on the fungibles list: native addresses as '', each implementation's own volume and creation time. */
export function toFungibleResource(listed: ListedFungible, baseUrl: string): FungibleResource {
  const fungible = listed.fungible!;
  const { id, implementations: _walletForm, ...info } = toFungibleInfo(fungible);
  const markets = new Map(listed.implementations.map((market) => [`${market.chainId}:${market.address}`, market]));
  const self = `${baseUrl}/v1/fungibles/${encodeURIComponent(id)}`;
  return {
    type: 'fungibles',
    id,
    attributes: {
      ...info,
      implementations: fungible.implementations.map((implementation) => {
        const market = markets.get(`${implementation.chainId}:${implementation.address}`);
        return {
          chain_id: implementation.chainId,
          decimals: implementation.decimals,
          address: implementation.address,
          market_data: { trading_volumes: { volume_1d: market?.volume1d ?? null } },
          deployment_date: market?.deploymentDate ? market.deploymentDate : null,
        };
      }),
    },
    relationships: Object.fromEntries(chartPeriods.map((period) => [`chart_${period}`, { links: { related: `${self}/charts/${period}` } }])),
    links: { self },
  };
}

/** Filters that pick fungibles out by what they are; spec 4.11 lets none go with the asset-class filters. */
const lookupFilters = ['filter[search_query]', 'filter[implementation_address]', 'filter[fungible_implementations]', 'filter[fungible_ids]'] as const;

/** `<chain_id>:<address>` or `<chain_id>` (native asset) as a token reference. */
function implementationRef(value: string): { chainId: string; address: string } {
  const separator = value.indexOf(':');
  return separator === -1 ? { chainId: value, address: '' } : { chainId: value.slice(0, separator), address: value.slice(separator + 1) };
}

export function addFungibleRoutes(routes: ApiRoutes, backends: Backends): void {
  const { fungibles } = backends;
  routes.add({
    method: 'get',
    path: '/v1/fungibles/',
    summary: 'List and search fungibles with market data',
    tag: 'fungibles',
    query: fungiblesListQuery,
    headers: networkHeaders,
    response: fungibleListResponseSchema,
    errors: [403],
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const classFilters = (['filter[asset_class]', 'filter[has_asset_class]'] as const).filter((name) => query[name] !== undefined);
      if (classFilters.length > 0) {
        if (!organization.addons.includes('classification')) throw apiError(403, `parameter ${classFilters[0]}: needs the classification add-on`);
        const lookup = lookupFilters.find((name) => query[name] !== undefined);
        if (lookup) throw apiError(400, `parameter ${classFilters[0]}: cannot be combined with ${lookup}`);
      }
      const context = toRequestContext(organization, headers['X-Env']);
      const chainId = query['filter[implementation_chain_id]'];
      if (chainId !== undefined && !(await backends.chains.list(context)).some((chain) => chain.id === chainId)) {
        throw apiError(
          400,
          `parameter filter[implementation_chain_id]: chain ${chainId} is not supported${headers['X-Env'] === 'testnet' ? ' on testnet' : ''}`,
        );
      }
      const answer = await unary(
        fungibles,
        fungibles.listFungibles,
        {
          context,
          currency: query.currency,
          searchQuery: query['filter[search_query]'] ?? '',
          implementationChainId: chainId ?? '',
          implementationAddress: query['filter[implementation_address]'] ?? '',
          fungibleImplementations: (query['filter[fungible_implementations]'] ?? []).map(implementationRef),
          fungibleIds: query['filter[fungible_ids]'] ?? [],
          assetClasses: query['filter[asset_class]'] ?? [],
          hasAssetClass: query['filter[has_asset_class]'] === 'true',
          sort: sorts[query.sort],
          pageSize: query['page[size]'],
          pageAfter: query['page[after]'] ?? '',
        },
        { name: 'Fungibles/ListFungibles' },
      );
      let next: string | undefined;
      if (answer.nextCursor !== '') {
        const url = new URL(selfUrl);
        url.searchParams.set('page[after]', answer.nextCursor);
        next = url.toString();
      }
      return { links: { self: selfUrl, ...(next ? { next } : {}) }, data: answer.fungibles.map((listed) => toFungibleResource(listed, baseUrl)) };
    },
  });
  // Before /fungibles/{fungible_id}: Express would take "by-implementation" for an id.
  routes.add({
    method: 'get',
    path: '/v1/fungibles/by-implementation',
    summary: 'Get the fungible implemented at <chain_id>:<address> (the native asset by <chain_id> alone)',
    tag: 'fungibles',
    query: byImplementationQuery,
    headers: networkHeaders,
    response: fungibleResponseSchema,
    errors: [404],
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const implementation = implementationRef(query.implementation);
      if (!(await backends.chains.list(context)).some((chain) => chain.id === implementation.chainId)) {
        throw apiError(400, `parameter implementation: chain ${implementation.chainId} is not supported${headers['X-Env'] === 'testnet' ? ' on testnet' : ''}`);
      }
      const listed = await unary(
        fungibles,
        fungibles.getListedFungible,
        { context, currency: query.currency, fungibleId: '', implementation },
        { name: 'Fungibles/GetListedFungible' },
      );
      return { links: { self: selfUrl }, data: toFungibleResource(listed, baseUrl) };
    },
  });
  routes.add({
    method: 'get',
    path: '/v1/fungibles/{fungible_id}',
    summary: 'Get one fungible with market data',
    tag: 'fungibles',
    params: fungibleIdParam,
    query: byImplementationQuery.pick({ currency: true }),
    headers: networkHeaders,
    response: fungibleResponseSchema,
    errors: [404],
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const listed = await unary(
        fungibles,
        fungibles.getListedFungible,
        { context: toRequestContext(organization, headers['X-Env']), currency: query.currency, fungibleId: params.fungible_id, implementation: undefined },
        { name: 'Fungibles/GetListedFungible' },
      );
      return { links: { self: selfUrl }, data: toFungibleResource(listed, baseUrl) };
    },
  });
}
