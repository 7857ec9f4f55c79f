import type { RequestContext } from '@wallet-api/core/proto/common';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { pricesAt } from '@wallet-api/core/reference-data';
import type { BookKeeper } from '../book/book-keeper.js';
import type { WalletBook } from '../book/wallet-book.js';
import { averagePrices, pnlFigures, type PnlFigures, type PricedFigures } from '../fifo/pnl-figures.js';
import { checkMarkAllowance } from '../marks/marks.js';

export interface PnlRequest {
  context: RequestContext;
  /** One wallet, or a wallet set's (each with lots of its own, figures summed). */
  addresses: readonly string[];
  chainIds: readonly string[];
  currency: string;
  /** Only these fungibles, with a breakdown by id. */
  fungibleIds: readonly string[];
  /** Only these implementations (`<chain_id>:<address>` lowercase, '' address for native), each with lots of its own and a breakdown by implementation; takes precedence over fungibleIds. */
  fungibleImplementations: readonly string[];
  /** Unix seconds. */
  since?: number;
  till?: number;
}

export type BreakdownFigures = PnlFigures & { averageBuyPrice: number; averageSellPrice: number };

export interface PnlResult {
  figures: PnlFigures;
  breakdown?: { by: 'id' | 'implementation'; entries: Map<string, BreakdownFigures> };
  excludedFungibleIds: string[];
  excludedFungibleImplementations: string[];
}

export interface WalletPnl {
  /** BeyondMarkAllowance for a `since`/`till` too far from the marks (spec 4.2 rule 2). */
  compute(request: PnlRequest): Promise<PnlResult>;
}

/**
 * Profit and loss read from the wallets' books (kept by the BookKeeper, which replays and follows
 * their histories): each ledger's figures for the window, its open lots valued at the fungible's
 * one price now. The books hold the figures after every second they moved in, so the marks and
 * any `since`/`till` within rule 2's allowance cost a lookup, not a replay.
 */
export function createWalletPnl(options: { books: BookKeeper; referenceData: ReferenceDataClient; now?: () => number }): WalletPnl {
  const { books, referenceData } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));

  return {
    async compute(request) {
      const kind = request.fungibleImplementations.length > 0 ? 'implementation' : 'fungible';
      const walletBooks = await Promise.all(
        request.addresses.map((address) => books.book({ context: request.context, address, chainIds: request.chainIds, currency: request.currency, kind })),
      );
      const between = (a: number, b: number) => walletBooks.reduce((sum, book) => sum + book.transactionsBetween(a, b), 0);
      if (request.since !== undefined) checkMarkAllowance('since', request.since, now(), between);
      if (request.till !== undefined) checkMarkAllowance('till', request.till, now(), between);
      const only = new Set(kind === 'implementation' ? request.fungibleImplementations : request.fungibleIds);
      const keys = [...new Set(walletBooks.flatMap((book) => [...book.ledgers.keys()]))].filter((key) => only.size === 0 || only.has(key)).sort();
      return summarize(request, walletBooks, keys, await currentPrices(request, walletBooks, keys));
    },
  };

  /** Today's one price of each ledger's fungible, asked of one of its implementations. */
  async function currentPrices(request: PnlRequest, walletBooks: readonly WalletBook[], keys: readonly string[]): Promise<Map<string, number | undefined>> {
    const implementationOf = (key: string) => [...walletBooks.find((book) => book.ledgers.has(key))!.ledgers.get(key)!.implementations][0]!;
    const answers = await pricesAt(referenceData, {
      context: request.context,
      currency: request.currency,
      queries: keys.map((key) => {
        const implementation = implementationOf(key);
        const split = implementation.indexOf(':');
        return { token: { chainId: implementation.slice(0, split), address: implementation.slice(split + 1) }, timestamp: '0' };
      }),
    });
    return new Map(keys.map((key, index) => [key, answers[index]]));
  }
}

/**
 * The figures of every ledger with a price today; ledgers lacking one (today, or at a movement
 * up to `till` whose value the trade could not give) are left out and listed (spec 4.2 rule 1,
 * for requests without a fungible filter too: one unpriced airdrop must not fail a wallet's PnL).
 * A fungible filter adds the breakdown of each key asked for that has a ledger.
 */
function summarize(request: PnlRequest, walletBooks: readonly WalletBook[], keys: readonly string[], prices: Map<string, number | undefined>): PnlResult {
  const window = { ...(request.since === undefined ? {} : { since: request.since }), ...(request.till === undefined ? {} : { till: request.till }) };
  const unpricedUntil = (key: string) => Math.min(...walletBooks.map((book) => book.ledgers.get(key)?.firstUnpriced ?? Infinity));
  const unpriced = (key: string) => prices.get(key) === undefined || unpricedUntil(key) <= (request.till ?? Number.MAX_VALUE);
  const excluded = keys.filter(unpriced);
  const kept = keys.filter((key) => !unpriced(key));
  const priced = (key: string): PricedFigures[] =>
    walletBooks.filter((book) => book.ledgers.has(key)).map((book) => ({ figures: book.figures(key, window), price: prices.get(key)! }));
  const byImplementation = request.fungibleImplementations.length > 0;
  const breakdown = (key: string): BreakdownFigures => ({ ...pnlFigures(priced(key)), ...averagePrices(priced(key)) });
  return {
    figures: pnlFigures(kept.flatMap(priced)),
    ...(request.fungibleIds.length > 0 || byImplementation
      ? { breakdown: { by: byImplementation ? 'implementation' : 'id', entries: new Map(kept.map((key) => [key, breakdown(key)])) } as const }
      : {}),
    excludedFungibleIds: byImplementation ? [] : excluded,
    excludedFungibleImplementations: byImplementation ? excluded : [],
  };
}
