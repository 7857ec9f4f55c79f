import type { BalanceChange } from '@wallet-api/core/proto/events';
import { zeroAddress } from '@wallet-api/core/transactions';
import type { DecodedTransaction } from './decode-transaction.js';
import { assetKey, nativeAsset, type AssetRef } from './movement.js';

/**
 * The net effect of one transaction on each (wallet, asset): every movement debits its sender and
 * credits its recipient, and the fee debits the sender of the transaction, also when it failed.
 * The zero address stands for mints and burns and has no balance; zero nets are left out.
 */
export function balanceChangesOf(decoded: DecodedTransaction): BalanceChange[] {
  const nets = new Map<string, { wallet: string; asset: AssetRef; amount: bigint }>();
  const add = (wallet: string, asset: AssetRef, amount: bigint) => {
    if (wallet === zeroAddress) return;
    const key = `${wallet}|${assetKey(asset)}`;
    const entry = nets.get(key) ?? { wallet, asset, amount: 0n };
    entry.amount += amount;
    nets.set(key, entry);
  };
  add(decoded.from, nativeAsset, -decoded.fee);
  for (const act of decoded.acts) {
    for (const movement of act.movements) {
      add(movement.sender, movement.asset, -movement.amount);
      add(movement.recipient, movement.asset, movement.amount);
    }
  }
  const { block } = decoded;
  return [...nets.values()]
    .filter((entry) => entry.amount !== 0n)
    .map((entry) => ({
      chainId: block.chainId,
      wallet: entry.wallet,
      asset: { kind: entry.asset.kind, address: entry.asset.address, tokenId: entry.asset.tokenId?.toString() ?? '' },
      blockNumber: block.number.toString(),
      blockHash: block.hash,
      blockTimestamp: block.timestamp.toString(),
      transactionHash: decoded.hash,
      transactionIndex: decoded.index,
      amount: entry.amount.toString(),
    }));
}
