import { inList, orphanedBlocks, sql, type ClickHouse, type SqlFragment } from '@wallet-api/core/clickhouse';
import type { DayMark, PriceRow, VolumeRow } from '../prices/price-fold.js';

/** A token on a chain at a time (unix seconds). */
export interface PriceLookup {
  chainId: string;
  token: string;
  timestamp: number;
}

/** `token_prices`, `price_days` and `token_volumes`; every read leaves out orphaned blocks. */
export interface PriceStore {
  /** Writes one chain's fold output; `revision` orders rows written again for the same block. */
  write(chainId: string, rows: { prices: readonly PriceRow[]; days: readonly DayMark[]; volumes: readonly VolumeRow[] }): Promise<void>;
  /** By block hash, the tokens with rows at those blocks. */
  tokensWithRowsAt(chainId: string, blockHashes: readonly string[]): Promise<Map<string, Set<string>>>;
  /** The price of each lookup in USD (newest row at or before its time) and its depth, in lookup order; one query. */
  pricesAt(lookups: readonly PriceLookup[]): Promise<(StoredPrice | undefined)[]>;
  /** USD value swapped of each token after `since` (unix seconds), keyed `<chain>:<token>`. */
  volumesSince(tokens: readonly { chainId: string; token: string }[], since: number): Promise<Map<string, number>>;
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

export function createPriceStore(clickhouse: ClickHouse): PriceStore {
  const notOrphaned = (chainIds: readonly string[]): SqlFragment => sql`(chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)})`;

  return {
    async write(chainId, rows) {
      const revision = nextRevision();
      await Promise.all([
        clickhouse.insert(
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
        clickhouse.insert(
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
      // A day mark promises that its block's prices are stored, so it goes last.
      await clickhouse.insert(
        'price_days',
        rows.days.map((day) => ({ chain_id: chainId, day: day.day, timestamp: day.timestamp, block_number: day.blockNumber.toString(), block_hash: day.blockHash, revision })),
      );
    },

    async tokensWithRowsAt(chainId, blockHashes) {
      const found = new Map<string, Set<string>>();
      if (blockHashes.length === 0) return found;
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

    async pricesAt(lookups) {
      if (lookups.length === 0) return [];
      const chainIds = [...new Set(lookups.map((lookup) => lookup.chainId))];
      // Parallel arrays of plain literals: an array of tuples holding function calls takes
      // ClickHouse 18.16 seconds to analyse at a few hundred items, these take milliseconds.
      const chains = lookups.map((lookup) => lookup.chainId);
      const tokens = lookups.map((lookup) => lookup.token);
      const times = lookups.map((lookup) => Math.min(Math.max(0, Math.floor(lookup.timestamp)), latestTimestamp));
      // For each lookup, the day of the chain's newest day mark at or before its time: that day
      // holds the answer (see migration 0006).
      const floors = sql`
        SELECT i, chain_id, token, t, max(mark_day) AS day
        FROM (
          SELECT i, chains[i + 1] AS chain_id, tokens[i + 1] AS token, toDateTime(times[i + 1]) AS t
          FROM (SELECT ${chains} AS chains, ${tokens} AS tokens, ${times} AS times, arrayJoin(range(${lookups.length})) AS i)
        )
        ALL INNER JOIN (
          SELECT chain_id, day AS mark_day, timestamp AS mark_time FROM price_days
          WHERE chain_id IN ${inList(chainIds)} AND ${notOrphaned(chainIds)}
        ) USING chain_id
        WHERE mark_time <= t
        GROUP BY i, chain_id, token, t`;
      const rows = await clickhouse.query<{ i: number; price: number; priced: number; depth_usd: number }>(sql`
        SELECT i, argMax(price, (timestamp, block_number, revision)) AS price, argMax(priced, (timestamp, block_number, revision)) AS priced,
          argMax(depth_usd, (timestamp, block_number, revision)) AS depth_usd
        FROM (
          SELECT chain_id, token, day, timestamp, block_number, revision, price, priced, depth_usd FROM token_prices
          WHERE (chain_id, token, day) IN (SELECT chain_id, token, day FROM (${floors})) AND ${notOrphaned(chainIds)}
        )
        ALL INNER JOIN (${floors}) USING (chain_id, token, day)
        WHERE timestamp <= t
        GROUP BY i`);
      const prices: (StoredPrice | undefined)[] = lookups.map(() => undefined);
      for (const row of rows) if (Number(row.priced) === 1) prices[Number(row.i)] = { price: Number(row.price), depthUsd: Number(row.depth_usd) };
      return prices;
    },

    async volumesSince(tokens, since) {
      const volumes = new Map<string, number>();
      if (tokens.length === 0) return volumes;
      const chainIds = [...new Set(tokens.map((entry) => entry.chainId))];
      const rows = await clickhouse.query<{ chain_id: string; token: string; value: number }>(sql`
        SELECT chain_id, token, sum(value) AS value FROM (
          SELECT chain_id, token, argMax(value_usd, revision) AS value FROM token_volumes
          WHERE chain_id IN ${inList(chainIds)} AND token IN ${inList([...new Set(tokens.map((entry) => entry.token))])}
            AND concat(chain_id, ':', token) IN ${inList(tokens.map((entry) => `${entry.chainId}:${entry.token}`))}
            AND timestamp > toDateTime(${Math.max(0, Math.floor(since))}) AND ${notOrphaned(chainIds)}
          GROUP BY chain_id, token, block_hash, log_index
        )
        GROUP BY chain_id, token`);
      for (const row of rows) volumes.set(`${row.chain_id}:${row.token}`, Number(row.value));
      return volumes;
    },
  };
}
