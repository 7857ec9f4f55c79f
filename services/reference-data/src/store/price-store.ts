import { inList, orphanedBlocks, sql, type ClickHouse, type SqlFragment } from '@wallet-api/core/clickhouse';
import { createLogger } from '@wallet-api/core/logger';
import type { DayMark, PriceRow, VolumeRow } from '../prices/price-fold.js';
import { createPriceRows, priceDayKey, type PriceRows, type TokenPriceRecord } from './price-rows.js';

/** A token on a chain at a time (unix seconds). */
export interface PriceLookup {
  chainId: string;
  token: string;
  timestamp: number;
}

/** A chain's day mark: the day (days since 1970) and the time of the block that wrote its prices. */
export interface DayMarkTime {
  chainId: string;
  day: number;
  timestamp: number;
}

/** A stored `token_prices` row; `price` undefined where the token lost its price. */
export interface PriceHistoryRow {
  chainId: string;
  token: string;
  day: number;
  timestamp: number;
  /** Block numbers and revisions (milliseconds) stay far below 2^53. */
  blockNumber: number;
  blockHash: string;
  revision: number;
  price: number | undefined;
  depthUsd: number;
}

/**
 * `token_prices`, `price_days` and `token_volumes`; every read leaves out orphaned blocks. Writes
 * go through PriceRows: the lookups add the rows still waiting to what they read, the refold's
 * read stores them first.
 */
export interface PriceStore {
  /** Writes one chain's fold output; `revision` orders rows written again for the same block. */
  write(chainId: string, rows: { prices: readonly PriceRow[]; days: readonly DayMark[]; volumes: readonly VolumeRow[] }): Promise<void>;
  /** By block hash, the tokens with rows at those blocks. */
  tokensWithRowsAt(chainId: string, blockHashes: readonly string[]): Promise<Map<string, Set<string>>>;
  /**
   * Every canonical day mark of the chains: the block of each day that wrote the day's full
   * price set (see migration 0006), so the price at time t lies in the day of the newest mark at
   * or before t.
   */
  dayMarks(chainIds: readonly string[]): Promise<DayMarkTime[]>;
  /**
   * The canonical price rows of each (chain, token, day), from `since` (unix seconds) on, every
   * revision: readers keep a key's highest. One query.
   */
  dayPrices(days: readonly { chainId: string; token: string; day: number; since: number }[]): Promise<PriceHistoryRow[]>;
  /** Every (chain, token) with a price row, orphaned ones included: what the priced-token set is built from. */
  pricedTokens(): Promise<{ chainId: string; token: string }[]>;
  /**
   * The canonical `token_volumes` rows of the chains at or after `since` (unix seconds), each swap
   * of a token once, at its highest revision.
   */
  volumeRows(chainIds: readonly string[], since: number): Promise<VolumeHistoryRow[]>;
}

/** What one swap moved of one token, valued in USD. */
export interface VolumeHistoryRow {
  chainId: string;
  token: string;
  timestamp: number;
  /** The swap's block hash and log index: the row's identity. */
  swap: string;
  valueUsd: number;
}

/** A chain's price of a token and the USD value of the token in the pools behind it. */
export interface StoredPrice {
  price: number;
  depthUsd: number;
}

/** DateTime's last second: the time of a lookup for the newest price. */
export const latestTimestamp = 4_294_967_295;

let lastRevision = 0;
/** Increases with every write, across restarts too (milliseconds of the wall clock, bumped on ties). */
function nextRevision(): number {
  lastRevision = Math.max(Date.now(), lastRevision + 1);
  return lastRevision;
}

const historyRow = (row: TokenPriceRecord): PriceHistoryRow => ({
  chainId: row.chain_id,
  token: row.token,
  day: Number(row.day),
  timestamp: Number(row.timestamp),
  blockNumber: Number(row.block_number),
  blockHash: row.block_hash,
  revision: Number(row.revision),
  price: Number(row.priced) === 1 ? Number(row.price) : undefined,
  depthUsd: Number(row.depth_usd),
});

