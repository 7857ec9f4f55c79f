import { inList, join, orphanedBlockRows, orphanedBlocks, sql, type ClickHouse, type SqlFragment } from '@wallet-api/core/clickhouse';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import { createLogger } from '@wallet-api/core/logger';
import type { ChainPoolEvent } from '../prices/chain-pool-event.js';
import type { BlockRef } from '../prices/price-fold.js';
import { createPriceRows, type PoolEventRecord, type PriceRows } from './price-rows.js';

/** A stored block with pool events, and the pools they touched. */
export interface StoredPoolBlock extends BlockRef {
  pools: string[];
}

/**
 * `pool_events`: the raw PoolEvent messages; every read leaves out orphaned blocks. Inserts go
 * through PriceRows: the stored keys include waiting events, and the reads of a restart or refold
 * store what waits first.
 */
export interface PoolEventStore {
  /** `<block hash>:<log index>` of the events already stored or waiting to be. */
  storedKeys(chainId: string, events: readonly ChainPoolEvent[]): Promise<Set<string>>;
  /** Hands the events over to be stored after the rows written before them (PriceRows). */
  insert(events: readonly ChainPoolEvent[]): Promise<void>;
  /** Those of the hashes that a rollback already orphaned. */
  orphanedAmong(chainId: string, blockHashes: readonly string[]): Promise<Set<string>>;
  /** Each pool's newest event at or below `atMost` (any height when absent), of `pools` only when given. */
  latestStates(chainId: string, options?: { atMost?: bigint; pools?: readonly string[] }): Promise<ChainPoolEvent[]>;
  /** Events above `after`, in chain order. */
  eventsAfter(chainId: string, after: bigint): Promise<ChainPoolEvent[]>;
  /** Blocks with events above `after`, in order. */
  blocksAfter(chainId: string, after: bigint): Promise<StoredPoolBlock[]>;
  /** The newest block with events at or below `atMost`. */
  head(chainId: string, atMost?: bigint): Promise<BlockRef | undefined>;
  /**
   * Marks a rollback's blocks orphaned in `block_states`, with the rows the indexer's writer adds
   * for it, once every waiting row is stored: rows read from memory are never of orphaned blocks.
   */
  recordRollback(rollback: ChainRollback): Promise<void>;
}

export const poolEventKey = (event: { blockHash: string; logIndex: number }) => `${event.blockHash}:${event.logIndex}`;

const kindCodes = { v2: 1, v3: 2 } as const;

function toRow(event: ChainPoolEvent): PoolEventRecord {
  return {
    chain_id: event.chainId,
    block_number: event.blockNumber.toString(),
    block_hash: event.blockHash,
    block_timestamp: event.blockTimestamp,
    transaction_index: event.transactionIndex,
    log_index: event.logIndex,
    kind: kindCodes[event.kind],
    pool: event.pool,
    token0: event.token0,
    token1: event.token1,
    reserve0: event.reserve0.toString(),
    reserve1: event.reserve1.toString(),
    sqrt_price_x96: event.sqrtPriceX96.toString(),
    liquidity: event.liquidity.toString(),
    volume0: event.volume0.toString(),
    volume1: event.volume1.toString(),
    factory: event.factory,
    fee: event.fee,
  };
}

function fromRow(row: PoolEventRecord): ChainPoolEvent {
  return {
    chainId: row.chain_id,
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: Number(row.block_timestamp),
    transactionIndex: Number(row.transaction_index),
    logIndex: Number(row.log_index),
    kind: Number(row.kind) === kindCodes.v3 ? 'v3' : 'v2',
    pool: row.pool,
    token0: row.token0,
    token1: row.token1,
    reserve0: BigInt(row.reserve0),
    reserve1: BigInt(row.reserve1),
    sqrtPriceX96: BigInt(row.sqrt_price_x96),
    liquidity: BigInt(row.liquidity),
    volume0: BigInt(row.volume0),
    volume1: BigInt(row.volume1),
    factory: row.factory,
    fee: Number(row.fee),
  };
}

const columns = sql`chain_id, block_number, block_hash, toUnixTimestamp(block_timestamp) AS block_timestamp, transaction_index, log_index, kind, pool,
  token0, token1, reserve0, reserve1, sqrt_price_x96, liquidity, volume0, volume1, factory, fee`;

/** Position in the chain as one sortable number (a block has far fewer than a million logs). */
const position = sql`block_number * 1000000 + log_index`;

