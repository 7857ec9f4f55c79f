import { sharedVersion } from '@wallet-api/core/cache';
import { unary } from '@wallet-api/core/grpc';
import { PositionsFilter, TrashFilter } from '@wallet-api/core/proto/positions';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import type { FungibleDirectory } from '@wallet-api/core/resources';
import { createRecentTokens } from '../cache/recent-tokens.js';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { positionListResponseSchema, positionsQuery } from '../schemas/position.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { responseFungibles } from '@wallet-api/core/resources';
import { positionTokens, toPositionResource } from './position-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { resolveWalletScope } from './wallet-scope.js';

const positionsFilters = {
  only_simple: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE,
  only_complex: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX,
  no_filter: PositionsFilter.POSITIONS_FILTER_NO_FILTER,
} as const;

const trashFilters = {
  only_non_trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH,
  only_trash: TrashFilter.TRASH_FILTER_ONLY_TRASH,
  no_filter: TrashFilter.TRASH_FILTER_NO_FILTER,
} as const;

/** `sync=true` lets the positions service wait up to 30 s for fresh protocol positions; the call gets that plus headroom. */
export const positionsDeadlineMs = (sync: boolean) => (sync ? 35_000 : 10_000);

/**
 * What to ask the positions service for: protocol positions are not supported for Solana
 * addresses (spec 4.3, 4.4), so a Solana wallet gets its simple balances only, and nothing at all
 * when it asks for protocol positions only.
 */
export function positionsFilterFor(family: ChainFamily, requested: keyof typeof positionsFilters): PositionsFilter | undefined {
  if (family !== ChainFamily.CHAIN_FAMILY_SOLANA) return positionsFilters[requested];
  return requested === 'only_complex' ? undefined : PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE;
}

export function addWalletPositionRoutes(routes: ApiRoutes, backends: Backends, directory: FungibleDirectory): void {
  const { positions } = backends;
  const recentTokens = createRecentTokens({ maxWallets: 10_000 });
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/positions/',
    summary:
      "A wallet's fungible positions (token and native balances, protocol positions), all in one response sorted by value; not paginated",
    tag: 'wallets',
    params: walletAddressParam,
    query: positionsQuery,
    headers: networkHeaders,
    response: positionListResponseSchema,
    cachedFor: ({ params, query }) => (query.sync === 'true' ? undefined : { wallet: params.address, data: ['holdings'] }),
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl, changeTokens }) {
      // Market data is kept under the global tokens: those the answer is kept under, when it is.
      const generation = changeTokens ? sharedVersion(changeTokens) : undefined;
      checkRequestUrlLength(selfUrl);
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await resolveWalletScope(backends, {
        context,
        address: params.address,
        chainIds: query['filter[chain_ids]'],
        capabilities: ['positions'],
      });
      const filter = positionsFilterFor(scope.family, query['filter[positions]']);
      const sync = query.sync === 'true';
      const list = (positionsFilter: PositionsFilter) =>
        unary(
          positions,
          positions.listPositions,
          {
            context,
            address: scope.address,
            chainIds: scope.chainIds,
            currency: query.currency,
            positions: positionsFilter,
            positionTypes: query['filter[position_types]'] ?? [],
            fungibleIds: query['filter[fungible_ids]'] ?? [],
            dappIds: query['filter[dapp_ids]'] ?? [],
            trash: trashFilters[query['filter[trash]']],
            sortAscending: query.sort === '-value',
            sync,
          },
          { name: 'Positions/ListPositions', deadlineMs: positionsDeadlineMs(sync) },
        );
      const response =
        scope.chainIds.length === 0 || filter === undefined
          ? { positions: [] }
          : await recentTokens.alongside([scope.address, scope.chainIds.join(','), context.network].join('|'), { directory, context, currency: query.currency, ...(generation ? { generation } : {}) }, () => list(filter), (answer) =>
              positionTokens(answer.positions),
            );
      const fungibles = responseFungibles(await directory.lookup(context, query.currency, positionTokens(response.positions), generation));
      // With no_filter the service itself leaves out wallet rows of share tokens that a returned
      // position carries as receipt (spec 4.4), so that GetPortfolio counts them once as well.
      return { links: { self: selfUrl }, data: response.positions.map((position) => toPositionResource(position, baseUrl, fungibles)) };
    },
  });
}
