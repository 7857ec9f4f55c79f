import type { ChartWindow } from '@wallet-api/core/charts';
import { createWriteBehind, inList, join, orphanedBlocks, sql, type ClickHouse } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import { fromLimbs } from '../series/amount-limbs.js';
import { bucketOf, createBucketedChanges, type BucketedChanges } from '../series/bucketed-changes.js';
import { rowAmount, rowIdentity, type BalanceChangeRow } from './balance-change-rows.js';

type Tables = { chart_balance_changes: BalanceChangeRow };
const table = 'chart_balance_changes';

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
}

interface LimbSums {
  chain_id: string;
  asset: string;
  bucket: string;
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
 * every read adds the waiting rows of its wallets to what the table answers.
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

  /** The wallets' waiting rows on the chains up to a time, each change once (orphaned blocks' rows still in). */
  function waitingRows(request: SeriesRequest, upTo?: number): BalanceChangeRow[] {
    const chains = new Set(request.chainIds);
    const unique = new Map<string, BalanceChangeRow>();
    for (const address of request.addresses) {
      for (const row of rows.waitingFor(table, address)) {
        if (chains.has(row.chain_id) && (upTo === undefined || row.block_timestamp <= upTo)) unique.set(rowIdentity(row), row);
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

  return {
    add: (added) => rows.add(table, added),

    async changes(request, window) {
      const changes = createBucketedChanges();
      if (request.addresses.length === 0 || request.chainIds.length === 0) return changes;
      const begin = new Date(window.beginAt * 1000);
      const end = new Date(window.endAt * 1000);
      // The newest copy of a change is as good as any: LIMIT 1 BY folds copies no merge folded yet.
      const waiting = waitingRows(request, window.endAt);
      const [sums, counted] = await Promise.all([
        clickhouse.query<LimbSums>(sql`SELECT chain_id, asset, bucket,
            sum(l0) AS s0, sum(l1) AS s1, sum(l2) AS s2, sum(l3) AS s3, sum(l4) AS s4, sum(l5) AS s5, sum(l6) AS s6, sum(l7) AS s7
          FROM (
            SELECT chain_id, asset, l0, l1, l2, l3, l4, l5, l6, l7,
              if(block_timestamp <= ${begin}, 0, intDiv(toUInt32(block_timestamp) - ${window.beginAt} + ${window.intervalSeconds - 1}, ${window.intervalSeconds})) AS bucket
            FROM chart_balance_changes
            WHERE ${storedScope(request)} AND block_timestamp <= ${end} AND ${notWaiting(waiting)}
            LIMIT 1 BY address, chain_id, asset, block_hash, transaction_index
          )
          GROUP BY chain_id, asset, bucket`),
        canonical(waiting),
      ]);
      for (const row of sums) {
        changes.add({ chainId: row.chain_id, asset: row.asset }, Number(row.bucket), fromLimbs([row.s0, row.s1, row.s2, row.s3, row.s4, row.s5, row.s6, row.s7]));
      }
      for (const row of counted) {
        changes.add({ chainId: row.chain_id, asset: row.asset }, bucketOf(window, row.block_timestamp), rowAmount(row));
      }
      return changes;
    },

    async firstActivity(request) {
      if (request.addresses.length === 0 || request.chainIds.length === 0) return undefined;
      const [stored, waiting] = await Promise.all([
        clickhouse.query<{ first: string; count: string }>(
          sql`SELECT toUInt32(min(block_timestamp)) AS first, count() AS count FROM chart_balance_changes WHERE ${storedScope(request)}`,
        ),
        canonical(waitingRows(request)),
      ]);
      const times = [...(Number(stored[0]?.count ?? 0) > 0 ? [Number(stored[0]!.first)] : []), ...waiting.map((row) => row.block_timestamp)];
      return times.length === 0 ? undefined : Math.min(...times);
    },

    async recordRollback(rollback) {
      await clickhouse.insert(
        'block_states',
        rollback.orphanedBlockHashes.map((hash, index) => ({
          chain_id: rollback.chainId,
          block_hash: hash.toLowerCase(),
          block_number: rollback.orphanedBlockNumbers[index] ?? '0',
          orphaned: 1,
          sequence: rollback.sequence,
        })),
      );
    },

    close: () => rows.close(),
  };
}
