import { sharedVersion, type WalletChangeTokens } from '@wallet-api/core/cache';
import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { PositionsFilter, TrashFilter, type ListPositionsRequest, type ListPositionsResponse, type Position } from '@wallet-api/core/proto/positions';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import { quoteKey, type PriceQuotes } from '@wallet-api/core/reference-data';
import { sortByValue, valuePosition, type FungibleDirectory } from '@wallet-api/core/resources';
import type { z } from 'zod';
import { unvalued, type PositionRows } from '../cache/position-rows.js';
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

/** Which of a wallet's positions an answer shows, in what currency and order: the positions and portfolio endpoints' query alike. */
export interface PositionsSelection {
  currency: string;
  positions: keyof typeof positionsFilters;
  positionTypes: readonly string[];
  fungibleIds: readonly string[];
  dappIds: readonly string[];
  trash: keyof typeof trashFilters;
  /** Smallest value first. */
  ascending: boolean;
  sync: boolean;
}

export const positionsSelection = (query: PositionsQuery): PositionsSelection => ({
  currency: query.currency,
  positions: query['filter[positions]'],
  positionTypes: query['filter[position_types]'] ?? [],
  fungibleIds: query['filter[fungible_ids]'] ?? [],
  dappIds: query['filter[dapp_ids]'] ?? [],
  trash: query['filter[trash]'],
  ascending: query.sort === '-value',
  sync: query.sync === 'true',
});

/** Reads one wallet's positions: the wallet endpoint's rows, each wallet's share of a wallet set's, and the portfolios' totals. */
export interface WalletPositionsReader {
  /**
   * The wallet's positions on its scope's chains, valued now and in the selection's order; none
   * without asking when nothing qualifies. `generation`: the global tokens prices and market data
   * are kept under, when the answer is kept under them. `walletTokens`: the wallet's own holdings
   * tokens when the caller read them already (its rows are kept under them). `withFungibles`: the
   * caller shows the rows with their fungibles (toResources), so those the last answer showed are
   * looked up while the rows are read; a portfolio shows none.
   */
  read(request: {
    context: RequestContext;
    scope: WalletScope;
    selection: PositionsSelection;
    withFungibles: boolean;
    generation?: string | undefined;
    walletTokens?: WalletChangeTokens | undefined;
  }): Promise<Position[]>;
  /** The positions as spec 2.3 resources, their fungibles looked up in one call. */
  toResources(request: {
    context: RequestContext;
    currency: string;
    positions: readonly Position[];
    baseUrl: string;
    generation?: string | undefined;
  }): Promise<PositionResource[]>;
}

export interface PositionsReaderCaches {
  /** What wallets hold, kept across price moves; absent: the positions service is asked for every answer. */
  rows?: PositionRows | undefined;
  /** Prices now and a day ago, shared by every wallet's answers under one generation. */
  quotes: PriceQuotes;
}

export function createWalletPositionsReader(
  backends: Pick<Backends, 'positions'>,
  directory: FungibleDirectory,
  caches: PositionsReaderCaches,
): WalletPositionsReader {
  const { positions } = backends;
  const { rows, quotes } = caches;
  const recentTokens = createRecentTokens({ maxWallets: 10_000 });

  /** The rows the positions service answers, unvalued; kept under the wallet's unpriced tokens unless the caller waits for a re-read. */
  async function heldRows(request: ListPositionsRequest, walletTokens: WalletChangeTokens | undefined): Promise<ListPositionsResponse> {
    const list = async () => {
      const answer = await unary(positions, positions.listPositions, request, {
        name: 'Positions/ListPositions',
        deadlineMs: positionsDeadlineMs(request.sync),
      });
      return { positions: answer.positions.map(unvalued) };
    };
    if (!rows || request.sync) return list();
    // What the rows depend on: the request without the organization, and without the order, which the valuation sets.
    const key = JSON.stringify({ ...request, context: { ...request.context, organizationId: '' }, sortAscending: false });
    return (
      await rows.serve({ route: 'position rows', wallet: request.address, data: ['holdings'], key, ...(walletTokens ? { tokens: walletTokens } : {}) }, list)
    ).body;
  }

  return {
    async read({ context, scope, selection, withFungibles, generation, walletTokens }) {
      const filter = positionsFilterFor(scope.family, selection.positions);
      if (scope.chainIds.length === 0 || filter === undefined) return [];
      const request: ListPositionsRequest = {
        context,
        address: scope.address,
        chainIds: scope.chainIds,
        currency: selection.currency,
        positions: filter,
        positionTypes: [...selection.positionTypes],
        fungibleIds: [...selection.fungibleIds],
        dappIds: [...selection.dappIds],
        trash: trashFilters[selection.trash],
        sortAscending: selection.ascending,
        sync: selection.sync,
      };
      const held = withFungibles
        ? await recentTokens.alongside(
            [scope.address, scope.chainIds.join(','), context.network].join('|'),
            { directory, context, currency: selection.currency, ...(generation ? { generation } : {}) },
            () => heldRows(request, walletTokens),
            (answer) => positionTokens(answer.positions),
          )
        : await heldRows(request, walletTokens);
      const priced = await quotes.quotes(
        held.positions.map((position) => ({ chainId: position.chainId, address: position.token?.address ?? '' })),
        selection.currency,
        context,
        generation,
      );
      const valued = held.positions.map((position) => valuePosition(position, priced.get(quoteKey(position.chainId, position.token?.address ?? '')) ?? {}));
      return sortByValue(valued, selection.ascending);
    },
    async toResources({ context, currency, positions: rows, baseUrl, generation }) {
      const fungibles = responseFungibles(await directory.lookup(context, currency, positionTokens(rows), generation));
      // With no_filter the service itself leaves out wallet rows of share tokens that a returned
      // position carries as receipt (spec 4.4), so that the portfolio counts them once as well.
      return rows.map((position) => toPositionResource(position, baseUrl, fungibles));
    },
  };
}

export function addWalletPositionRoutes(routes: ApiRoutes, backends: Backends, reader: WalletPositionsReader): void {
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/positions/',
    summary: "A wallet's fungible positions (token and native balances, protocol positions), all in one response sorted by value; not paginated",
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
      const positions = await reader.read({
        context,
        scope,
        selection: positionsSelection(query),
        withFungibles: true,
        generation,
        walletTokens: changeTokens,
      });
      return { links: { self: selfUrl }, data: await reader.toResources({ context, currency: query.currency, positions, baseUrl, generation }) };
    },
  });
}
