import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory } from '@wallet-api/core/reference-data';
import { toTransactionRecord, transactionContracts, transactionTokens } from '@wallet-api/core/transactions';
import { createTokenDirectory } from '../reference/token-directory.js';
import type { SnapshotSource } from '../snapshots/snapshot-source.js';
import type { PendingPool } from './pending-pool.js';

/** The id of a pending transaction's resource (spec 4.5 `meta.pending[].id`): stable while it is pending. */
export const pendingActionId = (chainId: string, hash: string) => `${chainId}:${hash}`;

/**
 * `meta.pending`: the pools' transactions that involve the wallet (every wallet the decoder names,
 * as for mined ones), as the wallet sees them, with their tokens' and dapps' reference data. Time
 * and cursor are the first-seen time; block number 0.
 */
export function createPendingSnapshotSource(pools: readonly PendingPool[], referenceData: ReferenceDataClient): SnapshotSource {
  const tokens = createTokenDirectory(referenceData);
  const dapps = createDappDirectory(referenceData);
  return {
    async list({ address, chainIds }) {
      const chains = new Set(chainIds);
      const found = pools
        .filter((pool) => chains.has(pool.chainId))
        .flatMap((pool) => pool.transactions())
        .filter(({ transaction }) => transaction.wallets.includes(address));
      if (found.length === 0) return [];
      const [tokenTable, dappTable] = await Promise.all([
        tokens.load(found.flatMap(({ transaction }) => transactionTokens(transaction))),
        dapps.load(found.flatMap(({ transaction }) => transactionContracts(transaction))),
      ]);
      return found.map(({ firstSeenMs, transaction }) => {
        const record = toTransactionRecord(transaction, address, { tokens: tokenTable, dapps: dappTable });
        return {
          ...record,
          cursor: { ...record.cursor!, minedAtMs: String(firstSeenMs) },
          actionId: pendingActionId(transaction.chainId, transaction.hash),
          availableAtMs: String(firstSeenMs),
        };
      });
    },
  };
}
