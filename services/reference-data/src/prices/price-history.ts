import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';
import { LRUCache } from 'lru-cache';
import type { DayMarkTime, PriceHistoryRow, PriceLookup, PriceStore, StoredPrice } from '../store/price-store.js';
import type { PricedTokens } from './priced-tokens.js';

export interface PriceHistory {
  /** The price of each lookup in USD (newest row at or before its time) and its depth, in lookup order. */
  /** `tokens`: the change tokens in force, when the caller has read them already (one Redis read per call). */
  pricesAt(lookups: readonly PriceLookup[], tokens?: SharedChangeTokens): Promise<(StoredPrice | undefined)[]>;
  /**
   * Reads, under the tokens about to be announced, what the kept current days gained from the
   * batch just stored (and the day marks), so the lookups that follow the announcement find
   * them in memory instead of all waiting for the same reads.
   */
  prepare(tokens: SharedChangeTokens): Promise<void>;
  /**
   * The times in (from, to] at which `pricesAt` may answer differently for any of the tokens: each
   * of their rows' times and each day mark of their chains. Between two of them every lookup of
   * the tokens answers alike, so a price series is whole with the prices at these times.
   * Undefined when there are more than `limit`: found from the day marks alone when they
   * outnumber it, before any row is read.
   */
  changeTimes(sources: readonly PriceSource[], from: number, to: number, tokens?: SharedChangeTokens, limit?: number): Promise<number[] | undefined>;
}

/** A token on a chain whose stored history prices it. */
export type PriceSource = Pick<PriceLookup, 'chainId' | 'token'>;

export interface PriceHistoryOptions {
  store: Pick<PriceStore, 'dayMarks' | 'dayPrices'>;
  /** Replaced by the price consumer after every stored batch (prices) and rollback (everything). */
  versions: Pick<ChangeVersions, 'everythingAndPrices'>;
  /** Tokens known never to have had a price are answered without a read; absent: every token is read. */
  priced?: Pick<PricedTokens, 'unpriced'>;
  /** The chains with prices: their day marks are read together. */
  chainIds: readonly string[];
  /** Price rows kept in memory (about 200 bytes each); the least recently used days go first. */
  maxRows?: number;
  /** Current days read by a lookup within this long are read ahead of each price move (`prepare`). */
  preparedForMs?: number;
}

type Row = Omit<PriceHistoryRow, 'chainId' | 'token' | 'day'>;
type DayKey = { key: string; chainId: string; token: string; day: number };

/** One token's rows of one day on one chain, oldest first, one per block (its highest revision). */
interface DayRows {
  rows: Row[];
  /** A day before the chain's newest mark: the fold has moved past it, so only a rollback can change it. */
  closed: boolean;
  /** The tokens it was read under: a closed day is good until the next rollback, an open one until the next price move. */
  tokens: SharedChangeTokens;
  /** When a lookup last read it (ms): only recently read days are prepared for the next price move. */
  usedAt: number;
}

/** A chain's marks by time, each with the largest day marked at or before it. */
interface ChainMarks {
  times: number[];
  days: number[];
}

const rowOrder = (a: Row, b: Row) => a.timestamp - b.timestamp || a.blockNumber - b.blockNumber || a.revision - b.revision;

