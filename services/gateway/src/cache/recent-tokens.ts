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
  alongside<T>(key: string, lookup: { directory: FungibleDirectory; context: RequestContext; currency: string }, compute: () => Promise<T>, tokensOf: (result: T) => TokenRef[]): Promise<T>;
}

export function createRecentTokens(options: { maxWallets: number }): RecentTokens {
  const recent = new LRUCache<string, TokenRef[]>({ max: options.maxWallets });
  return {
    async alongside(key, { directory, context, currency }, compute, tokensOf) {
      const known = recent.get(key);
      // A failed lookup here is the caller's own lookup to fail or repeat; it only wanted a head start.
      const early = directory.keepsAnswers && known && known.length > 0 ? directory.lookup(context, currency, known).catch(() => undefined) : undefined;
      const result = await compute();
      recent.set(key, tokensOf(result));
      await early;
      return result;
    },
  };
}
