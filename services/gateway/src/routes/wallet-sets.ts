import { sharedVersion } from '@wallet-api/core/cache';
import type { TransactionCursor, TransactionRecord } from '@wallet-api/core/proto/indexer';
import { sortByValue, type FungibleDirectory } from '@wallet-api/core/resources';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { portfolioResponseSchema } from '../schemas/portfolio.js';
import { positionListResponseSchema } from '../schemas/position.js';
import { transactionListResponseSchema } from '../schemas/transaction.js';
import { walletSetPortfolioQuery, walletSetPositionsQuery, walletSetTransactionsQuery } from '../schemas/wallet-set.js';
import type { ApiRoutes } from './define-route.js';
import { toPortfolioResource } from './portfolio-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { portfolioCapabilities, readWalletPortfolio } from './wallet-portfolio.js';
import { positionsCapabilities, positionsSelection, type WalletPositionsReader } from './wallet-positions.js';
import { resolveWalletSetScopes } from './wallet-scope.js';
import { decodeSetCursor, encodeSetCursor, interleavePages } from './wallet-set-cursor.js';
import { mergePortfolios } from './wallet-set-portfolio.js';
import { checkIncludePending, createWalletTransactionsReader, transactionsCapabilities, type TransactionRouteCaches } from './wallet-transactions.js';

// decisions.md, "Wallet sets": each endpoint asks what its wallet twin asks, once per wallet of
// the set (through the same reader functions), and merges the answers. `filter[chain_ids]` is
// applied per wallet by family (resolveWalletSetScopes): `ethereum,solana` reads the EVM wallet on
// ethereum and the Solana wallet on solana. Set answers are kept in the response cache as their
// twins are, under the change tokens of every wallet of the set (read in one MGET).

/** `links.next` of a set's transactions: this request with `page[after]` moved on. */
function nextSetLink(selfUrl: string, cursor: string, size: number): string {
  const url = new URL(selfUrl);
  url.searchParams.set('page[after]', cursor);
  url.searchParams.set('page[size]', String(size));
  return url.toString();
}

export function addWalletSetRoutes(
  routes: ApiRoutes,
  backends: Backends,
  directory: FungibleDirectory,
  positionsReader: WalletPositionsReader,
  caches: TransactionRouteCaches = {},
): void {
  const transactionsReader = createWalletTransactionsReader(backends, directory, caches);

  routes.add({
    method: 'get',
    path: '/v1/wallet-sets/portfolio',
    summary: 'The portfolio of up to one EVM and one Solana wallet together: distributions and totals summed, the 1-day percent of the sums',
    tag: 'wallet-sets',
    query: walletSetPortfolioQuery,
    headers: networkHeaders,
    response: portfolioResponseSchema,
    cachedFor: ({ query }) => (query.sync === 'true' ? undefined : { wallet: query.addresses, data: ['holdings'] }),
    async handle({ query, headers }, { organization, selfUrl, changeTokens }) {
      checkRequestUrlLength(selfUrl);
      const context = toRequestContext(organization, headers['X-Env']);
      const scopes = await resolveWalletSetScopes(backends, { context, addresses: query.addresses, chainIds: undefined, capabilities: portfolioCapabilities });
      // The set's tokens are both wallets': each wallet's rows read their own.
      const generation = changeTokens ? sharedVersion(changeTokens) : undefined;
      const portfolios = await Promise.all(scopes.map((scope) => readWalletPortfolio(positionsReader, { context, scope, query, generation })));
      return { links: { self: selfUrl }, data: toPortfolioResource(scopes.map((scope) => scope.address).join(','), mergePortfolios(portfolios)) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallet-sets/positions/',
    summary: 'The positions of up to one EVM and one Solana wallet together, each keeping its id, sorted by value as one list; not paginated',
    tag: 'wallet-sets',
    query: walletSetPositionsQuery,
    headers: networkHeaders,
    response: positionListResponseSchema,
    cachedFor: ({ query }) => (query.sync === 'true' ? undefined : { wallet: query.addresses, data: ['holdings'] }),
    async handle({ query, headers }, { organization, selfUrl, baseUrl, changeTokens }) {
      checkRequestUrlLength(selfUrl);
      const context = toRequestContext(organization, headers['X-Env']);
      const scopes = await resolveWalletSetScopes(backends, {
        context,
        addresses: query.addresses,
        chainIds: query['filter[chain_ids]'],
        capabilities: positionsCapabilities,
      });
      const generation = changeTokens ? sharedVersion(changeTokens) : undefined;
      const selection = positionsSelection(query);
      const lists = await Promise.all(scopes.map((scope) => positionsReader.read({ context, scope, selection, withFungibles: true, generation })));
      const positions = sortByValue(lists.flat(), selection.ascending);
      return { links: { self: selfUrl }, data: await positionsReader.toResources({ context, currency: query.currency, positions, baseUrl, generation }) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallet-sets/transactions/',
    summary: 'The transactions of up to one EVM and one Solana wallet interleaved newest first, with one cursor for both through links.next',
    tag: 'wallet-sets',
    query: walletSetTransactionsQuery,
    headers: networkHeaders,
    response: transactionListResponseSchema,
    errors: [403],
    // As the twin's: answers with pending transactions and unsigned actions are not kept.
    cachedFor: ({ query }) => (query['filter[include_pending]'] === 'true' ? undefined : { wallet: query.addresses, data: ['history'] }),
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const includePending = checkIncludePending(query, organization.roles);
      const places = decodeSetCursor(query['page[after]'], query.addresses.length);
      const scopes = await resolveWalletSetScopes(backends, {
        context,
        addresses: query.addresses,
        chainIds: query['filter[chain_ids]'],
        capabilities: transactionsCapabilities,
      });
      const size = query['page[size]'];
      // Each wallet's next `size` from its own place: the page's `size` newest are among them.
      const read = (scope: (typeof scopes)[number], after: TransactionCursor | undefined, pageSize: number) =>
        transactionsReader.read({ context, scope: { ...scope, tracked: Promise.resolve() }, query, after, size: pageSize, includePending });
      const pages = await Promise.all(
        scopes.map((scope, index) => {
          const place = places[index]!;
          return place === 'done' ? undefined : read(scope, place.after, size);
        }),
      );
      // A wallet whose history this cursor finished still has its snapshots on every page.
      const snapshots = await Promise.all(scopes.map((scope, index) => pages[index] ?? (includePending ? read(scope, undefined, 1) : undefined)));
      const { records, next } = interleavePages(places, pages, size);
      // Each wallet's snapshots merged newest first, as each wallet's list is.
      const newestFirst = (list: TransactionRecord[]) => list.sort((a, b) => Number(BigInt(b.cursor?.minedAtMs ?? '0') - BigInt(a.cursor?.minedAtMs ?? '0')));
      const pending = newestFirst(snapshots.flatMap((page) => page?.pending ?? []));
      const unsigned = newestFirst(snapshots.flatMap((page) => page?.unsigned ?? []));
      const resources = await transactionsReader.toResources({
        context,
        currency: query.currency,
        records: [...records, ...pending, ...unsigned],
        lookedAhead: snapshots.flatMap((page) => (page ? [page.lookedAhead] : [])),
        baseUrl,
      });
      return {
        links: { self: selfUrl, ...(next ? { next: nextSetLink(selfUrl, encodeSetCursor(next), size) } : {}) },
        data: resources.slice(0, records.length),
        ...(includePending
          ? { meta: { pending: resources.slice(records.length, records.length + pending.length), unsigned: resources.slice(records.length + pending.length) } }
          : {}),
      };
    },
  });
}
