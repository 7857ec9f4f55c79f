import { createVersionedCache, unpricedVersion, type ChangeVersions, type VersionedCache } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import type { ListWalletTransactionsResponse } from '@wallet-api/core/proto/indexer';
import { transactionPageSize } from '../routes/wallet-transactions.js';
import { gatewayCacheObserver } from './response-cache.js';

/**
 * The indexer's pages of a wallet's transactions, kept under the wallet's unpriced tokens: a price
 * move recomputes the answers that show them without reading the transactions again. Counted in
 * the answer-cache metrics under the route `transactions page`.
 */
export function createTransactionPages(options: {
  versions: Pick<ChangeVersions, 'walletTokens'>;
  logger: Logger;
  maxBytes: number;
  maxAgeMs: number;
}): VersionedCache<ListWalletTransactionsResponse> {
  return createVersionedCache<ListWalletTransactionsResponse>({
    tokens: (wallet, data) => options.versions.walletTokens(wallet, data),
    versionOf: unpricedVersion,
    sizeOf: transactionPageSize,
    logger: options.logger,
    maxBytes: options.maxBytes,
    maxAgeMs: options.maxAgeMs,
    observer: gatewayCacheObserver,
  });
}
