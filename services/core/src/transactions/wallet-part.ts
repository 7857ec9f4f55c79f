import type { WalletTransaction } from '../generated/proto/events.js';

/**
 * The part of a decoded transaction that one wallet's reading needs: every field and every act,
 * but only the transfers and approvals the wallet is a side of. walletView, toTransactionRecord
 * and PnL read the same from it as from the whole transaction. The indexer stores it as a wallet
 * row's body, so a transaction paying 1,000 wallets is stored as 1,000 small bodies instead of
 * 1,000 copies of every wallet's transfers (a 50-wallet payout was 49 KB per row).
 */
export function walletPart(tx: WalletTransaction, wallet: string): WalletTransaction {
  return {
    ...tx,
    transfers: tx.transfers.filter((transfer) => transfer.sender === wallet || transfer.recipient === wallet),
    approvals: tx.approvals.filter((approval) => approval.owner === wallet || approval.spender === wallet),
    collectionApprovals: tx.collectionApprovals.filter((approval) => approval.owner === wallet || approval.operator === wallet),
    wallets: tx.wallets.filter((entry) => entry === wallet),
  };
}
