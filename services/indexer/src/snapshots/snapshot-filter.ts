import { AssetKind, type Asset } from '@wallet-api/core/proto/events';
import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { zeroAddress } from '@wallet-api/core/transactions';
import type { WalletTransactionRecord } from '../store/history-rows.js';
import { matchesFilter } from '../store/waiting-page.js';
import type { WalletTransactionFilter } from '../store/wallet-transaction-query.js';

const isNft = (asset: Asset | undefined) => asset?.kind === AssetKind.ASSET_KIND_ERC721 || asset?.kind === AssetKind.ASSET_KIND_ERC1155;

/**
 * A snapshot record (pending or unsigned, already the wallet's view) as the `wallet_transactions`
 * row the writer would store for it (consume/wallet-rows.ts): the same asset types, token
 * addresses and counterparties, so the page query's rules (store/waiting-page.ts) judge it.
 */
export function snapshotRow(record: TransactionRecord): WalletTransactionRecord {
  const wallet = record.address;
  const tokenAddresses = new Set<string>(record.transfers.map((transfer) => transfer.token?.asset?.address ?? ''));
  const counterparties = new Set<string>(record.transfers.map((transfer) => (transfer.sender === wallet ? transfer.recipient : transfer.sender)));
  for (const approval of record.approvals) {
    if (approval.owner !== wallet) continue;
    tokenAddresses.add(approval.token?.asset?.address ?? '');
    counterparties.add(approval.spender);
  }
  // A record keeps the collection approvals the wallet owns or operates; the owned ones are those it does not operate.
  for (const approval of record.collectionApprovals) {
    if (approval.operator === wallet) continue;
    tokenAddresses.add(approval.collection?.asset?.address ?? '');
    counterparties.add(approval.operator);
  }
  if (record.sentFrom === wallet && record.sentTo !== '') counterparties.add(record.sentTo);
  counterparties.delete(wallet);
  counterparties.delete(zeroAddress);
  const kinds = new Set(record.transfers.map((transfer) => (isNft(transfer.token?.asset) ? 'nft' : 'fungible')));
  return {
    chain_id: record.chainId,
    address: wallet,
    block_number: record.blockNumber,
    block_hash: record.blockHash,
    block_timestamp: Number(record.minedAt),
    transaction_index: record.cursor?.transactionIndex ?? 0,
    hash: record.hash,
    operation_type: record.operationType,
    is_trash: record.isTrash ? 1 : 0,
    asset_types: (['fungible', 'nft'] as const).filter((type) => kinds.has(type)),
    token_addresses: [...tokenAddresses].sort(),
    counterparties: [...counterparties].sort(),
    body: '',
    legs: '',
  };
}

/**
 * The snapshot records a list request shows (spec 4.5): every filter of the indexed list, time
 * filters on `mined_at` (first seen or created); the cursor and the page size do not apply.
 * Newest first.
 */
export function filterSnapshots(records: readonly TransactionRecord[], filter: Omit<WalletTransactionFilter, 'after' | 'limit'>): TransactionRecord[] {
  const unpaged: WalletTransactionFilter = { ...filter, limit: Number.MAX_SAFE_INTEGER };
  return records
    .filter((record) => matchesFilter(snapshotRow(record), unpaged))
    .sort((a, b) => {
      const left = BigInt(a.cursor?.minedAtMs ?? '0');
      const right = BigInt(b.cursor?.minedAtMs ?? '0');
      return left === right ? a.actionId.localeCompare(b.actionId) : left > right ? -1 : 1;
    });
}
