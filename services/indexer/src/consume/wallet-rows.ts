import type { WalletTransaction } from '@wallet-api/core/proto/events';
import type { TokenFacts } from '@wallet-api/core/transactions';
import { walletView } from '@wallet-api/core/transactions';
import type { WalletTransactionRow } from '../store/wallet-history-store.js';

/**
 * One row per wallet the transaction touches. `tokenAddresses` are the assets the transaction
 * moves or approves for that wallet, so a search by token contract or symbol finds the
 * transactions where the wallet's own holdings were involved, not every token the call touched.
 */
export function walletRows(transaction: WalletTransaction, tokens: TokenFacts): WalletTransactionRow[] {
  return transaction.wallets.map((wallet) => {
    const view = walletView(transaction, wallet, tokens);
    const tokenAddresses = new Set<string>();
    for (const transfer of view.transfers) tokenAddresses.add(transfer.asset?.address ?? '');
    for (const approval of transaction.approvals) if (approval.owner === wallet) tokenAddresses.add(approval.asset?.address ?? '');
    for (const approval of transaction.collectionApprovals) if (approval.owner === wallet) tokenAddresses.add(approval.collection);
    return {
      address: wallet,
      operationType: view.operationType,
      isTrash: view.isTrash,
      assetTypes: [...view.assetTypes],
      tokenAddresses: [...tokenAddresses].sort(),
      counterparties: [...view.counterparties],
    };
  });
}
