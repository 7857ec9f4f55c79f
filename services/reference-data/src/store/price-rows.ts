import { createWriteBehind, type ClickHouse, type WriteBehind } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';

/** A `token_prices` row as inserted. */
export type TokenPriceRecord = {
  chain_id: string;
  token: string;
  day: number;
  timestamp: number;
  block_number: string;
  block_hash: string;
  price: number;
  priced: number;
  depth_usd: number;
  revision: number;
};

/** A `token_volumes` row as inserted. */
export type TokenVolumeRecord = {
  chain_id: string;
  token: string;
  timestamp: number;
  block_number: string;
  block_hash: string;
  log_index: number;
  pool: string;
  amount: number;
  value_usd: number;
  revision: number;
};

/** A `price_days` row as inserted. */
export type PriceDayRecord = {
  chain_id: string;
  day: number;
  timestamp: number;
  block_number: string;
  block_hash: string;
  revision: number;
};

/** A `pool_events` row as inserted (and as read, `block_timestamp` in unix seconds). */
export type PoolEventRecord = {
  chain_id: string;
  block_number: string;
  block_hash: string;
  block_timestamp: number;
  transaction_index: number;
  log_index: number;
  kind: number;
  pool: string;
  token0: string;
  token1: string;
  reserve0: string;
  reserve1: string;
  sqrt_price_x96: string;
  liquidity: string;
  volume0: string;
  volume1: string;
  factory: string;
  fee: number;
};

/**
 * In the order each round stores them: a day mark promises its block's prices, and a stored pool
 * event promises the prices folded from it (the fold skips events already stored).
 */
export type PriceTables = {
  token_prices: TokenPriceRecord;
  token_volumes: TokenVolumeRecord;
  price_days: PriceDayRecord;
  pool_events: PoolEventRecord;
};

/** Rows of the price tables not stored yet, by the keys the stores read them with. */
export type PriceRows = WriteBehind<PriceTables>;

export const priceDayKey = (chainId: string, token: string, day: number) => `${chainId}:${token}:${day}`;

export interface PriceRowsOptions {
  clickhouse: Pick<ClickHouse, 'insert'>;
  logger: Logger;
  /** 0: every row is stored before its write returns. */
  storeEveryMs: number;
}

/**
 * What the fold writes and the lookups of the same process read before it is stored: ClickHouse
 * 18.16 rewrites a partition's youngest part (up to 5 MB) with every few new parts, so the price
 * tables, stored every few seconds, had their current month rewritten whole again and again. Lookups on the request path
 * (day marks and prices, volumes, stored event keys) add the waiting rows to what they read; the
 * rare reads of a restart or a refold, and every rollback, store what waits first.
 */
export function createPriceRows(options: PriceRowsOptions): PriceRows {
  return createWriteBehind<PriceTables>({
    clickhouse: options.clickhouse,
    logger: options.logger,
    tables: ['token_prices', 'token_volumes', 'price_days', 'pool_events'],
    keys: {
      token_prices: (row) => priceDayKey(row.chain_id, row.token, row.day),
      token_volumes: (row) => row.chain_id,
      price_days: (row) => row.chain_id,
      pool_events: (row) => row.chain_id,
    },
    storeEveryMs: options.storeEveryMs,
  });
}
