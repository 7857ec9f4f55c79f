import { createVersionedCache, unpricedVersion, type ChangeVersions, type VersionedCache } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { ListPositionsResponse, type Position } from '@wallet-api/core/proto/positions';
import { gatewayCacheObserver } from './response-cache.js';

/**
 * What a wallet holds, without what it is worth: the positions service's rows kept under the
 * wallet's unpriced tokens (its holdings token and the rollback token), their prices and values
 * taken out. A price move then costs an answer a multiplication by the gateway's price quotes,
 * not a call to the positions service. Counted in the answer-cache metrics under the route
 * `position rows`.
 */
export type PositionRows = VersionedCache<ListPositionsResponse>;

export function createPositionRows(options: {
  versions: Pick<ChangeVersions, 'walletTokens'>;
  logger: Logger;
  maxBytes: number;
  maxAgeMs: number;
}): PositionRows {
  return createVersionedCache<ListPositionsResponse>({
    tokens: (wallet, data) => options.versions.walletTokens(wallet, data),
    versionOf: unpricedVersion,
    // Decoded objects take a few times their encoded size.
    sizeOf: (rows) => 4 * ListPositionsResponse.encode(rows).finish().length,
    logger: options.logger,
    maxBytes: options.maxBytes,
    maxAgeMs: options.maxAgeMs,
    observer: gatewayCacheObserver,
  });
}

/** A row as it is kept: what it holds, with no price, value or change of the moment it was read. */
export function unvalued(position: Position): Position {
  const { price: _price, value: _value, changeAbsolute1d: _absolute, changePercent1d: _percent, ...held } = position;
  return held;
}
