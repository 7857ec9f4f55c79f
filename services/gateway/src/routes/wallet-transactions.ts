import { sharedVersion, type WalletChangeTokens } from '@wallet-api/core/cache';
import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import {
  ListWalletTransactionsResponse,
  TrashFilter,
  type ListWalletTransactionsRequest,
  type TransactionCursor,
  type TransactionRecord,
} from '@wallet-api/core/proto/indexer';
import type { FungibleDirectory, TransactionResource } from '@wallet-api/core/resources';
import { createPagePriceTable, type PagePriceTable, type PagePriceTableOptions } from '../cache/page-prices.js';
import { createRecentTokens } from '../cache/recent-tokens.js';
import type { VersionedCache } from '../cache/response-cache.js';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import { transactionListResponseSchema, transactionsQuery, type TransactionsQuery } from '../schemas/transaction.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { responseFungibles } from '@wallet-api/core/resources';
import { toRequestContext } from './request-context.js';
import { cursorFromPage, toTransactionResource, transactionId, transactionTokens } from '@wallet-api/core/resources';
import { resolveUncheckedWalletScope, whenTracked, type UncheckedWalletScope } from './wallet-scope.js';

/** What the transactions endpoints read: chains that index transactions. */
export const transactionsCapabilities = ['transactions'] as const;

const trashFilters = {
  only_non_trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH,
  only_trash: TrashFilter.TRASH_FILTER_ONLY_TRASH,
  no_filter: TrashFilter.TRASH_FILTER_NO_FILTER,
} as const;

/** `links.next`: this request with the page parameters moved past the last item. */
function nextLink(selfUrl: string, last: { id: string; minedAtMs: string }, size: number): string {
  const url = new URL(selfUrl);
  url.searchParams.set('page[lastId]', last.id);
  url.searchParams.set('page[lastTimestamp]', last.minedAtMs);
  url.searchParams.set('page[size]', String(size));
  return url.toString();
}

/** What a page depends on: the request without the organization, the one part the indexer's answer does not depend on. */
const pageKey = (request: ListWalletTransactionsRequest): string => JSON.stringify({ ...request, context: { ...request.context, organizationId: '' } });

/**
 * A page of the indexer's records, from `pages` while the wallet's unpriced tokens hold: a price
 * move then costs the page its prices and market data, not the read of its transactions. A page
 * with the pending snapshots is always read: mined history is all that invalidates `pages`.
 */
async function readPage(
  backends: Backends,
  request: ListWalletTransactionsRequest,
  key: string,
  pages: VersionedCache<ListWalletTransactionsResponse> | undefined,
  tokens: WalletChangeTokens | undefined,
): Promise<ListWalletTransactionsResponse> {
  const read = () => unary(backends.indexer, backends.indexer.listWalletTransactions, request, { name: 'Indexer/ListWalletTransactions' });
  if (!pages || request.includePending) return read();
  return (await pages.serve({ route: 'transactions page', wallet: request.address, data: ['history'], key, ...(tokens ? { tokens } : {}) }, read)).body;
}

/** Memory a cached page holds: its decoded objects take a few times their encoded size. */
export const transactionPageSize = (page: ListWalletTransactionsResponse): number => 4 * ListWalletTransactionsResponse.encode(page).finish().length;

export interface TransactionRouteCaches {
  /** Pages of the indexer's records, kept under the wallet's unpriced tokens. */
  pages?: VersionedCache<ListWalletTransactionsResponse>;
  /** The price tokens and their moves: GetPrices answers of times a move did not reach are kept across it. */
  priceVersions?: PagePriceTableOptions['versions'];
}

/** One page of one wallet's indexed transactions, newest first. */
export interface WalletTransactionPage {
  transactions: TransactionRecord[];
  hasMore: boolean;
  /** With `includePending`: the wallet's pending transactions and unsigned actions under the query's filters (spec 4.5). */
  pending: TransactionRecord[];
  unsigned: TransactionRecord[];
  /** Settles (never rejects) once the fungibles this page showed last time are looked up. */
  lookedAhead: Promise<void>;
}

/** Reads one wallet's transactions: the wallet endpoint's pages, and each wallet's share of a wallet set's. */
export interface WalletTransactionsReader {
  /**
   * Up to `size` of the wallet's transactions after `after` on its scope's chains, read while
   * reference-data says whether the address is tracked (a read has no side effects): the 400
   * when it is not.
   */
  read(request: {
    context: RequestContext;
    scope: UncheckedWalletScope;
    query: TransactionsQuery;
    after: TransactionCursor | undefined;
    size: number;
    changeTokens?: WalletChangeTokens | undefined;
    /** Also the snapshots (the caller checked the role). */
    includePending?: boolean;
  }): Promise<WalletTransactionPage>;
  /** The records as spec 2.5 resources, priced at their times; the fungibles as of now. */
  toResources(request: {
    context: RequestContext;
    currency: TransactionsQuery['currency'];
    records: readonly TransactionRecord[];
    lookedAhead: readonly Promise<void>[];
    changeTokens?: WalletChangeTokens | undefined;
    baseUrl: string;
  }): Promise<TransactionResource[]>;
}

