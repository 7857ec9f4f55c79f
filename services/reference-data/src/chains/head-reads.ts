import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';

/** Reads at the chains' heads for one call, under the change tokens in force when it began. */
export interface HeadScope {
  /**
   * `load`'s answer for `key`: kept from an earlier call or a price move's preparation under the
   * same tokens and younger than the age limit, else loaded (a failed load is not kept).
   */
  read<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/**
 * Contract reads at the chains' heads that answers hold as of the newest price move: LP reserves
 * and vault rates behind current prices, token supplies behind market data.
 */
export interface HeadReads {
  /** A scope under the tokens in force now (`tokens` when the caller has read them): one Redis read for all of a call's reads. */
  scope(tokens?: SharedChangeTokens): Promise<HeadScope>;
  /**
   * Loads again, under the tokens about to be in force, what calls read lately: the answers
   * computed after a price move then find every head read done.
   */
  prepare(tokens: SharedChangeTokens): Promise<void>;
}

export interface HeadReadsOptions {
  /** Replaced by the price consumer after every price move (prices) and rollback (everything). */
  versions: Pick<ChangeVersions, 'everythingAndPrices'>;
  /** A read is loaded again after this long whatever the tokens: mints, burns and vault yield are not price moves. */
  maxAgeMs?: number;
  /** Reads used within this long are loaded ahead of each price move. */
  preparedForMs?: number;
  /** Milliseconds since 1970. */
  now?: () => number;
}

interface Entry {
  value: Promise<unknown>;
  loadedAt: number;
}

/**
 * After a price move every valued answer in the gateway is computed again while the requests
 * arriving meanwhile wait, and each asked reference-data for current prices and market data that
 * read the chains at the head on every call: an LP token's reserves and supply, a vault's rate,
 * every implementation's total supply and the non-circulating holders' balances, tens of calls to
 * nodes that are busiest exactly then. The price consumer now has the reads used lately loaded
 * again before it announces the move, and the calls after it find them here.
 */
export function createHeadReads(options: HeadReadsOptions): HeadReads {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 15_000;
  const preparedForMs = options.preparedForMs ?? 60_000;
  /** Per `everything/prices` tokens, the reads loaded under them: those in force, and those prepared for the next. */
  const generations = new Map<string, Map<string, Entry>>();
  /** Each key's load and when a call last read it. */
  const used = new Map<string, { load: () => Promise<unknown>; at: number }>();
  let inForce = '';

  function loadUnder(tokens: string, key: string, load: () => Promise<unknown>): Entry {
    let generation = generations.get(tokens);
    if (!generation) generations.set(tokens, (generation = new Map()));
    const entry: Entry = { value: load(), loadedAt: now() };
    generation.set(key, entry);
    entry.value.catch(() => {
      if (generation.get(key) === entry) generation.delete(key);
    });
    return entry;
  }

  return {
    async scope(given) {
      const current = given ?? (await options.versions.everythingAndPrices());
      const tokens = `${current.everything}/${current.prices}`;
      inForce = tokens;
      return {
        read<T>(key: string, load: () => Promise<T>): Promise<T> {
          const at = now();
          used.set(key, { load, at });
          const kept = generations.get(tokens)?.get(key);
          if (kept && at - kept.loadedAt < maxAgeMs) return kept.value as Promise<T>;
          return loadUnder(tokens, key, load).value as Promise<T>;
        },
      };
    },
    async prepare(next) {
      const tokens = `${next.everything}/${next.prices}`;
      for (const kept of [...generations.keys()]) if (kept !== tokens && kept !== inForce) generations.delete(kept);
      const since = now() - preparedForMs;
      for (const [key, use] of used) if (use.at < since) used.delete(key);
      // A failed load is the next call's to make again; the move is not held up by it.
      await Promise.all([...used].map(([key, use]) => loadUnder(tokens, key, use.load).value.catch(() => undefined)));
    },
  };
}
