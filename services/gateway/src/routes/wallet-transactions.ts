import { sharedVersion, type WalletChangeTokens } from '@wallet-api/core/cache';
import { unary } from '@wallet-api/core/grpc';
import { ListWalletTransactionsResponse, TrashFilter, type ListWalletTransactionsRequest } from '@wallet-api/core/proto/indexer';
import type { FungibleDirectory } from '@wallet-api/core/resources';
import { createPagePriceTable, type PagePriceTable } from '../cache/page-prices.js';
import { createRecentTokens } from '../cache/recent-tokens.js';
import type { VersionedCache } from '../cache/response-cache.js';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import { transactionListResponseSchema, transactionsQuery } from '../schemas/transaction.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { responseFungibles } from '@wallet-api/core/resources';
import { toRequestContext } from './request-context.js';
import { cursorFromPage, toTransactionResource, transactionId, transactionTokens } from '@wallet-api/core/resources';
import { resolveUncheckedWalletScope, whenTracked } from './wallet-scope.js';

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
 * move then costs the page its prices and market data, not the read of its transactions.
 */
async function readPage(
  backends: Backends,
  request: ListWalletTransactionsRequest,
  key: string,
  pages: VersionedCache<ListWalletTransactionsResponse> | undefined,
  tokens: WalletChangeTokens | undefined,
): Promise<ListWalletTransactionsResponse> {
  const read = () => unary(backends.indexer, backends.indexer.listWalletTransactions, request, { name: 'Indexer/ListWalletTransactions' });
  if (!pages) return read();
  return (await pages.serve({ route: 'transactions page', wallet: request.address, data: ['history'], key, ...(tokens ? { tokens } : {}) }, read)).body;
}

/** Memory a cached page holds: its decoded objects take a few times their encoded size. */
export const transactionPageSize = (page: ListWalletTransactionsResponse): number => 4 * ListWalletTransactionsResponse.encode(page).finish().length;

export interface TransactionRouteCaches {
  /** Pages of the indexer's records, kept under the wallet's unpriced tokens. */
  pages?: VersionedCache<ListWalletTransactionsResponse>;
  /** The price tokens in force (ChangeVersions.everything): GetPrices answers are kept under them. */
  priceGeneration?: () => Promise<string>;
}

export function addWalletTransactionRoutes(routes: ApiRoutes, backends: Backends, directory: FungibleDirectory, caches: TransactionRouteCaches = {}): void {
  const { pages, priceGeneration } = caches;
  const priceTable: PagePriceTable = createPagePriceTable(backends.referenceData);
  const recentTokens = createRecentTokens({ maxWallets: 10_000 });
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
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['history'] }),
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl, changeTokens }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const includePending = query['filter[include_pending]'] === 'true';
      if (includePending && !organization.roles.includes('pending-orders')) {
        throw apiError(403, 'parameter filter[include_pending]: requires the pending-orders role');
      }
      const scope = await resolveUncheckedWalletScope(backends, {
        context,
        address: params.address,
        chainIds: query['filter[chain_ids]'],
        capabilities: ['transactions'],
      });
      const { address, chainIds } = scope;

      const size = query['page[size]'];
      const lastId = query['page[lastId]'];
      const lastTimestamp = query['page[lastTimestamp]'];
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
        after: lastId !== undefined && lastTimestamp !== undefined ? cursorFromPage(lastId, lastTimestamp) : undefined,
        pageSize: size,
      };
      // The fungibles of the tokens this page showed last time are asked while it is read again;
      // the page's prices do not wait for them.
      const key = pageKey(request);
      // The global tokens prices and market data are kept under: those the answer is kept under,
      // else read now (before the page, so prices kept under them are at least as new as it).
      const known = changeTokens ? sharedVersion(changeTokens) : undefined;
      const generation = known !== undefined ? Promise.resolve(known) : priceGeneration ? priceGeneration().catch(() => undefined) : Promise.resolve(undefined);
      const lookedAhead = recentTokens.lookAhead(key, { directory, context, currency: query.currency, ...(known ? { generation: known } : {}) });
      // The page is read while reference-data says whether the address is tracked: a read has no side effects.
      const response = await whenTracked(scope, chainIds.length === 0 ? Promise.resolve({ transactions: [], hasMore: false }) : readPage(backends, request, key, pages, changeTokens));
      recentTokens.remember(key, transactionTokens(response.transactions));
      // Prices at the transactions' times and the fungibles (market data as of now) are independent: asked at once.
      const [prices, fungibles] = await Promise.all([
        generation.then((tokens) => priceTable.prices(context, query.currency, response.transactions, tokens)),
        lookedAhead.then(() => directory.lookup(context, query.currency, transactionTokens(response.transactions), known)),
      ]);
      const infos = responseFungibles(fungibles);
      const data = response.transactions.map((record) => toTransactionResource(record, baseUrl, prices, infos));
      const last = response.transactions.at(-1);
      return {
        links: {
          self: selfUrl,
          ...(response.hasMore && last ? { next: nextLink(selfUrl, { id: transactionId(last.cursor!), minedAtMs: last.cursor!.minedAtMs }, size) } : {}),
        },
        data,
        ...(includePending ? { meta: { pending: [], unsigned: [] } } : {}),
      };
    },
  });
}