export function createWalletTransactionsReader(
  backends: Backends,
  directory: FungibleDirectory,
  caches: TransactionRouteCaches = {},
): WalletTransactionsReader {
  const { pages, priceVersions } = caches;
  const priceTable: PagePriceTable = createPagePriceTable(backends.referenceData, priceVersions ? { versions: priceVersions } : {});
  const recentTokens = createRecentTokens({ maxWallets: 10_000 });
  return {
    async read({ context, scope, query, after, size, changeTokens, includePending = false }) {
      const { address, chainIds } = scope;
      const request: ListWalletTransactionsRequest = {
        context,
        address,
        chainIds,
        operationTypes: query['filter[operation_types]'] ?? [],
        trash: trashFilters[query['filter[trash]']],
        minMinedAtMs: query['filter[min_mined_at]']?.toString(),
        maxMinedAtMs: query['filter[max_mined_at]']?.toString(),
        assetTypes: query['filter[asset_types]'] ?? [],
        searchQuery: query['filter[search_query]'] ?? '',
        after,
        pageSize: size,
        includePending,
      };
      // The fungibles of the tokens this page showed last time are asked while it is read again;
      // the page's prices do not wait for them.
      const key = pageKey(request);
      const known = changeTokens ? sharedVersion(changeTokens) : undefined;
      const lookedAhead = recentTokens.lookAhead(key, { directory, context, currency: query.currency, ...(known ? { generation: known } : {}) });
      const response = await whenTracked(
        scope,
        chainIds.length === 0
          ? Promise.resolve({ transactions: [], hasMore: false, pending: [], unsigned: [] })
          : readPage(backends, request, key, pages, changeTokens),
      );
      recentTokens.remember(key, transactionTokens(response.transactions));
      return { transactions: response.transactions, hasMore: response.hasMore, pending: response.pending, unsigned: response.unsigned, lookedAhead };
    },
    async toResources({ context, currency, records, lookedAhead, changeTokens, baseUrl }) {
      const known = changeTokens ? sharedVersion(changeTokens) : undefined;
      // Prices at the transactions' times and the fungibles (market data as of now) are independent: asked at once.
      const [prices, fungibles] = await Promise.all([
        priceTable.prices(context, currency, records),
        Promise.all(lookedAhead).then(() => directory.lookup(context, currency, transactionTokens(records), known)),
      ]);
      const infos = responseFungibles(fungibles);
      return records.map((record) => toTransactionResource(record, baseUrl, prices, infos));
    },
  };
}

/** `filter[include_pending]` is for organizations with the pending-orders role (spec 4.5): 403 otherwise. */
export function checkIncludePending(query: Pick<TransactionsQuery, 'filter[include_pending]'>, roles: readonly string[]): boolean {
  const includePending = query['filter[include_pending]'] === 'true';
  if (includePending && !roles.includes('pending-orders')) throw apiError(403, 'parameter filter[include_pending]: requires the pending-orders role');
  return includePending;
}

export function addWalletTransactionRoutes(routes: ApiRoutes, backends: Backends, directory: FungibleDirectory, caches: TransactionRouteCaches = {}): void {
  const reader = createWalletTransactionsReader(backends, directory, caches);
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/transactions/',
    summary: "A wallet's decoded transactions, newest first, with cursor pagination through links.next",
    tag: 'wallets',
    params: walletAddressParam,
    query: transactionsQuery,
    headers: networkHeaders,
    response: transactionListResponseSchema,
    errors: [403],
    // Pending transactions and unsigned actions change without mined history: such answers are not kept.
    cachedFor: ({ params, query }) => (query['filter[include_pending]'] === 'true' ? undefined : { wallet: params.address, data: ['history'] }),
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl, changeTokens }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const includePending = checkIncludePending(query, organization.roles);
      const scope = await resolveUncheckedWalletScope(backends, {
        context,
        address: params.address,
        chainIds: query['filter[chain_ids]'],
        capabilities: transactionsCapabilities,
      });
      const size = query['page[size]'];
      const lastId = query['page[lastId]'];
      const lastTimestamp = query['page[lastTimestamp]'];
      const after = lastId !== undefined && lastTimestamp !== undefined ? cursorFromPage(lastId, lastTimestamp) : undefined;
      const page = await reader.read({ context, scope, query, after, size, changeTokens, includePending });
      // One pricing of the page and its snapshots together, split again after.
      const resources = await reader.toResources({
        context,
        currency: query.currency,
        records: [...page.transactions, ...page.pending, ...page.unsigned],
        lookedAhead: [page.lookedAhead],
        changeTokens,
        baseUrl,
      });
      const data = resources.slice(0, page.transactions.length);
      const pending = resources.slice(page.transactions.length, page.transactions.length + page.pending.length);
      const unsigned = resources.slice(page.transactions.length + page.pending.length);
      const last = page.transactions.at(-1);
      return {
        links: {
          self: selfUrl,
          ...(page.hasMore && last ? { next: nextLink(selfUrl, { id: transactionId(last.cursor!), minedAtMs: last.cursor!.minedAtMs }, size) } : {}),
        },
        data,
        ...(includePending ? { meta: { pending, unsigned } } : {}),
      };
    },
  });
}
