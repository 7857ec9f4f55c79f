import { status } from '@grpc/grpc-js';
import { unary } from '../grpc/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { ReferenceDataClient, TokenInfo } from '../generated/proto/reference_data.js';
import { createExpiringCache, type CacheOptions } from './expiring-cache.js';

/** Reference data of the tokens one load named. */
export interface TokenTable {
  /** `address` '' is the chain's native asset; undefined when reference data was not asked or refused the chain. */
  info(chainId: string, address: string): TokenInfo | undefined;
}

export interface TokenDirectory {
  /** One GetTokens call for the tokens not cached yet; none when all are. */
  load(tokens: readonly { chainId: string; address: string }[], context?: RequestContext): Promise<TokenTable>;
}

const key = (chainId: string, address: string) => `${chainId}:${address}`;

/**
 * Token metadata rarely changes but spam and verified marks can, so entries expire (by default
 * after ten minutes) instead of living for the whole process. A Solana ScaledUiAmount token's
 * multiplier changes whenever its authority updates it, so its entry expires after `scaledTtlMs`
 * (default 15 s, reference-data's own).
 */
export function createTokenDirectory(referenceData: ReferenceDataClient, options: Partial<CacheOptions> & { scaledTtlMs?: number } = {}): TokenDirectory {
  const { scaledTtlMs = 15_000, ...cacheOptions } = options;
  const cache = createExpiringCache<TokenInfo>(cacheOptions);
  return {
    async load(tokens, context) {
      const found = new Map<string, TokenInfo>();
      const missing = new Map<string, { chainId: string; address: string }>();
      for (const token of tokens) {
        const id = key(token.chainId, token.address);
        const cached = cache.get(id);
        if (cached) found.set(id, cached);
        else missing.set(id, { chainId: token.chainId, address: token.address });
      }
      if (missing.size > 0) {
        const response = await unary(
          referenceData,
          referenceData.getTokens,
          { context, tokens: [...missing.values()] },
          { name: 'ReferenceData/GetTokens' },
        ).catch((error: { code?: number }) => {
          // A chain reference data does not list (a message of a chain since removed from the
          // configuration) would otherwise stop its partition forever: such tokens stay unknown.
          if (error.code === status.INVALID_ARGUMENT) return { tokens: [] as TokenInfo[] };
          throw error;
        });
        for (const info of response.tokens) {
          const id = key(info.chainId, info.address);
          cache.set(id, info, info.scaledUiAmount ? scaledTtlMs : undefined);
          found.set(id, info);
        }
      }
      return { info: (chainId, address) => found.get(key(chainId, address)) };
    },
  };
}
