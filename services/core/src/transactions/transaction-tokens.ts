import type { WalletTransaction } from '../generated/proto/events.js';

/** Every token a transaction shows: the native asset (its fee), moved and approved assets, approved collections. */
export function transactionTokens(transaction: WalletTransaction): { chainId: string; address: string }[] {
  const addresses = new Set<string>(['']);
  for (const transfer of transaction.transfers) addresses.add(transfer.asset?.address ?? '');
  for (const approval of transaction.approvals) addresses.add(approval.asset?.address ?? '');
  for (const approval of transaction.collectionApprovals) addresses.add(approval.collection);
  return [...addresses].map((address) => ({ chainId: transaction.chainId, address }));
}
