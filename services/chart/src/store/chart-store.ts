import type { ChartWindow } from '@wallet-api/core/charts';
import { createWriteBehind, inList, join, orphanedBlockRows, orphanedBlocks, sql, type ClickHouse, type SqlFragment } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import { fromLimbs } from '../series/amount-limbs.js';
import { bucketOf, createBucketedChanges, type BucketedChanges, type ChartAsset } from '../series/bucketed-changes.js';
import { createDaySumsCache } from './day-sums-cache.js';
import { addToDay, daySeconds, dayOf, emptyDaySums, lastDayAtOrBefore, sealDaySums, type DaySums } from './day-sums.js';
import { rowAmount, rowIdentity, type BalanceChangeRow } from './balance-change-rows.js';
import { createRecentChanges } from './recent-changes.js';

type Tables = { chart_balance_changes: BalanceChangeRow };
/** The largest DateTime (UInt32 seconds): no change is later. */
const endOfTime = 4_294_967_295;
const table = 'chart_balance_changes';
const hourSeconds = 3_600;
/** How far back from a horizon hour sums reach: a month chart's first point's day and a few more. */
const hourSumsSpan = 35 * 86_400;

export interface SeriesRequest {
  addresses: readonly string[];
  chainIds: readonly string[];
}

export interface ChartStore {
  /** Hands rows over: readable at once, stored with the next round; resolves with when they are durable. */
  add(rows: readonly BalanceChangeRow[]): Promise<{ durable: Promise<void> }>;
  /** The wallets' net changes per asset and point of the window, orphaned blocks left out. */
  changes(request: SeriesRequest, window: ChartWindow): Promise<BucketedChanges>;
  /** The time of the wallets' first change (unix seconds), undefined when they have none. */
  firstActivity(request: SeriesRequest): Promise<number | undefined>;
  /** Marks a rollback's blocks orphaned in block_states (with the indexer's and reference-data's rows for it). */
  recordRollback(rollback: ChainRollback): Promise<void>;
  /** Stores what waits and every later row at once. */
  close(): Promise<void>;
}

export interface ChartStoreOptions {
  clickhouse: ClickHouse;
  logger: Logger;
  /** How long rows may wait for their INSERT (readers see them at once). */
  storeEveryMs: number;
  /** The change token of rollbacks and revived blocks (ChangeVersions.everything): day sums are kept under it. */
  everything: () => Promise<string>;
  /** Wallets (or wallet sets) whose day sums are kept; the least recently used go first. */
  maxSummaries?: number;
  /** Changes after the summarised days kept in memory, across all wallets; the least recently used wallets' go first. */
  maxRecentChanges?: number;
  /** Unix milliseconds: summaries reach the start of this day. */
  now?: () => number;
}

/** A sum of changes of one asset in one group (a day, a point), with the time of its first change. */
interface GroupedChange {
  asset: ChartAsset;
  group: number;
  first: number;
  amount: bigint;
}

interface GroupedRow {
  chain_id: string;
  asset: string;
  grouped: string;
  first: string;
  s0: string;
  s1: string;
  s2: string;
  s3: string;
  s4: string;
  s5: string;
  s6: string;
  s7: string;
}

/**
 * `chart_balance_changes` behind a write-behind buffer: rows wait in memory for one INSERT per
 * round (ClickHouse 18.16 rewrites a partition's youngest part with every few new parts), and
 * every read adds the waiting rows of its wallets to what the table answers. A chart reads its
 * wallets' history up to today as day sums kept in memory (read once, again only after a change
 * on one of those days or a rollback), and the changes after that from memory too: read once per
 * scope and day, then followed as rows are added (recent-changes.ts).
 */
