import { canonicalWallet } from '@wallet-api/core/addresses';
import { status } from '@grpc/grpc-js';
import type { ChangeVersions } from '@wallet-api/core/cache';
import { GrpcError, registration, unavailable, type ServiceRegistration } from '@wallet-api/core/grpc';
import { RequestContext } from '@wallet-api/core/proto/common';
import {
  PnlService,
  type GetWalletPnlRequest,
  type PnlFigures as PnlFiguresMessage,
  type PnlServer,
  type WalletPnl as WalletPnlMessage,
} from '@wallet-api/core/proto/pnl';
import { LRUCache } from 'lru-cache';
import type { PnlResult, WalletPnl } from '../compute/wallet-pnl.js';
import type { PnlFigures } from '../fifo/pnl-figures.js';
import { TooManyTransactions } from '../history/history-reader.js';
import { BeyondMarkAllowance } from '../marks/marks.js';

export interface PnlServiceDeps {
  pnl: WalletPnl;
  /** The wallets' history tokens and the shared ones: a result is kept while none changed. */
  versions: Pick<ChangeVersions, 'current'>;
  /** How long a request waits for a computation before answering UNAVAILABLE (retry later). */
  waitMs: number;
  maxEntries?: number;
}

const toMessage = (figures: PnlFigures & { averageBuyPrice?: number; averageSellPrice?: number }): PnlFiguresMessage => ({
  averageBuyPrice: 0,
  averageSellPrice: 0,
  ...figures,
});

function toWalletPnl(result: PnlResult): WalletPnlMessage {
  return {
    figures: toMessage(result.figures),
    breakdownBy: result.breakdown?.by ?? '',
    breakdown: Object.fromEntries([...(result.breakdown?.entries ?? [])].map(([key, figures]) => [key, toMessage(figures)])),
    excludedFungibleIds: result.excludedFungibleIds,
    excludedFungibleImplementations: result.excludedFungibleImplementations,
  };
}

const timedOut = Symbol('timed out');

/**
 * GetWalletPnl with one computation per request shape and version of the wallets' data: the
 * first request for a wallet starts it and waits `waitMs` for it (then UNAVAILABLE, spec 4.2
 * rule 5: the gateway answers 503 with Retry-After); requests meanwhile join it, and later ones
 * get its result until the wallets' history, a rollback or a price move changes their tokens.
 */
export function pnlService(deps: PnlServiceDeps): ServiceRegistration {
  const results = new LRUCache<string, Promise<WalletPnlMessage>>({ max: deps.maxEntries ?? 10_000 });

  async function getWalletPnl(request: GetWalletPnlRequest): Promise<WalletPnlMessage> {
    const addresses = [...new Set(request.addresses.map(canonicalWallet))].sort();
    const versions = await Promise.all(addresses.map((address) => deps.versions.current(address, ['history'])));
    const context = request.context ?? RequestContext.fromPartial({});
    const key = JSON.stringify([
      addresses,
      versions,
      [...request.chainIds].sort(),
      request.currency,
      context.network,
      request.fungibleIds,
      request.fungibleImplementations,
      request.sinceMs,
      request.tillMs,
    ]);
    let computing = results.get(key);
    if (!computing) {
      computing = deps.pnl
        .compute({
          context,
          addresses,
          chainIds: request.chainIds,
          currency: request.currency || 'usd',
          fungibleIds: request.fungibleIds,
          fungibleImplementations: request.fungibleImplementations,
          ...(request.sinceMs === undefined ? {} : { since: Math.ceil(Number(request.sinceMs) / 1000) }),
          ...(request.tillMs === undefined ? {} : { till: Math.floor(Number(request.tillMs) / 1000) }),
        })
        .then(toWalletPnl);
      results.set(key, computing);
      // A failure is not kept (the next request computes again), but a refusal of the wallet is: rule 4's 422 once detected.
      computing.catch((error: unknown) => !(error instanceof TooManyTransactions) && results.get(key) === computing && results.delete(key));
    }
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([computing, new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), deps.waitMs)))])
      .catch((error: unknown) => {
        if (error instanceof TooManyTransactions)
          throw new GrpcError(
            status.FAILED_PRECONDITION,
            `the wallet has more than ${error.limit.toLocaleString('en-US')} transactions, beyond what profit and loss is computed for`,
          );
        if (error instanceof BeyondMarkAllowance) throw new GrpcError(status.FAILED_PRECONDITION, error.message);
        throw error;
      })
      .finally(() => clearTimeout(timer));
    if (outcome === timedOut) throw unavailable("the wallet's profit and loss is being computed; retry shortly");
    return outcome;
  }

  return registration<PnlServer>('walletapi.pnl.Pnl', PnlService, { getWalletPnl: (request) => getWalletPnl(request) });
}
