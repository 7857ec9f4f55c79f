import type { TransactionCursor, TransactionRecord } from '@wallet-api/core/proto/indexer';
import { cursorFromPage, transactionId } from '@wallet-api/core/resources';
import { apiError } from '../http/api-error.js';

/**
 * Where one wallet of a set stands in its own history: not started (`{}`), after one of its
 * transactions, or at its end. Each wallet keeps its own place, so that ties in time between the
 * wallets can neither repeat nor skip a transaction.
 */
export type WalletPlace = { after?: TransactionCursor } | 'done';

/** One wallet's page as read: newest first, `hasMore` when more follow its last. */
export interface ReadPage {
  transactions: readonly TransactionRecord[];
  hasMore: boolean;
}

const badCursor = () => apiError(400, 'parameter page[after]: is not a cursor this endpoint returned for these addresses');
const idPattern = /^[A-Za-z0-9_.-]{1,64}:\d{1,20}:\d{1,10}$/;
const msPattern = /^\d{1,13}$/;

/**
 * `page[after]`: base64url of a JSON array, one entry per address in the order given: `0` at the
 * end, `null` not started, `[id, mined at ms]` after that transaction (the wallet endpoint's
 * page[lastId] and page[lastTimestamp]).
 */
export function encodeSetCursor(places: readonly WalletPlace[]): string {
  const entries = places.map((place) => (place === 'done' ? 0 : place.after ? [transactionId(place.after), place.after.minedAtMs] : null));
  return Buffer.from(JSON.stringify(entries)).toString('base64url');
}

/** The places `page[after]` names, for a set of `count` addresses; every place not started without one. A 400 for anything else. */
export function decodeSetCursor(cursor: string | undefined, count: number): WalletPlace[] {
  if (cursor === undefined) return Array.from({ length: count }, () => ({}));
  let entries: unknown;
  try {
    entries = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(entries) || entries.length !== count) throw badCursor();
  return entries.map((entry: unknown): WalletPlace => {
    if (entry === 0) return 'done';
    if (entry === null) return {};
    if (
      Array.isArray(entry) &&
      entry.length === 2 &&
      typeof entry[0] === 'string' &&
      idPattern.test(entry[0]) &&
      typeof entry[1] === 'string' &&
      msPattern.test(entry[1])
    ) {
      return { after: cursorFromPage(entry[0], BigInt(entry[1])) };
    }
    throw badCursor();
  });
}

export interface InterleavedPage {
  /** The `size` newest of the pages together, newest first. */
  records: TransactionRecord[];
  /** Where each wallet stands after them; undefined when every wallet is at its end. */
  next: WalletPlace[] | undefined;
}

/**
 * Interleaves each wallet's page (read from its place, `size` long, or undefined for a wallet at
 * its end) by mined time, newest first, the first address's first on equal times. The `size`
 * newest remaining of the whole set are among the `size` newest of each wallet, so a page of the
 * set is exact; each wallet then stands after the last of its own transactions taken.
 */
export function interleavePages(places: readonly WalletPlace[], pages: readonly (ReadPage | undefined)[], size: number): InterleavedPage {
  const taken = places.map(() => 0);
  const records: InterleavedPage['records'] = [];
  while (records.length < size) {
    let newest: number | undefined;
    pages.forEach((page, wallet) => {
      const head = page?.transactions[taken[wallet]!];
      if (!head) return;
      const best = newest === undefined ? undefined : pages[newest]!.transactions[taken[newest]!]!;
      if (!best || BigInt(head.cursor!.minedAtMs) > BigInt(best.cursor!.minedAtMs)) newest = wallet;
    });
    if (newest === undefined) break;
    records.push(pages[newest]!.transactions[taken[newest]!]!);
    taken[newest]! += 1;
  }
  const next = places.map((place, wallet): WalletPlace => {
    const page = pages[wallet];
    if (place === 'done' || !page) return 'done';
    const count = taken[wallet]!;
    // An empty page claiming more would hand out the same place forever: it is taken as the end.
    const left = count < page.transactions.length || (page.hasMore && page.transactions.length > 0);
    if (!left) return 'done';
    return count === 0 ? place : { after: page.transactions[count - 1]!.cursor! };
  });
  return { records, next: next.every((place) => place === 'done') ? undefined : next };
}
