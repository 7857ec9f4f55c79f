import { sharedVersion } from '@wallet-api/core/cache';
import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { PositionsFilter, TrashFilter, type Position } from '@wallet-api/core/proto/positions';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import type { FungibleDirectory } from '@wallet-api/core/resources';
import type { z } from 'zod';
import { createRecentTokens } from '../cache/recent-tokens.js';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { positionListResponseSchema, positionsQuery, type PositionResource } from '../schemas/position.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { responseFungibles } from '@wallet-api/core/resources';
import { positionTokens, toPositionResource } from './position-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { resolveWalletScope, type WalletScope } from './wallet-scope.js';

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

/** What the positions endpoints read: chains that index positions. */
export const positionsCapabilities = ['positions'] as const;

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

type PositionsQuery = z.infer<typeof positionsQuery>;

/** Reads one wallet's positions: the wallet endpoint's rows, and each wallet's share of a wallet set's. */
export interface WalletPositionsReader {
  /**
   * The wallet's positions on its scope's chains in the `sort` order, as the positions service
   * answers them; none without asking when nothing qualifies. `generation`: the global tokens
   * market data is kept under, when the answer is kept under them.
   */
  read(request: { context: RequestContext; scope: WalletScope; query: PositionsQuery; generation?: string | undefined }): Promise<Position[]>;
  /** The positions as spec 2.3 resources, their fungibles looked up in one call. */
  toResources(request: { context: RequestContext; currency: PositionsQuery['currency']; positions: readonly Position[]; baseUrl: string; generation?: string | undefined }): Promise<PositionResource[]>;
}

export function createWalletPositionsReader(backends: Pick<Backends, 'positions'>, directory: FungibleDirectory): WalletPositionsReader {
  const { positions } = backends;
  const recentTokens = createRecentTokens({ maxWallets: 10_000 });
  return {
    async read({ context, scope, query, generation }) {
      const filter = positionsFilterFor(scope.family, query['filter[positions]']);
      if (scope.chainIds.length === 0 || filter === undefined) return [];
      const sync = query.sync === 'true';
      const list = () =>
        unary(
          positions,
          positions.listPositions,
          {
            context,
            address: scope.address,
            chainIds: scope.chainIds,
            currency: query.currency,
            positions: filter,
            positionTypes: query['filter[position_types]'] ?? [],
            fungibleIds: query['filter[fungible_ids]'] ?? [],
            dappIds: query['filter[dapp_ids]'] ?? [],
            trash: trashFilters[query['filter[trash]']],
            sortAscending: query.sort === '-value',
            sync,
          },
          { name: 'Positions/ListPositions', deadlineMs: positionsDeadlineMs(sync) },
        );
      const response = await recentTokens.alongside(
        [scope.address, scope.chainIds.join(','), context.network].join('|'),
        { directory, context, currency: query.currency, ...(generation ? { generation } : {}) },
        list,
        (answer) => positionTokens(answer.positions),
      );
      return response.positions;
    },
    async toResources({ context, currency, positions: rows, baseUrl, generation }) {
      const fungibles = responseFungibles(await directory.lookup(context, currency, positionTokens(rows), generation));
      // With no_filter the service itself leaves out wallet rows of share tokens that a returned
      // position carries as receipt (spec 4.4), so that GetPortfolio counts them once as well.
      return rows.map((position) => toPositionResource(position, baseUrl, fungibles));
    },
  };
}

export function addWalletPositionRoutes(routes: ApiRoutes, backends: Backends, directory: FungibleDirectory): void {
  const reader = createWalletPositionsReader(backends, directory);
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
        capabilities: positionsCapabilities,
      });
      const positions = await reader.read({ context, scope, query, generation });
      return { links: { self: selfUrl }, data: await reader.toResources({ context, currency: query.currency, positions, baseUrl, generation }) };
    },
  });
}
