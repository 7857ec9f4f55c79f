import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import type { SnapshotSource } from '../snapshots/snapshot-source.js';
import type { UnsignedAction, UnsignedActionStore } from '../store/unsigned-action-store.js';

/**
 * How an open action is listed in meta.unsigned: its stored record as of now, unmined (block 0),
 * dated at its creation (mined_at, in seconds as the field is), under its action id.
 */
export function unsignedActionRecord(action: UnsignedAction): TransactionRecord {
  const createdMs = action.createdAt.getTime();
  return {
    ...action.record,
    cursor: { minedAtMs: String(createdMs), blockNumber: '0', transactionIndex: 0, chainId: action.chainId },
    blockNumber: '0',
    blockHash: '',
    minedAt: String(Math.floor(createdMs / 1000)),
    actionId: action.id,
    availableAtMs: String(action.availableAt.getTime()),
    expiresAtMs: String(action.expiresAt.getTime()),
  };
}

/** The organization's open (not dismissed, not expired) actions of a wallet: ListWalletTransactions' `unsigned`. */
export function createUnsignedSnapshotSource(store: UnsignedActionStore, clock: () => Date = () => new Date()): SnapshotSource {
  return {
    async list({ organizationId, address, chainIds }) {
      if (chainIds.length === 0) return [];
      const actions = await store.listOpen({ organizationId, wallet: address, chainIds }, clock());
      return actions.map(unsignedActionRecord);
    },
  };
}
