import type { ChangeVersions, WalletChangeTokens } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { WalletLegs } from '@wallet-api/core/proto/events';
import { LRUCache } from 'lru-cache';
import { TooManyTransactions, type HistoryReader } from '../history/history-reader.js';
import type { LedgerKind, LegPricing } from './leg-pricing.js';
import { compareHistoryOrder, createWalletBook, type WalletBook } from './wallet-book.js';

export interface BookRequest {
  context: RequestContext;
  address: string;
  chainIds: readonly string[];
  currency: string;
  kind: LedgerKind;
}

export interface BookKeeper {
  /** The wallet's book, up to date with its history as the tokens read now say. */
  book(request: BookRequest): Promise<WalletBook>;
}

export interface BookKeeperOptions {
  history: HistoryReader;
  pricing: LegPricing;
  versions: Pick<ChangeVersions, 'walletTokens' | 'pricesMovedSince'>;
  /** Books kept (one per wallet, chain set, currency, network and ledger kind). */
  maxBooks?: number;
  /** Transactions the kept books may hold together (their memory: about 600 bytes each, measured on 100,000 trades). */
  maxBookTransactions?: number;
  maxTransactions?: number;
  /** History chunks whose legs are priced at once before the oldest of them is applied (2 unless given). */
  pricedAhead?: number;
  /** Transactions each book can take back (`defaultRecentTransactions` unless given): a change reaching further back replays the history. */
  recentTransactions?: number;
}

interface Kept {
  tokens: WalletChangeTokens;
  book: Promise<WalletBook>;
}

const sameTokens = (a: WalletChangeTokens, b: WalletChangeTokens) =>
  a.everything === b.everything && a.prices === b.prices && a.wallet.join('/') === b.wallet.join('/');

/**
 * Keeps each wallet's book computed and follows its history: a new transaction (the wallet's
 * history token moved) is read from the indexer chain by chain after the book's newest there and
 * applied where the ledgers stand; a price move reaching a time the book has valued legs at, or a
 * transaction arriving before the book's newest (a chain indexed behind the others), takes back
 * the book's recent transactions from there and applies them again, priced anew. A rollback or
 * revived block (the shared token), a known transaction gone, or a change reaching further back
 * than the book can take back replays the history from the start.
 * Updates of one book run one after another; every request reads the tokens first, so an answer
 * never misses a change its tokens show.
 */
export function createBookKeeper(options: BookKeeperOptions): BookKeeper {
  const { history, pricing, versions } = options;
  const limit = options.maxTransactions ?? Infinity;
  const pricedAhead = options.pricedAhead ?? 2;
  // A book counts for its transactions once built (1 while it is): a few large wallets push out many small ones.
  const books = new LRUCache<string, Kept>({ max: options.maxBooks ?? 2_000, maxSize: options.maxBookTransactions ?? 2_000_000, sizeCalculation: () => 1 });

  /**
   * Replays the whole history as it streams in: each chunk is priced while the next ones are read
   * and applied once those before it are, at most `pricedAhead` chunks waiting for their prices.
   */
  async function build(request: BookRequest): Promise<WalletBook> {
    const book = createWalletBook(request.address, options.recentTransactions === undefined ? {} : { recentTransactions: options.recentTransactions });
    let applied = Promise.resolve();
    const waiting: Promise<void>[] = [];
    for await (const chunk of history.history(request.address, request.chainIds)) {
      const priced = pricing.price(chunk, request);
      applied = applied.then(async () => book.apply(chunk, await priced));
      // Met by the await below or the last one; a failure meanwhile is no unhandled rejection.
      applied.catch(() => undefined);
      waiting.push(applied);
      if (waiting.length > pricedAhead) await waiting.shift();
    }
    await applied;
    return book;
  }

  /**
   * Brings the book up to date: reads what the history gained on each chain after the book's
   * newest there (when the wallet's history changed), takes back the recent transactions a price
   * move since `movedSince` (unix seconds) reaches or a late transaction falls before, and applies
   * those and the new ones priced now. Priced before the book changes, then taken back and applied
   * in one synchronous step, so no reader sees the book in between. False when the book cannot
   * follow: a known transaction is gone, or the change reaches further back than it can take back.
   */
  async function follow(book: WalletBook, request: BookRequest, movedSince: number, historyChanged: boolean): Promise<boolean> {
    let added: WalletLegs[] = [];
    if (historyChanged) {
      const perChain = await Promise.all(request.chainIds.map((chainId) => history.newerThan(request.address, chainId, book.newestByChain.get(chainId))));
      if (perChain.some((found) => found === undefined)) return false;
      added = (perChain as WalletLegs[][]).flat().sort(compareHistoryOrder);
    }
    const earliestAdded = added[0];
    const replayed = (transaction: WalletLegs) =>
      Number(transaction.blockTimestamp) >= movedSince || (earliestAdded !== undefined && compareHistoryOrder(transaction, earliestAdded) > 0);
    const { recent } = book;
    let taken = 0;
    while (taken < recent.length && replayed(recent[recent.length - 1 - taken]!)) taken++;
    if (taken === recent.length && book.beforeRecent && replayed(book.beforeRecent)) return false;
    if (taken === 0 && added.length === 0) return true;
    const applied = [...recent.slice(recent.length - taken), ...added].sort(compareHistoryOrder);
    if (book.count - taken + applied.length > limit) throw new TooManyTransactions(limit);
    const priced = await pricing.price(applied, request);
    if (!book.rewind(taken)) return false;
    book.apply(applied, priced);
    return true;
  }

  /** The earliest time a price may have moved at between the two price tokens: Infinity when none did, undefined when unknown. */
  async function pricesMovedBetween(before: string, now: string): Promise<number | undefined> {
    return before === now ? Infinity : versions.pricesMovedSince(before);
  }

  return {
    async book(request) {
      const key = JSON.stringify([request.address, [...request.chainIds].sort(), request.currency, request.context.network, request.kind]);
      const tokens = await versions.walletTokens(request.address, ['history']);
      const kept = books.get(key);
      if (kept && sameTokens(kept.tokens, tokens)) return kept.book;
      const next = (async () => {
        const previous = kept && kept.tokens.everything === tokens.everything ? await kept.book.catch(() => undefined) : undefined;
        const movedSince = previous && (await pricesMovedBetween(kept!.tokens.prices, tokens.prices));
        if (previous && movedSince !== undefined && (await follow(previous, request, movedSince, kept!.tokens.wallet.join('/') !== tokens.wallet.join('/'))))
          return previous;
        return build(request);
      })();
      const entry = { tokens, book: next };
      books.set(key, entry);
      next.then(
        (book) => {
          if (books.peek(key) !== entry) return;
          // Counted for its transactions now that they are known: lru-cache takes a new size only
          // with a new value, so the entry is taken out and kept again.
          books.delete(key);
          books.set(key, entry, { size: Math.max(1, book.count) });
        },
        // A failure is not kept (the next request computes again), but a refusal of the wallet is: rule 4's 422 once detected.
        (error: unknown) => !(error instanceof TooManyTransactions) && books.peek(key) === entry && books.delete(key),
      );
      return next;
    },
  };
}