/** `waiting`: shared with the process's other price stores; without it every write is stored before it returns. */
export function createPriceStore(
  clickhouse: ClickHouse,
  waiting: PriceRows = createPriceRows({ clickhouse, logger: createLogger('price-store'), storeEveryMs: 0 }),
): PriceStore {
  const notOrphaned = (chainIds: readonly string[]): SqlFragment => sql`(chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)})`;

  return {
    async write(chainId, rows) {
      const revision = nextRevision();
      // Each its own table of one round; the round stores prices and volumes before the day marks.
      await Promise.all([
        waiting.add(
          'token_prices',
          rows.prices.map((row) => ({
            chain_id: chainId,
            token: row.token,
            day: row.day,
            timestamp: row.timestamp,
            block_number: row.blockNumber.toString(),
            block_hash: row.blockHash,
            price: row.price ?? 0,
            priced: row.price === undefined ? 0 : 1,
            depth_usd: row.depthUsd,
            revision,
          })),
        ),
        waiting.add(
          'token_volumes',
          rows.volumes.map((row) => ({
            chain_id: chainId,
            token: row.token,
            timestamp: row.timestamp,
            block_number: row.blockNumber.toString(),
            block_hash: row.blockHash,
            log_index: row.logIndex,
            pool: row.pool,
            amount: row.amount,
            value_usd: row.valueUsd,
            revision,
          })),
        ),
      ]);
      // A day mark promises that its block's prices are stored: its table comes after theirs.
      await waiting.add(
        'price_days',
        rows.days.map((day) => ({
          chain_id: chainId,
          day: day.day,
          timestamp: day.timestamp,
          block_number: day.blockNumber.toString(),
          block_hash: day.blockHash,
          revision,
        })),
      );
    },

    async tokensWithRowsAt(chainId, blockHashes) {
      const found = new Map<string, Set<string>>();
      if (blockHashes.length === 0) return found;
      await waiting.flush();
      const rows = await clickhouse.query<{ block_hash: string; token: string }>(sql`
        SELECT DISTINCT block_hash, token FROM token_prices
        WHERE chain_id = ${chainId} AND block_hash IN ${inList([...new Set(blockHashes)])}`);
      for (const row of rows) {
        let tokens = found.get(row.block_hash);
        if (!tokens) found.set(row.block_hash, (tokens = new Set()));
        tokens.add(row.token);
      }
      return found;
    },

    async dayMarks(chainIds) {
      if (chainIds.length === 0) return [];
      const stored = await clickhouse.query<{ chain_id: string; day: number; timestamp: number }>(sql`
        SELECT DISTINCT chain_id, day, toUInt32(timestamp) AS timestamp FROM price_days
        WHERE chain_id IN ${inList(chainIds)} AND ${notOrphaned(chainIds)}`);
      const marks = new Map<string, DayMarkTime>();
      for (const row of [...stored, ...chainIds.flatMap((chainId) => waiting.waitingFor('price_days', chainId))]) {
        const mark = { chainId: row.chain_id, day: Number(row.day), timestamp: Number(row.timestamp) };
        marks.set(`${mark.chainId}:${mark.day}:${mark.timestamp}`, mark);
      }
      return [...marks.values()];
    },

    async dayPrices(days) {
      if (days.length === 0) return [];
      const chainIds = [...new Set(days.map((entry) => entry.chainId))];
      const since = Math.max(0, Math.floor(Math.min(...days.map((entry) => entry.since))));
      const stored = await clickhouse.query<TokenPriceRecord>(sql`
        SELECT chain_id, token, day, toUInt32(timestamp) AS timestamp, block_number, block_hash, revision, price, priced, depth_usd FROM token_prices
        WHERE chain_id IN ${inList(chainIds)} AND token IN ${inList([...new Set(days.map((entry) => entry.token))])}
          AND day IN ${inList([...new Set(days.map((entry) => entry.day))])}
          AND concat(chain_id, ':', token, ':', toString(day)) IN ${inList([...new Set(days.map((entry) => priceDayKey(entry.chainId, entry.token, entry.day)))])}
          AND timestamp >= toDateTime(${since}) AND ${notOrphaned(chainIds)}`);
      const unstored = days.flatMap((entry) =>
        waiting.waitingFor('token_prices', priceDayKey(entry.chainId, entry.token, entry.day)).filter((row) => row.timestamp >= since),
      );
      return [...stored, ...unstored].map(historyRow);
    },

    async pricedTokens() {
      const stored = await clickhouse.query<{ chain_id: string; token: string }>(sql`SELECT DISTINCT chain_id, token FROM token_prices`);
      const tokens = new Map(
        [...stored, ...waiting.waitingIn('token_prices')].map((row) => [`${row.chain_id}:${row.token}`, { chainId: row.chain_id, token: row.token }]),
      );
      return [...tokens.values()];
    },

    async volumeRows(chainIds, since) {
      if (chainIds.length === 0) return [];
      const from = Math.max(0, Math.floor(since));
      const stored = await clickhouse.query<{
        chain_id: string;
        token: string;
        block_hash: string;
        log_index: number;
        seconds: number;
        value: number;
        newest: string;
      }>(sql`
        SELECT chain_id, token, block_hash, log_index, any(toUnixTimestamp(timestamp)) AS seconds, argMax(value_usd, revision) AS value, max(revision) AS newest
        FROM token_volumes
        WHERE chain_id IN ${inList(chainIds)} AND timestamp >= toDateTime(${from}) AND ${notOrphaned(chainIds)}
        GROUP BY chain_id, token, block_hash, log_index`);
      // Each swap of a token once, at its highest revision, whether stored, waiting, or both.
      const swaps = new Map<string, { row: VolumeHistoryRow; revision: number }>();
      const keep = ({ revision, ...row }: VolumeHistoryRow & { revision: number }) => {
        const key = `${row.chainId}:${row.token}:${row.swap}`;
        const kept = swaps.get(key);
        if (!kept || kept.revision < revision) swaps.set(key, { row, revision });
      };
      for (const row of stored) {
        keep({
          chainId: row.chain_id,
          token: row.token,
          timestamp: Number(row.seconds),
          swap: `${row.block_hash}:${row.log_index}`,
          valueUsd: Number(row.value),
          revision: Number(row.newest),
        });
      }
      for (const row of chainIds.flatMap((chainId) => waiting.waitingFor('token_volumes', chainId))) {
        if (row.timestamp < from) continue;
        keep({
          chainId: row.chain_id,
          token: row.token,
          timestamp: row.timestamp,
          swap: `${row.block_hash}:${row.log_index}`,
          valueUsd: row.value_usd,
          revision: row.revision,
        });
      }
      return [...swaps.values()].map(({ row }) => row);
    },
  };
}
