import type { Logger } from '@wallet-api/core/logger';
import { LRUCache } from 'lru-cache';
import type { PriceStore } from '../store/price-store.js';

type TokenKey = { chainId: string; token: string };

/**
 * The tokens that have price rows, kept in Redis beside the change tokens so that every replica
 * sees what any replica's price consumer wrote. Most tokens a wallet holds (airdrops, spam, fresh
 * deployments) never had a price: a lookup of them answers at once instead of reading ClickHouse.
 * The set only grows (rows a rollback hides stay in it), so it is a superset of the priced tokens
 * whenever it is complete.
 */
export interface PricedTokens {
  /** Records tokens about to get price rows; called before the rows are stored. */
  add(chainId: string, tokens: readonly string[]): Promise<void>;
  /**
   * Which of the tokens have never had a price row (`chain:token` keys); undefined while the set
   * is not known to be complete (being built, or lost with Redis), when every token may have some.
   */
  unpriced(tokens: readonly TokenKey[]): Promise<Set<string> | undefined>;
  /** Builds the set from the stored rows unless it is complete; one build at a time. */
  ensureComplete(): Promise<void>;
}

/** The Redis commands the set uses (the change tokens' connection answers them). */
export interface SetCommands {
  sadd(key: string, ...members: string[]): Promise<number>;
  smismember(key: string, ...members: string[]): Promise<number[]>;
}

export interface PricedTokensOptions {
  redis: SetCommands;
  keyPrefix?: string;
  store: Pick<PriceStore, 'pricedTokens'>;
  logger: Logger;
}

/**
 * A member no token key can equal, added last by a build: its absence means the set is not
 * complete. Kept inside the set rather than beside it, so that losing the set (a flushed or
 * evicted key) loses the mark with it.
 */
const completeMark = '*complete';
const tokenKey = ({ chainId, token }: TokenKey) => `${chainId}:${token}`;
const buildChunk = 1_000;

export function createPricedTokens(options: PricedTokensOptions): PricedTokens {
  const { redis, store, logger } = options;
  const key = `${options.keyPrefix ?? 'wallet-api'}:priced-tokens`;
  // A token once priced stays in the set: those seen are not asked again.
  const knownPriced = new LRUCache<string, true>({ max: 100_000 });
  let building: Promise<void> | undefined;

  async function build(): Promise<void> {
    const stored = await store.pricedTokens();
    for (let start = 0; start < stored.length; start += buildChunk) {
      await redis.sadd(key, ...stored.slice(start, start + buildChunk).map(tokenKey));
    }
    await redis.sadd(key, completeMark);
    logger.info({ tokens: stored.length }, 'priced tokens: set built from the stored prices');
  }

  function ensureComplete(): Promise<void> {
    building ??= (async () => {
      const [complete] = await redis.smismember(key, completeMark);
      if (complete !== 1) await build();
    })().finally(() => {
      building = undefined;
    });
    return building;
  }

  return {
    async add(chainId, tokens) {
      if (tokens.length === 0) return;
      await redis.sadd(key, ...new Set(tokens.map((token) => tokenKey({ chainId, token }))));
    },

    async unpriced(tokens) {
      const asked = [...new Set(tokens.map(tokenKey))].filter((member) => !knownPriced.has(member));
      if (asked.length === 0) return new Set();
      const [complete, ...flags] = await redis.smismember(key, completeMark, ...asked);
      if (complete !== 1) {
        ensureComplete().catch((error: unknown) => logger.warn({ err: error }, 'priced tokens: building the set failed; lookups read ClickHouse meanwhile'));
        return undefined;
      }
      const unpriced = new Set<string>();
      asked.forEach((member, index) => {
        if (flags[index] === 1) knownPriced.set(member, true);
        else unpriced.add(member);
      });
      return unpriced;
    },

    ensureComplete,
  };
}

/** The store, recording each write's tokens in the set before the rows are stored. */
export function recordingPricedTokens<S extends Pick<PriceStore, 'write'>>(store: S, priced: Pick<PricedTokens, 'add'>): S {
  return {
    ...store,
    async write(chainId, rows) {
      await priced.add(
        chainId,
        rows.prices.map((row) => row.token),
      );
      await store.write(chainId, rows);
    },
  };
}
