import type { ChainPoolEvent, PoolBlock } from './chain-pool-event.js';
import type { PriceBook } from './price-book.js';
import type { PoolState } from './pool-quote.js';

export interface BlockRef {
  number: bigint;
  hash: string;
  /** Unix seconds. */
  timestamp: number;
}

/** A folded block and the pools its events touched: what a rollback of it must reload. */
export interface FoldedBlock extends BlockRef {
  pools: ReadonlySet<string>;
}

/** One chain's prices as of `head`, and the recent blocks they were folded from. */
export interface ChainFold {
  book: PriceBook;
  head: BlockRef | undefined;
  /** Folded blocks in order, the last `recentDepth` heights. */
  recent: FoldedBlock[];
  /** Folded blocks at or below this height may be missing from `recent`. */
  recentFloor: bigint;
}

/** A price change (or, on a day's first block, every price); `price` undefined: no longer priced. */
export interface PriceRow {
  token: string;
  day: number;
  timestamp: number;
  blockNumber: bigint;
  blockHash: string;
  price: number | undefined;
  /** USD value of the token in the pools behind the price: its weight against the other chains' prices. */
  depthUsd: number;
}

/** The block that wrote a day's full price set. */
export interface DayMark {
  day: number;
  timestamp: number;
  blockNumber: bigint;
  blockHash: string;
}

/** One token side of a swap in a trusted pool, valued at the token's price after the block. */
export interface VolumeRow {
  token: string;
  pool: string;
  timestamp: number;
  blockNumber: bigint;
  blockHash: string;
  logIndex: number;
  amount: number;
  valueUsd: number;
}

export interface FoldOutput {
  prices: PriceRow[];
  days: DayMark[];
  volumes: VolumeRow[];
}

/** Decimals of a trusted pool's tokens; pools without are not folded. */
export interface PoolMeta {
  decimals0: number;
  decimals1: number;
}

export interface FoldOptions {
  meta(event: ChainPoolEvent): PoolMeta | undefined;
  /** Keep only a minute's last change of each token (the history's resolution); off when refolding. */
  collapse: boolean;
  /** By block hash: tokens whose stored rows at that block must be written again (refold after a rollback). */
  rewrite?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Heights kept in `recent`. */
  recentDepth: bigint;
}

export const daySeconds = 86_400;
export const dayOf = (timestamp: number) => Math.floor(timestamp / daySeconds);
const minuteOf = (timestamp: number) => Math.floor(timestamp / 60);

export function poolState(event: ChainPoolEvent, meta: PoolMeta): PoolState {
  return {
    kind: event.kind,
    pool: event.pool,
    token0: event.token0,
    token1: event.token1,
    decimals0: meta.decimals0,
    decimals1: meta.decimals1,
    reserve0: event.reserve0,
    reserve1: event.reserve1,
    sqrtPriceX96: event.sqrtPriceX96,
  };
}

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/**
 * Applies blocks (in chain order, after `fold.head`) to the fold: each pool takes its event's
 * state, prices that depend on changed pools are recomputed at the block's end, and the rows to
 * store come out.
 */
export function foldBlocks(fold: ChainFold, blocks: readonly PoolBlock[], options: FoldOptions): FoldOutput {
  const out: FoldOutput = { prices: [], days: [], volumes: [] };
  const pending = new Map<string, PriceRow>();
  const flush = (token: string) => {
    const row = pending.get(token);
    if (row) out.prices.push(row);
    pending.delete(token);
  };
  const emit = (row: PriceRow) => {
    if (!options.collapse) {
      out.prices.push(row);
      return;
    }
    const earlier = pending.get(row.token);
    if (earlier && minuteOf(earlier.timestamp) !== minuteOf(row.timestamp)) out.prices.push(earlier);
    pending.set(row.token, row);
  };

  for (const block of blocks) {
    const changed = new Set<string>();
    const metas = block.events.map((event) => options.meta(event));
    block.events.forEach((event, index) => {
      const meta = metas[index];
      if (!meta) return;
      fold.book.setPool(poolState(event, meta));
      changed.add(event.pool);
    });
    const changes = fold.book.reprice(changed);
    const day = dayOf(block.timestamp);
    const row = (token: string, price: number | undefined): PriceRow => ({
      token,
      day,
      timestamp: block.timestamp,
      blockNumber: block.number,
      blockHash: block.hash,
      price,
      depthUsd: price === undefined ? 0 : fold.book.depthUsd(token),
    });
    const rewrite = options.rewrite?.get(block.hash) ?? new Set<string>();

    if (!fold.head || dayOf(fold.head.timestamp) !== day) {
      // The day's first block writes every price, so a lookup never needs an earlier day.
      const written = new Set<string>();
      for (const [token, price] of fold.book.prices()) {
        flush(token);
        out.prices.push(row(token, price));
        written.add(token);
      }
      for (const token of [...changes.keys(), ...rewrite]) {
        if (written.has(token) || fold.book.price(token) !== undefined) continue;
        flush(token);
        out.prices.push(row(token, undefined));
        written.add(token);
      }
      out.days.push({ day, timestamp: block.timestamp, blockNumber: block.number, blockHash: block.hash });
    } else {
      const tokens = new Map(changes);
      for (const token of rewrite) if (!tokens.has(token)) tokens.set(token, fold.book.price(token));
      for (const [token, price] of tokens) emit(row(token, price));
    }

    block.events.forEach((event, index) => {
      const meta = metas[index];
      if (!meta) return;
      const sides = [
        { token: event.token0, volume: event.volume0, decimals: meta.decimals0 },
        { token: event.token1, volume: event.volume1, decimals: meta.decimals1 },
      ];
      for (const side of sides) {
        const price = fold.book.price(side.token);
        if (side.volume === 0n || price === undefined) continue;
        const amount = whole(side.volume, side.decimals);
        out.volumes.push({
          token: side.token,
          pool: event.pool,
          timestamp: block.timestamp,
          blockNumber: block.number,
          blockHash: block.hash,
          logIndex: event.logIndex,
          amount,
          valueUsd: amount * price,
        });
      }
    });

    fold.head = { number: block.number, hash: block.hash, timestamp: block.timestamp };
    const pools = new Set(block.events.map((event) => event.pool));
    const last = fold.recent.at(-1);
    // A block whose events came in two batches is one block.
    if (last?.hash === block.hash) fold.recent[fold.recent.length - 1] = { ...last, pools: new Set([...last.pools, ...pools]) };
    else fold.recent.push({ ...fold.head, pools });
    while (fold.recent.length > 0 && fold.recent[0]!.number <= block.number - options.recentDepth) {
      fold.recentFloor = fold.recent.shift()!.number;
    }
  }
  for (const token of [...pending.keys()]) flush(token);
  return out;
}
