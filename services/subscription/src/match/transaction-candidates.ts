import type { WalletTransaction } from '@wallet-api/core/proto/events';
import type { Network, SubscriptionEntry } from './subscription-entry.js';
import type { SubscriptionIndex } from './subscription-index.js';

/** A subscribed wallet a transaction may be delivered for, before filters. */
export interface Candidate {
  subscription: SubscriptionEntry;
  wallet: string;
  /**
   * A failed transaction reaches a wallet that did not send it only when the wallet is a
   * smart-contract wallet (spec 6, rule 2): the caller classifies it before delivering.
   */
  needsSmartWallet: boolean;
}

/** Chains of a network that pass the subscription gate (supports_transactions and supports_positions). */
export type EligibleChains = (network: Network) => ReadonlySet<string>;

function watchesChain(subscription: SubscriptionEntry, chainId: string, eligibleChains: EligibleChains): boolean {
  return subscription.chainIds.length > 0 ? subscription.chainIds.includes(chainId) : eligibleChains(subscription.network).has(chainId);
}

/** Every enabled subscription watching one of the transaction's wallets on its chain, once per (subscription, wallet). */
export function transactionCandidates(tx: WalletTransaction, index: SubscriptionIndex, eligibleChains: EligibleChains): Candidate[] {
  const candidates: Candidate[] = [];
  for (const wallet of new Set(tx.wallets)) {
    for (const subscription of index.watching(wallet)) {
      if (!subscription.enabled || !watchesChain(subscription, tx.chainId, eligibleChains)) continue;
      candidates.push({ subscription, wallet, needsSmartWallet: tx.failed && wallet !== tx.from });
    }
  }
  return candidates;
}
