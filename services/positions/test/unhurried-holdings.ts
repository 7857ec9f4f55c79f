import type { ChangeVersions } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainDirectory } from '../src/chain/chain-directory.js';
import type { PositionsMetrics } from '../src/metrics/positions-metrics.js';
import type { ProtocolDirectory } from '../src/protocols/protocol-directory.js';
import { createProtocolHoldings, heldTokensFrom, type ProtocolHoldingsSource } from '../src/protocols/protocol-holdings.js';
import type { BalanceStore } from '../src/store/balance-store.js';
import type { SnapshotStore } from '../src/store/snapshot-store.js';

/**
 * Protocol holdings as the service reads them, with the patience of a loaded test machine: chain
 * reads may take a minute, and a snapshot is re-read for its pools and touches, never for its age.
 */
export function createUnhurriedHoldings(deps: {
  chains: ChainDirectory;
  protocols: ProtocolDirectory;
  snapshots: SnapshotStore;
  balances: Pick<BalanceStore, 'walletBalances'>;
  versions: ChangeVersions;
  logger: Logger;
  metrics: PositionsMetrics;
}): ProtocolHoldingsSource {
  return createProtocolHoldings({
    ...deps,
    syncTimeoutMs: 60_000,
    firstReadTimeoutMs: 60_000,
    maxSnapshotAgeMs: 60 * 60_000,
    refreshConcurrency: 4,
    heldTokensOf: heldTokensFrom(deps.balances),
  });
}