export function createChartStore(options: ChartStoreOptions): ChartStore {
  const { clickhouse } = options;
  const rows = createWriteBehind<Tables>({
    clickhouse,
    logger: options.logger,
    tables: [table],
    keys: { chart_balance_changes: (row) => row.address },
    storeEveryMs: options.storeEveryMs,
  });

  /** The wallets' waiting rows on the chains, each change once (orphaned blocks' rows still in). */
  function waitingRows(request: SeriesRequest): BalanceChangeRow[] {
    const chains = new Set(request.chainIds);
    const unique = new Map<string, BalanceChangeRow>();
    for (const address of request.addresses) {
      for (const row of rows.waitingFor(table, address)) {
        if (chains.has(row.chain_id)) unique.set(rowIdentity(row), row);
      }
    }
    return [...unique.values()];
  }

  /** Those of `waiting` whose block no rollback orphaned. */
  async function canonical(waiting: readonly BalanceChangeRow[]): Promise<BalanceChangeRow[]> {
    if (waiting.length === 0) return [];
    const orphaned = await clickhouse.query<{ chain_id: string; block_hash: string }>(orphanedBlocks([...new Set(waiting.map((row) => row.chain_id))]));
    const hidden = new Set(orphaned.map((row) => `${row.chain_id}:${row.block_hash}`));
    return waiting.filter((row) => !hidden.has(`${row.chain_id}:${row.block_hash}`));
  }

  /**
   * A waiting row can be in the table too (a round in flight, or a message delivered again after a
   * restart): the table's copy is left out, so every change counts once.
   */
  const notWaiting = (waiting: readonly BalanceChangeRow[]) =>
    waiting.length === 0
      ? sql`1`
      : sql`(address, chain_id, asset, block_hash, transaction_index) NOT IN (${join(
          waiting.map((row) => sql`(${row.address}, ${row.chain_id}, ${row.asset}, ${row.block_hash}, ${row.transaction_index})`),
          ', ',
        )})`;

  const storedScope = (request: SeriesRequest) => sql`address IN ${inList(request.addresses)} AND chain_id IN ${inList(request.chainIds)}
      AND (chain_id, block_hash) NOT IN (${orphanedBlocks(request.chainIds)})`;

  /**
   * The wallets' changes after `after` and up to `upTo` (unix seconds), summed per asset and
   * group, stored and waiting rows each counted once: `group.sql` says in SQL and `group.of` in
   * JavaScript which group a change time falls in.
   */
  async function groupedChanges(
    request: SeriesRequest,
    range: { after?: number; upTo: number },
    group: { sql: SqlFragment; of(timestamp: number): number },
  ): Promise<GroupedChange[]> {
    const inRange = (timestamp: number) => (range.after === undefined || timestamp > range.after) && timestamp <= range.upTo;
    const waiting = waitingRows(request).filter((row) => inRange(row.block_timestamp));
    const after = range.after === undefined ? sql`1` : sql`block_timestamp > ${new Date(range.after * 1000)}`;
    // The newest copy of a change is as good as any: LIMIT 1 BY folds copies no merge folded yet.
    const [stored, counted] = await Promise.all([
      clickhouse.query<GroupedRow>(sql`SELECT chain_id, asset, grouped, toUInt32(min(block_timestamp)) AS first,
          sum(l0) AS s0, sum(l1) AS s1, sum(l2) AS s2, sum(l3) AS s3, sum(l4) AS s4, sum(l5) AS s5, sum(l6) AS s6, sum(l7) AS s7
        FROM (
          SELECT chain_id, asset, block_timestamp, l0, l1, l2, l3, l4, l5, l6, l7, ${group.sql} AS grouped
          FROM chart_balance_changes
          WHERE ${storedScope(request)} AND ${after} AND block_timestamp <= ${new Date(range.upTo * 1000)} AND ${notWaiting(waiting)}
          LIMIT 1 BY address, chain_id, asset, block_hash, transaction_index
        )
        GROUP BY chain_id, asset, grouped`),
      canonical(waiting),
    ]);
    return [
      ...stored.map((row) => ({
        asset: { chainId: row.chain_id, asset: row.asset },
        group: Number(row.grouped),
        first: Number(row.first),
        amount: fromLimbs([row.s0, row.s1, row.s2, row.s3, row.s4, row.s5, row.s6, row.s7]),
      })),
      ...counted.map((row) => ({
        asset: { chainId: row.chain_id, asset: row.asset },
        group: group.of(row.block_timestamp),
        first: row.block_timestamp,
        amount: rowAmount(row),
      })),
    ];
  }

  /** Day sums up to `horizon`, read from the table and memory (see DaySumsCache for when they are read again). */
  async function readDaySums(request: SeriesRequest, horizon: number): Promise<DaySums> {
    const sums = emptyDaySums(horizon);
    if (request.addresses.length === 0 || request.chainIds.length === 0) return sums;
    const day = { sql: sql`intDiv(toUInt32(block_timestamp) + ${daySeconds - 1}, ${daySeconds})`, of: dayOf };
    for (const change of await groupedChanges(request, { upTo: horizon }, day)) addToDay(sums, change.asset, change.group, change.amount, change.first);
    return sealDaySums(sums);
  }

  /**
   * Hour sums of the last `hourSumsSpan` before a horizon: the same summary at a finer grain, for
   * the periods whose points are whole hours inside it (month: 2 hours over 30 days), which would
   * otherwise read those days' rows as they are at every request. An hour holds the times after
   * the hour before and up to its end, so it never straddles such a period's points.
   */
  async function readHourSums(request: SeriesRequest, horizon: number): Promise<DaySums> {
    const sums = emptyDaySums(horizon);
    if (request.addresses.length === 0 || request.chainIds.length === 0) return sums;
    const hour = {
      sql: sql`intDiv(toUInt32(block_timestamp) + ${hourSeconds - 1}, ${hourSeconds})`,
      of: (timestamp: number) => Math.ceil(timestamp / hourSeconds),
    };
    for (const change of await groupedChanges(request, { after: horizon - hourSumsSpan, upTo: horizon }, hour))
      addToDay(sums, change.asset, change.group, change.amount, change.first);
    return sealDaySums(sums);
  }

  /** A row as ClickHouse answers it (64-bit integers as strings) in the row type's numbers. */
  const numericRow = (row: BalanceChangeRow): BalanceChangeRow => ({
    ...row,
    block_timestamp: Number(row.block_timestamp),
    block_number: String(row.block_number),
    transaction_index: Number(row.transaction_index),
    l0: Number(row.l0),
    l1: Number(row.l1),
    l2: Number(row.l2),
    l3: Number(row.l3),
    l4: Number(row.l4),
    l5: Number(row.l5),
    l6: Number(row.l6),
    l7: Number(row.l7),
  });

  /** The scope's rows after `after`, stored and waiting, one copy of each stored change (a waiting copy may repeat it). */
  async function readRecent(request: SeriesRequest, after: number): Promise<BalanceChangeRow[]> {
    const waiting = waitingRows(request).filter((row) => row.block_timestamp > after);
    const stored =
      await clickhouse.query<BalanceChangeRow>(sql`SELECT address, chain_id, asset, toUInt32(block_timestamp) AS block_timestamp, block_number, block_hash,
        transaction_index, l0, l1, l2, l3, l4, l5, l6, l7
      FROM chart_balance_changes
      WHERE ${storedScope(request)} AND block_timestamp > ${new Date(after * 1000)}
      LIMIT 1 BY address, chain_id, asset, block_hash, transaction_index`);
    return [...stored.map(numericRow), ...waiting];
  }

  const daySums = createDaySumsCache({ read: readDaySums, everything: options.everything, maxEntries: options.maxSummaries ?? 10_000 });
  const recent = createRecentChanges({
    read: readRecent,
    orphaned: async (chainIds) =>
      new Set((await clickhouse.query<{ chain_id: string; block_hash: string }>(orphanedBlocks(chainIds))).map((row) => `${row.chain_id}:${row.block_hash}`)),
    everything: options.everything,
    maxChanges: options.maxRecentChanges ?? 200_000,
  });
  const hourSums = createDaySumsCache({ read: readHourSums, everything: options.everything, maxEntries: options.maxSummaries ?? 10_000 });
  const today = () => Math.floor((options.now ?? Date.now)() / 1000 / daySeconds) * daySeconds;

  return {
    async add(added) {
      const accepted = await rows.add(table, added);
      recent.added(added);
      // Once readable, a change on a day a summary holds makes that wallet's summaries out of date
      // (a summary read meanwhile is kept under the generation before, so it is read again).
      const horizon = today();
      const summarised = added.filter((row) => row.block_timestamp <= horizon).map((row) => row.address);
      daySums.changed(summarised);
      hourSums.changed(summarised);
      return accepted;
    },

    async changes(request, window) {
      const changes = createBucketedChanges();
      if (request.addresses.length === 0 || request.chainIds.length === 0) return changes;
      const summary = await daySums.get(request, Math.min(today(), Math.floor(window.endAt / daySeconds) * daySeconds));
      // Whole-day points take every day of the summary; finer ones only the days up to the first
      // point's day, and read the changes of the days after it as they are.
      const wholeDays = window.intervalSeconds % daySeconds === 0 && window.beginAt % daySeconds === 0;
      const fromSummary = wholeDays ? summary.horizon : Math.min(summary.horizon, Math.floor(window.beginAt / daySeconds) * daySeconds);
      // Everything up to the first point is its opening balance; the days after it fall in their points.
      const openingDay = Math.floor(window.beginAt / daySeconds);
      for (const { asset, days, totals } of summary.series) {
        const opening = lastDayAtOrBefore(days, openingDay);
        if (opening >= 0) changes.add(asset, 0, totals[opening]!);
        for (let index = opening + 1; index < days.length && days[index]! * daySeconds <= fromSummary; index++) {
          changes.add(asset, bucketOf(window, days[index]! * daySeconds), totals[index]! - (index > 0 ? totals[index - 1]! : 0n));
        }
      }
      // Whole-hour points within the hour sums' span take the hours after the first point's day from them.
      let rowsAfter = fromSummary;
      if (!wholeDays && window.intervalSeconds % hourSeconds === 0 && window.beginAt % hourSeconds === 0 && fromSummary >= summary.horizon - hourSumsSpan) {
        const hours = await hourSums.get(request, summary.horizon);
        for (const { asset, days: hoursOf, totals } of hours.series) {
          hoursOf.forEach((hour, index) => {
            if (hour * hourSeconds <= fromSummary) return;
            changes.add(asset, bucketOf(window, hour * hourSeconds), totals[index]! - (index > 0 ? totals[index - 1]! : 0n));
          });
        }
        rowsAfter = summary.horizon;
      }
      // The rows after the summarised days, from memory: read once per scope and day, then followed as they are added.
      for (const change of await recent.changes(request, rowsAfter)) {
        if (change.timestamp <= window.endAt) changes.add({ chainId: change.chainId, asset: change.asset }, bucketOf(window, change.timestamp), change.amount);
      }
      return changes;
    },

    async firstActivity(request) {
      if (request.addresses.length === 0 || request.chainIds.length === 0) return undefined;
      const summary = await daySums.get(request, today());
      if (summary.first !== undefined) return summary.first;
      // Nothing up to today's start: today's changes, if any.
      const changes = await groupedChanges(request, { after: summary.horizon, upTo: endOfTime }, { sql: sql`0`, of: () => 0 });
      return changes.length === 0 ? undefined : Math.min(...changes.map((change) => change.first));
    },

    async recordRollback(rollback) {
      await clickhouse.insert('block_states', orphanedBlockRows(rollback));
    },

    close: () => rows.close(),
  };
}
