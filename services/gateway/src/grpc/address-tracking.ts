import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { AddressClassification, ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { LRUCache } from 'lru-cache';

export interface AddressTracking {
  /** reference-data's ClassifyAddress of the address on the context's network. */
  classify(context: RequestContext, address: string): Promise<AddressClassification>;
}

/**
 * ClassifyAddress answers held for `ttlMs` per (network, address): every computed wallet answer
 * asks whether its address is tracked, and a price move recomputes many at once, while the verdict
 * (a contract's kind, an EOA's activity) changes far more slowly than prices do. Concurrent callers
 * share one call; a failed call is not kept.
 */
export function createAddressTracking(referenceData: ReferenceDataClient, options: { ttlMs: number; maxEntries?: number }): AddressTracking {
  const held = new LRUCache<string, Promise<AddressClassification>>({ max: options.maxEntries ?? 100_000, ttl: Math.max(1, options.ttlMs) });
  return {
    classify(context, address) {
      const key = `${context.network}|${address}`;
      const kept = options.ttlMs > 0 ? held.get(key) : undefined;
      if (kept) return kept;
      const asked = unary(referenceData, referenceData.classifyAddress, { context, address }, { name: 'ReferenceData/ClassifyAddress' });
      if (options.ttlMs > 0) held.set(key, asked);
      asked.catch(() => {
        if (held.get(key) === asked) held.delete(key);
      });
      return asked;
    },
  };
}
