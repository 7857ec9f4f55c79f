import type { LedgerFigures } from '../fifo/fifo-ledger.js';

const columns = [
  'realizedGain',
  'realizedCostBasis',
  'totalInvested',
  'receivedExternal',
  'sentExternal',
  'sentForNfts',
  'receivedForNfts',
  'fees',
  'boughtUnits',
  'boughtCost',
  'soldUnits',
  'soldProceeds',
  'openUnits',
  'openCost',
] as const satisfies readonly (keyof LedgerFigures)[];
const width = columns.length;

const zeroFigures = (): LedgerFigures => Object.fromEntries(columns.map((column) => [column, 0])) as unknown as LedgerFigures;

/**
 * The flows of a window: what was counted after `before` and up to `after` (both cumulative), with
 * the open lots as they stood at the window's end. Flows are sums over transactions, so a window's
 * are the difference of two cumulative rows; the open lots are a state, not a flow.
 */
export function windowFigures(before: LedgerFigures, after: LedgerFigures): LedgerFigures {
  const window = {} as LedgerFigures;
  for (const column of columns) window[column] = after[column] - before[column];
  window.openUnits = after.openUnits;
  window.openCost = after.openCost;
  return window;
}

export interface StatisticsSeries {
  /** Records the ledger's cumulative figures after a transaction at `time` (unix seconds, never decreasing). */
  record(time: number, figures: LedgerFigures): void;
  /** The cumulative figures after every transaction at or before `time`; zeros before the first. */
  at(time: number): LedgerFigures;
  /** The time of the last record; -Infinity without any. */
  readonly newestTime: number;
  readonly length: number;
  /** The series as it stands, to go back to. */
  mark(): SeriesMark;
  /** Goes back to a mark taken earlier, dropping what was recorded since. */
  restore(mark: SeriesMark): void;
}

/** A series' length and its last row then (a later record of the same second replaces that row). */
export interface SeriesMark {
  readonly length: number;
  readonly lastRow: Float64Array | undefined;
}

/**
 * A ledger's cumulative figures after each second it moved in, in one growing Float64Array: the
 * precomputed answer for every mark and every `since`/`till` at once, each read by a binary search
 * (14 numbers per recorded second).
 */
export function createStatisticsSeries(): StatisticsSeries {
  let times = new Float64Array(256);
  let rows = new Float64Array(256 * width);
  let length = 0;

  function grow(): void {
    const nextTimes = new Float64Array(times.length * 2);
    nextTimes.set(times);
    const nextRows = new Float64Array(rows.length * 2);
    nextRows.set(rows);
    times = nextTimes;
    rows = nextRows;
  }

  return {
    record(time, figures) {
      // A later transaction of the same second replaces the row: a request resolves whole seconds.
      const index = length > 0 && times[length - 1] === time ? length - 1 : length;
      if (index === length) {
        if (length === times.length) grow();
        times[length] = time;
        length++;
      }
      // Written out, not looped over `columns`: a replay records every second a ledger moved in.
      const offset = index * width;
      rows[offset] = figures.realizedGain;
      rows[offset + 1] = figures.realizedCostBasis;
      rows[offset + 2] = figures.totalInvested;
      rows[offset + 3] = figures.receivedExternal;
      rows[offset + 4] = figures.sentExternal;
      rows[offset + 5] = figures.sentForNfts;
      rows[offset + 6] = figures.receivedForNfts;
      rows[offset + 7] = figures.fees;
      rows[offset + 8] = figures.boughtUnits;
      rows[offset + 9] = figures.boughtCost;
      rows[offset + 10] = figures.soldUnits;
      rows[offset + 11] = figures.soldProceeds;
      rows[offset + 12] = figures.openUnits;
      rows[offset + 13] = figures.openCost;
    },
    at(time) {
      let low = 0;
      let high = length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (times[middle]! <= time) low = middle + 1;
        else high = middle;
      }
      if (low === 0) return zeroFigures();
      const offset = (low - 1) * width;
      return Object.fromEntries(columns.map((column, index) => [column, rows[offset + index]!])) as unknown as LedgerFigures;
    },
    get newestTime() {
      return length === 0 ? -Infinity : times[length - 1]!;
    },
    get length() {
      return length;
    },
    mark: () => ({ length, lastRow: length === 0 ? undefined : rows.slice((length - 1) * width, length * width) }),
    restore(mark) {
      length = mark.length;
      if (mark.lastRow) rows.set(mark.lastRow, (length - 1) * width);
    },
  };
}
