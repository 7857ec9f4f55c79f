import type { BalanceChange, WalletTransaction } from '@wallet-api/core/proto/events';
import type { BlockBundle } from '../fetch/block-bundle.js';
import { balanceChangesOf } from './balance-changes.js';
import { decodeTransaction, toWalletTransaction, type BlockContext } from './decode-transaction.js';

export interface DecodedBlock {
  transactions: WalletTransaction[];
  balanceChanges: BalanceChange[];
}

/** Every transaction of a block with the wallets it touches, and its balance changes, in block order. */
export function decodeBlock(bundle: BlockBundle): DecodedBlock {
  const block: BlockContext = {
    chainId: bundle.chainId,
    number: bundle.block.number,
    hash: bundle.block.hash.toLowerCase(),
    timestamp: bundle.block.timestamp,
  };
  const transactions: WalletTransaction[] = [];
  const balanceChanges: BalanceChange[] = [];
  bundle.transactions.forEach((transaction, index) => {
    const receipt = bundle.receipts[index];
    const trace = bundle.traces[index];
    if (!receipt || !trace || receipt.transactionHash !== transaction.hash || trace.txHash !== transaction.hash) {
      throw new Error(`block ${block.number} of ${block.chainId}: receipt or trace ${index} does not belong to ${transaction.hash}`);
    }
    const decoded = decodeTransaction({ block, transaction, receipt, trace });
    transactions.push(toWalletTransaction(decoded));
    balanceChanges.push(...balanceChangesOf(decoded));
  });
  return { transactions, balanceChanges };
}