/** `rows`: shared with the process's other price stores; without it every insert is stored before it returns. */
export function createPoolEventStore(
  clickhouse: ClickHouse,
  rows: PriceRows = createPriceRows({ clickhouse, logger: createLogger('pool-event-store'), storeEveryMs: 0 }),
): PoolEventStore {
  const canonical = (chainId: string): SqlFragment => sql`chain_id = ${chainId} AND (chain_id, block_hash) NOT IN (${orphanedBlocks([chainId])})`;

  return {
    async storedKeys(chainId, events) {
      if (events.length === 0) return new Set();
      const hashes = new Set(events.map((event) => event.blockHash));
      const waiting = rows.waitingFor('pool_events', chainId).filter((row) => hashes.has(row.block_hash));
      const numbers = events.map((event) => event.blockNumber);
      const min = numbers.reduce((a, b) => (b < a ? b : a));
      const max = numbers.reduce((a, b) => (b > a ? b : a));
      const stored = await clickhouse.query<{ block_hash: string; log_index: number }>(sql`
        SELECT block_hash, log_index FROM pool_events
        WHERE chain_id = ${chainId} AND pool IN ${inList([...new Set(events.map((event) => event.pool))])}
          AND block_number >= ${min} AND block_number <= ${max}
          AND block_hash IN ${inList([...hashes])}`);
      return new Set([...stored, ...waiting].map((row) => `${row.block_hash}:${Number(row.log_index)}`));
    },

    async insert(events) {
      await rows.add('pool_events', events.map(toRow));
    },

    async orphanedAmong(chainId, blockHashes) {
      if (blockHashes.length === 0) return new Set();
      const rows = await clickhouse.query<{ block_hash: string }>(sql`
        SELECT block_hash FROM (${orphanedBlocks([chainId])}) WHERE block_hash IN ${inList([...new Set(blockHashes)])}`);
      return new Set(rows.map((row) => row.block_hash));
    },

    async latestStates(chainId, options = {}) {
      if (options.pools?.length === 0) return [];
      await rows.flush();
      const conditions = [canonical(chainId)];
      if (options.atMost !== undefined) conditions.push(sql`block_number <= ${options.atMost}`);
      if (options.pools) conditions.push(sql`pool IN ${inList(options.pools)}`);
      // The newest row per pool first, then its columns: argMax per column would need one per column.
      const latest = await clickhouse.query<PoolEventRecord>(sql`
        SELECT ${columns} FROM pool_events
        WHERE ${join(conditions, ' AND ')}
        ORDER BY pool, block_number DESC, log_index DESC
        LIMIT 1 BY pool`);
      return latest.map(fromRow);
    },

    async eventsAfter(chainId, after) {
      await rows.flush();
      const events = await clickhouse.query<PoolEventRecord>(sql`
        SELECT ${columns} FROM pool_events
        WHERE ${canonical(chainId)} AND block_number > ${after}
        ORDER BY block_number, log_index
        LIMIT 1 BY block_hash, log_index`);
      return events.map(fromRow);
    },

    async blocksAfter(chainId, after) {
      await rows.flush();
      const blocks = await clickhouse.query<{ block_number: string; block_hash: string; timestamp: number; pools: string[] }>(sql`
        SELECT block_number, block_hash, toUnixTimestamp(any(block_timestamp)) AS timestamp, groupUniqArray(pool) AS pools
        FROM pool_events
        WHERE ${canonical(chainId)} AND block_number > ${after}
        GROUP BY block_number, block_hash
        ORDER BY block_number`);
      return blocks.map((row) => ({ number: BigInt(row.block_number), hash: row.block_hash, timestamp: Number(row.timestamp), pools: row.pools }));
    },

    async head(chainId, atMost) {
      await rows.flush();
      const conditions = [canonical(chainId)];
      if (atMost !== undefined) conditions.push(sql`block_number <= ${atMost}`);
      const [row] = await clickhouse.query<{ block_number: string; block_hash: string; timestamp: number }>(sql`
        SELECT block_number, block_hash, toUnixTimestamp(block_timestamp) AS timestamp
        FROM pool_events WHERE ${join(conditions, ' AND ')}
        ORDER BY ${position} DESC LIMIT 1`);
      return row && { number: BigInt(row.block_number), hash: row.block_hash, timestamp: Number(row.timestamp) };
    },

    async recordRollback(rollback) {
      await rows.flush();
      await clickhouse.insert('block_states', orphanedBlockRows(rollback));
    },
  };
}
