import { z } from 'zod';

/** Where a page ended: the sort it was read in, the last item's sort key and id. */
export interface PageCursor {
  sort: number;
  /** Null for an item without the key (no floor): those sort last either way. */
  key: number | null;
  id: string;
}

const cursorSchema = z.object({ s: z.number().int(), k: z.number().nullable(), i: z.string().min(1).max(300) });

export const notACursor = 'page[after] is not a cursor this endpoint returned';

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.sort, k: cursor.key, i: cursor.id })).toString('base64url');
}

/** Undefined for anything this service did not issue. */
export function decodeCursor(text: string): PageCursor | undefined {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? { sort: parsed.data.s, key: parsed.data.k, id: parsed.data.i } : undefined;
  } catch {
    return undefined;
  }
}

export interface Sortable {
  key: number | null;
  id: string;
}

/**
 * Order by key (ascending or descending), items without a key last, then by id: a total order,
 * so a cursor names one place in it however the items change between pages.
 */
export function compareSortable(ascending: boolean) {
  return (a: Sortable, b: Sortable): number => {
    if (a.key !== b.key) {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return ascending ? a.key - b.key : b.key - a.key;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/**
 * The page after the cursor of items sorted by `compare`, and the cursor of the page after it
 * (undefined on the last page).
 */
export function pageAfter<T extends Sortable>(
  sorted: readonly T[],
  compare: (a: Sortable, b: Sortable) => number,
  size: number,
  after: Sortable | undefined,
): { page: T[]; last?: T } {
  let start = 0;
  if (after) {
    // The first item after the cursor: binary search over the total order.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(sorted[middle]!, after) <= 0) low = middle + 1;
      else high = middle;
    }
    start = low;
  }
  const page = sorted.slice(start, start + size);
  return start + size < sorted.length ? { page, last: page[page.length - 1]! } : { page };
}
