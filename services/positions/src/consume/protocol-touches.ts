import { canonicalWallet } from '@wallet-api/core/addresses';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import type { ProtocolTouch } from '../store/snapshot-store.js';

/**
 * The wallets whose protocol positions a transaction may have changed: every wallet of a
 * successful transaction that calls, moves tokens of, or moves tokens to or from a protocol
 * contract (approvals alone change nothing).
 */
export function protocolTouches(transaction: WalletTransaction, contracts: ReadonlySet<string>): ProtocolTouch[] {
  if (transaction.failed || contracts.size === 0) return [];
  const addresses = [
    transaction.to,
    transaction.createdContract,
    ...transaction.acts.map((act) => act.contractAddress),
    ...transaction.transfers.flatMap((transfer) => [transfer.asset?.address ?? '', transfer.sender, transfer.recipient]),
  ];
  if (!addresses.some((address) => address !== '' && contracts.has(address.toLowerCase()))) return [];
  const blockNumber = BigInt(transaction.blockNumber);
  return transaction.wallets.map((wallet) => ({ chainId: transaction.chainId, wallet: canonicalWallet(wallet), blockNumber }));
}