/** Index of the last item whose `time` is at or below `bound`, in items ascending by it; -1 when there is none. */
function lastAtOrBelow<T>(items: readonly T[], time: (item: T) => number, bound: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (time(items[middle]!) <= bound) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

function indexMarks(marks: readonly DayMarkTime[]): Map<string, ChainMarks> {
  const byChain = new Map<string, DayMarkTime[]>();
  for (const mark of marks) {
    const list = byChain.get(mark.chainId);
    if (list) list.push(mark);
    else byChain.set(mark.chainId, [mark]);
  }
  const indexed = new Map<string, ChainMarks>();
  for (const [chainId, list] of byChain) {
    list.sort((a, b) => a.timestamp - b.timestamp || a.day - b.day);
    let largest = -1;
    indexed.set(chainId, { times: list.map((mark) => mark.timestamp), days: list.map((mark) => (largest = Math.max(largest, mark.day))) });
  }
  return indexed;
}

/** A block's rows reduced to its highest revision, in row order. */
function collapse(rows: readonly Row[]): Row[] {
  const newest = new Map<string, Row>();
  for (const row of rows) {
    const key = `${row.timestamp}:${row.blockNumber}:${row.blockHash}`;
    const kept = newest.get(key);
    if (!kept || kept.revision < row.revision) newest.set(key, row);
  }
  return [...newest.values()].sort(rowOrder);
}

/**
 * Price lookups answered from memory: the stored history read once per (chain, token, day) and
 * kept. A lookup at time t reads the day of the chain's newest day mark at or before t (see
 * migration 0006), so a day the fold has left (an older mark than the newest) never changes
 * until a rollback, and the current day only grows: after a price move only its rows since the
 * last read are fetched. Everything is checked against the change tokens the price consumer
 * replaces after storing, so an answer is never older than a price batch or rollback whose token
 * was visible when it was asked. Day marks are read before rows, so a day closed by a mark has
 * all its rows in the read that follows.
 */
export function createPriceHistory(options: PriceHistoryOptions): PriceHistory {
  const { store, versions } = options;
  const preparedForMs = options.preparedForMs ?? 60_000;
  /** The kept days that are still open (the chain's newest): what a price move may add to. */
  const openDays = new Set<string>();
  const days = new LRUCache<string, DayRows>({
    maxSize: options.maxRows ?? 250_000,
    sizeCalculation: (entry) => entry.rows.length + 1,
    dispose: (_entry, key) => openDays.delete(key),
  });
  let daysUnder = '';
  let marks: { version: string; index: Promise<Map<string, ChainMarks>> } | undefined;
  const reading = new Map<string, { version: string; rows: Promise<DayRows> }>();

  function marksUnder(tokens: SharedChangeTokens): Promise<Map<string, ChainMarks>> {
    const version = `${tokens.everything}/${tokens.prices}`;
    if (marks?.version !== version) {
      const index = store.dayMarks(options.chainIds).then(indexMarks);
      marks = { version, index };
      // A failed read is asked again by the next lookup rather than kept.
      index.catch(() => {
        if (marks?.index === index) marks = undefined;
      });
    }
    return marks.index;
  }

  const usable = (entry: DayRows | undefined, tokens: SharedChangeTokens): entry is DayRows =>
    entry !== undefined && entry.tokens.everything === tokens.everything && (entry.closed || entry.tokens.prices === tokens.prices);

  /** Reads the given days (only rows newer than what is kept, for a kept open day) in one query. */
  async function readDays(keys: readonly DayKey[], tokens: SharedChangeTokens, index: Map<string, ChainMarks>): Promise<Map<string, DayRows>> {
    const kept = new Map(keys.map(({ key }) => [key, days.get(key)]));
    const since = (key: string) => {
      const entry = kept.get(key);
      // Rows of the newest kept second may have company from a later block of the same second.
      return entry && entry.tokens.everything === tokens.everything ? (entry.rows.at(-1)?.timestamp ?? 0) : 0;
    };
    const fetched = await store.dayPrices(keys.map(({ key, chainId, token, day }) => ({ chainId, token, day, since: since(key) })));
    const byKey = new Map<string, Row[]>();
    for (const { chainId, token, day, ...row } of fetched) {
      const key = `${chainId}:${token}:${day}`;
      if (row.timestamp < since(key)) continue;
      const list = byKey.get(key);
      if (list) list.push(row);
      else byKey.set(key, [row]);
    }
    const result = new Map<string, DayRows>();
    for (const { key, chainId, day } of keys) {
      const from = since(key);
      const older = from === 0 ? [] : kept.get(key)!.rows.filter((row) => row.timestamp < from);
      const newestDay = index.get(chainId)?.days.at(-1);
      const entry: DayRows = {
        rows: [...older, ...collapse(byKey.get(key) ?? [])],
        closed: newestDay !== undefined && day < newestDay,
        tokens,
        usedAt: kept.get(key)?.usedAt ?? Date.now(),
      };
      result.set(key, entry);
      // A read that a rollback overtook answers its own lookups but is not kept.
      if (daysUnder === tokens.everything) {
        days.set(key, entry);
        if (!entry.closed) openDays.add(key);
      }
    }
    return result;
  }

  /** Forgets every kept day when a rollback replaced the tokens they were read under. */
  function adopt(tokens: SharedChangeTokens): void {
    if (daysUnder !== tokens.everything) {
      days.clear();
      openDays.clear();
      daysUnder = tokens.everything;
    }
  }

  /** Each day's rows under `tokens`: kept ones as they are, days being read by another call from that read, the rest read together. */
  function daysUnderTokens(keys: readonly DayKey[], tokens: SharedChangeTokens, index: Map<string, ChainMarks>): Map<string, Promise<DayRows>> {
    const version = `${tokens.everything}/${tokens.prices}`;
    const entries = new Map<string, Promise<DayRows>>();
    const toRead: DayKey[] = [];
    const toReadKeys = new Set<string>();
    for (const dayKey of keys) {
      const { key } = dayKey;
      if (entries.has(key) || toReadKeys.has(key)) continue;
      const entry = days.get(key);
      const inFlight = reading.get(key);
      if (usable(entry, tokens)) entries.set(key, Promise.resolve(entry));
      else if (inFlight?.version === version) entries.set(key, inFlight.rows);
      else {
        toRead.push(dayKey);
        toReadKeys.add(key);
      }
    }
    if (toRead.length > 0) {
      const batch = readDays(toRead, tokens, index);
      for (const { key } of toRead) {
        const rows = batch.then((result) => result.get(key)!);
        entries.set(key, rows);
        reading.set(key, { version, rows });
        const forget = () => {
          if (reading.get(key)?.rows === rows) reading.delete(key);
        };
        rows.then(forget, forget);
      }
    }
    return entries;
  }

  return {
    async pricesAt(lookups, inForce) {
      if (lookups.length === 0) return [];
      const tokens = inForce ?? (await versions.everythingAndPrices());
      // The lookups by token: what holds for a token (priced or not, its day keys) is found once for
      // all its lookups, not per lookup (a PnL asks a few tokens at a hundred thousand times).
      const byChain = new Map<string, Map<string, number[]>>();
      lookups.forEach(({ chainId, token }, position) => {
        const onChain = byChain.get(chainId) ?? byChain.set(chainId, new Map()).get(chainId)!;
        const positions = onChain.get(token);
        if (positions) positions.push(position);
        else onChain.set(token, [position]);
      });
      const asked = [...byChain].flatMap(([chainId, onChain]) => [...onChain].map(([token, positions]) => ({ chainId, token, positions })));
      // Asked after the tokens: a token whose first rows were announced by them is in the set.
      const unpriced = options.priced ? await options.priced.unpriced(asked).catch(() => undefined) : undefined;
      const read = unpriced ? asked.filter(({ chainId, token }) => !unpriced.has(`${chainId}:${token}`)) : asked;
      if (read.length === 0) return lookups.map(() => undefined);
      adopt(tokens);
      const index = await marksUnder(tokens);
      const keys: DayKey[] = [];
      const dayKeyOf: (DayKey | undefined)[] = new Array(lookups.length);
      for (const { chainId, token, positions } of read) {
        const chainMarks = index.get(chainId);
        if (!chainMarks) continue;
        const tokenDays = new Map<number, DayKey>();
        for (const position of positions) {
          const at = lastAtOrBelow(chainMarks.times, (time) => time, lookups[position]!.timestamp);
          if (at < 0) continue;
          const day = chainMarks.days[at]!;
          let dayKey = tokenDays.get(day);
          if (!dayKey) {
            dayKey = { key: `${chainId}:${token}:${day}`, chainId, token, day };
            tokenDays.set(day, dayKey);
            keys.push(dayKey);
          }
          dayKeyOf[position] = dayKey;
        }
      }
      // Each day awaited once, not once per lookup: a batch of a thousand lookups reads a few days.
      const pending = daysUnderTokens(keys, tokens, index);
      const entries = new Map(await Promise.all([...pending].map(async ([key, entry]) => [key, await entry] as const)));
      const now = Date.now();
      for (const entry of entries.values()) entry.usedAt = now;

      return lookups.map(({ timestamp }, position) => {
        const dayKey = dayKeyOf[position];
        if (dayKey === undefined) return undefined;
        const { rows } = entries.get(dayKey.key)!;
        const row = rows[lastAtOrBelow(rows, (candidate) => candidate.timestamp, timestamp)];
        return row?.price === undefined ? undefined : { price: row.price, depthUsd: row.depthUsd };
      });
    },

    async changeTimes(sources, from, to, inForce, limit = Infinity) {
      if (sources.length === 0 || to <= from) return [];
      const tokens = inForce ?? (await versions.everythingAndPrices());
      // As in pricesAt: asked after the tokens, and a token never priced has no rows to read.
      const unpriced = options.priced ? await options.priced.unpriced(sources).catch(() => undefined) : undefined;
      adopt(tokens);
      const index = await marksUnder(tokens);
      const times: number[] = [];
      const within = (time: number) => time > from && time <= to;
      const keys: DayKey[] = [];
      const chainsDone = new Set<string>();
      for (const { chainId, token } of sources) {
        const chainMarks = index.get(chainId);
        const last = chainMarks ? lastAtOrBelow(chainMarks.times, (time) => time, to) : -1;
        if (!chainMarks || last < 0) continue;
        // Before the chain's first mark nothing is priced; the mark itself is a change.
        const first = Math.max(
          0,
          lastAtOrBelow(chainMarks.times, (time) => time, from),
        );
        if (!chainsDone.has(chainId)) {
          chainsDone.add(chainId);
          for (let at = first; at <= last; at++) if (within(chainMarks.times[at]!)) times.push(chainMarks.times[at]!);
        }
        if (unpriced?.has(`${chainId}:${token}`)) continue;
        const tokenDays = new Set<number>();
        for (let at = first; at <= last; at++) tokenDays.add(chainMarks.days[at]!);
        for (const day of tokenDays) keys.push({ key: `${chainId}:${token}:${day}`, chainId, token, day });
      }
      // Every mark is a time of change: a span of more marks than the limit reads no row. Two
      // chains may mark the same second, which counts once.
      if (new Set(times).size > limit) return undefined;
      const entries = await Promise.all(daysUnderTokens(keys, tokens, index).values());
      const now = Date.now();
      for (const entry of entries) {
        entry.usedAt = now;
        for (const row of entry.rows) if (within(row.timestamp)) times.push(row.timestamp);
      }
      times.sort((a, b) => a - b);
      const distinct = times.filter((time, at) => at === 0 || times[at - 1] !== time);
      return distinct.length > limit ? undefined : distinct;
    },

    async prepare(tokens) {
      adopt(tokens);
      const since = Date.now() - preparedForMs;
      const open: DayKey[] = [];
      for (const key of openDays) {
        const entry = days.peek(key);
        if (!entry || entry.closed || entry.tokens.everything !== tokens.everything || entry.usedAt < since) continue;
        const [chainId, token, day] = key.split(':');
        open.push({ key, chainId: chainId!, token: token!, day: Number(day) });
      }
      // Nobody has asked lately: an idle service reads nothing per price move.
      if (open.length === 0) return;
      const index = await marksUnder(tokens);
      await Promise.all(daysUnderTokens(open, tokens, index).values());
    },
  };
}
