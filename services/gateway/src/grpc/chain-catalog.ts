import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { Chain, ReferenceDataClient } from '@wallet-api/core/proto/reference_data';

export interface ChainCatalog {
  /** reference-data's chains of the context's network (ListChains). */
  list(context: RequestContext): Promise<Chain[]>;
}

/**
 * ListChains answers held for `ttlMs` per network: reference-data's chains come from its
 * configuration and change only when it restarts with another, while every wallet request and the
 * chains endpoint need them. A failed call is not kept; concurrent callers share one call.
 */
export function createChainCatalog(referenceData: ReferenceDataClient, options: { ttlMs: number }): ChainCatalog {
  const held = new Map<number, { chains: Promise<Chain[]>; expiresAt: number }>();
  return {
    list(context) {
      const now = Date.now();
      const entry = held.get(context.network);
      if (entry && entry.expiresAt > now) return entry.chains;
      const chains = unary(referenceData, referenceData.listChains, { context }, { name: 'ReferenceData/ListChains' }).then((answer) => answer.chains);
      held.set(context.network, { chains, expiresAt: options.ttlMs > 0 ? now + options.ttlMs : now });
      chains.catch(() => {
        if (held.get(context.network)?.chains === chains) held.delete(context.network);
      });
      return chains;
    },
  };
}
