import type { ChartWindow } from '@wallet-api/core/charts';
import { createWriteBehind, orphanedBlocks, sql, type ClickHouse } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainBlock } from '@wallet-api/core/proto/events';
import { bucketOf, pointCount } from '../series/bucketed-changes.js';

/** A row of `chain_blocks` (migration 0001), as inserted. */
export type ChainBlockRow = {
  chain_id: string;
  number: string;
  hash: string;
  parent_hash: string;
  /** Unix seconds. */
  timestamp: number;
};

type Tables = { chain_blocks: ChainBlockRow };
const table = 'chain_blocks';

export const toChainBlockRow = (block: ChainBlock): ChainBlockRow => ({
  chain_id: block.chainId,
  number: block.number,
  hash: block.hash.toLowerCase(),
  parent_hash: block.parentHash.toLowerCase(),
  timestamp: Number(block.timestamp),
});

export interface BlockClock {
  /** Hands block headers over: readable at once, stored with the next round. */
  add(rows: readonly ChainBlockRow[]): Promise<{ durable: Promise<void> }>;
  /**
   * Per point of the window, the newest canonical block of the chain at or before the point's
   * time (undefined before the chain's first known block).
   */
  blocksAt(chainId: string, window: ChartWindow): Promise<(bigint | undefined)[]>;
  /** The time (unix seconds) of the newest block indexed on any of the chains; undefined before the first. */
  newestTime(chainIds: readonly string[]): Promise<number | undefined>;
  close(): Promise<void>;
}

export interface BlockClockOptions {
  clickhouse: ClickHouse;
  logger: Logger;
  storeEveryMs: number;
  /** The change token of rollbacks (ChangeVersions.everything): resolved times are kept under it. */
  everything: () => Promise<string>;
  maxEntries?: number;
}

/** Block numbers compared as numbers: JavaScript's sort compares strings. */
const newer = (a: bigint | undefined, b: bigint) => (a === undefined || b > a ? b : a);

/**
 * Which block each chart point stands at, from the block headers of the blocks topic kept in
 * ClickHouse. A point's block is final once a block after the point's time is known (until a
 * rollback): final ones are kept, so a chart asks ClickHouse only about its newest points, from
 * the block of the newest kept point before them on (a primary-key range, not the whole chain).
 */
export function createBlockClock(options: BlockClockOptions): BlockClock {
  const { clickhouse } = options;
  const rows = createWriteBehind<Tables>({
    clickhouse,
    logger: options.logger,
    tables: [table],
    keys: { chain_blocks: (row) => row.chain_id },
    storeEveryMs: options.storeEveryMs,
  });
  const maxEntries = options.maxEntries ?? 1_000_000;
  /** `<chain>|<time>` -> the block at that time, for times a later block is known after. */
  const settled = new Map<string, bigint>();
  let generation: string | undefined;
  /** Per chain, the newest block time handed over, or read once from ClickHouse before the first. */
  const newest = new Map<string, Promise<number | undefined>>();

  function newestOf(chainId: string): Promise<number | undefined> {
    let known = newest.get(chainId);
    if (!known) {
      known = clickhouse
        .query<{ latest: string; blocks: string }>(
          sql`SELECT toUInt32(max(timestamp)) AS latest, count() AS blocks FROM chain_blocks WHERE chain_id = ${chainId}`,
        )
        .then(([row]) => (row && Number(row.blocks) > 0 ? Number(row.latest) : undefined));
      newest.set(chainId, known);
      known.catch(() => newest.delete(chainId));
    }
    return known;
  }

  async function resolve(chainId: string, window: ChartWindow, lowerBound: bigint): Promise<{ buckets: Map<number, bigint>; latest: number }> {
    const waiting = rows.waitingFor(table, chainId).filter((row) => BigInt(row.number) >= lowerBound);
    // Aliases differ from the columns: 18.16 would read an alias named like a column in WHERE.
    const [orphaned, stored] = await Promise.all([
      waiting.length === 0 ? [] : clickhouse.query<{ chain_id: string; block_hash: string }>(orphanedBlocks([chainId])),
      clickhouse.query<{ point: string; block: string; latest: string }>(sql`SELECT
        if(timestamp <= ${new Date(window.beginAt * 1000)}, 0, intDiv(toUInt32(timestamp) - ${window.beginAt} + ${window.intervalSeconds - 1}, ${window.intervalSeconds})) AS point,
        max(number) AS block, toUInt32(max(timestamp)) AS latest
      FROM chain_blocks
      WHERE chain_id = ${chainId} AND number >= ${lowerBound} AND (chain_id, hash) NOT IN (${orphanedBlocks([chainId])})
      GROUP BY point`),
    ]);
    const hidden = new Set(orphaned.map((row) => row.block_hash));
    const buckets = new Map<number, bigint>();
    let latest = 0;
    const count = (point: number, number: bigint, timestamp: number) => {
      buckets.set(point, newer(buckets.get(point), number));
      latest = Math.max(latest, timestamp);
    };
    for (const row of stored) count(Number(row.point), BigInt(row.block), Number(row.latest));
    for (const row of waiting) {
      if (hidden.has(row.hash)) continue;
      count(bucketOf(window, row.timestamp), BigInt(row.number), row.timestamp);
    }
    return { buckets, latest };
  }

  return {
    add(added) {
      for (const row of added) {
        const time = row.timestamp;
        const previous = newest.get(row.chain_id);
        newest.set(
          row.chain_id,
          (previous ?? Promise.resolve(undefined)).catch(() => undefined).then((known) => Math.max(known ?? 0, time)),
        );
      }
      return rows.add(table, added);
    },

    async newestTime(chainIds) {
      const times = (await Promise.all(chainIds.map(newestOf))).filter((time): time is number => time !== undefined);
      return times.length === 0 ? undefined : Math.max(...times);
    },

    async blocksAt(chainId, window) {
      const current = await options.everything();
      if (current !== generation) {
        settled.clear();
        generation = current;
      }
      const count = pointCount(window);
      const timeOf = (point: number) => window.beginAt + point * window.intervalSeconds;
      const blocks: (bigint | undefined)[] = Array.from({ length: count }, (_, point) => settled.get(`${chainId}|${timeOf(point)}`));
      const firstUnknown = blocks.indexOf(undefined);
      if (firstUnknown === -1) return blocks;
      const lowerBound = firstUnknown > 0 ? blocks[firstUnknown - 1]! : 0n;
      const { buckets, latest } = await resolve(chainId, window, lowerBound);
      let running: bigint | undefined = firstUnknown > 0 ? lowerBound : undefined;
      for (let point = 0; point < count; point++) {
        const bucket = buckets.get(point);
        if (bucket !== undefined) running = newer(running, bucket);
        if (point < firstUnknown) continue;
        blocks[point] = running;
        // Kept only under the generation it was read in, and once a block after the point is known.
        if (running !== undefined && timeOf(point) < latest && generation === current) {
          if (settled.size >= maxEntries) settled.clear();
          settled.set(`${chainId}|${timeOf(point)}`, running);
        }
      }
      return blocks;
    },

    close: () => rows.close(),
  };
}
