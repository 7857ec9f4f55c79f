import type { RequestContext } from '@wallet-api/core/proto/common';
import type { TokenRef } from '@wallet-api/core/proto/reference_data';
import type { FungibleDirectory } from '@wallet-api/core/resources';
import { LRUCache } from 'lru-cache';

/**
 * The tokens a wallet's last answer showed, so that the next computation asks the fungible
 * directory for them while the positions service computes, instead of after: a price move then
 * costs one round of reference-data calls rather than two in a row.
 */
export interface RecentTokens {
  /**
   * Runs `compute` while the directory looks up the tokens `key` showed last time, then remembers
   * the tokens the result shows. The lookup's answers land in the directory's own cache, where the
   * caller's lookup of the result's tokens finds them.
   */
  alongside<T>(key: string, lookup: DirectoryLookup, compute: () => Promise<T>, tokensOf: (result: T) => TokenRef[]): Promise<T>;
  /**
   * Starts the directory's lookup of the tokens `key` showed last time; settles (never rejects)
   * once its answers are in the directory, at once when there is nothing to look up.
   */
  lookAhead(key: string, lookup: DirectoryLookup): Promise<void>;
  /** Remembers the tokens an answer for `key` showed, for the next lookAhead. */
  remember(key: string, tokens: TokenRef[]): void;
}

/** `generation`: the directory's, when the caller read it already. */
type DirectoryLookup = { directory: FungibleDirectory; context: RequestContext; currency: string; generation?: string };

export function createRecentTokens(options: { maxWallets: number }): RecentTokens {
  const recent = new LRUCache<string, TokenRef[]>({ max: options.maxWallets });
  const tokens: RecentTokens = {
    async lookAhead(key, { directory, context, currency, generation }) {
      const known = recent.get(key);
      // A failed lookup here is the caller's own lookup to fail or repeat; it only wanted a head start.
      if (directory.keepsAnswers && known && known.length > 0) await directory.lookup(context, currency, known, generation).catch(() => undefined);
    },
    remember(key, shown) {
      recent.set(key, shown);
    },
    async alongside(key, lookup, compute, tokensOf) {
      const early = tokens.lookAhead(key, lookup);
      const result = await compute();
      tokens.remember(key, tokensOf(result));
      await early;
      return result;
    },
  };
  return tokens;
}
