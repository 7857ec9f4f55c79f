import { canonicalWallet } from '../addresses/index.js';
import { AssetKind, type NetLeg, type WalletLegs, type WalletTransaction } from '../generated/proto/events.js';

const fungibleKinds: ReadonlySet<AssetKind> = new Set([AssetKind.ASSET_KIND_NATIVE, AssetKind.ASSET_KIND_ERC20]);
const nftKinds: ReadonlySet<AssetKind> = new Set([AssetKind.ASSET_KIND_ERC721, AssetKind.ASSET_KIND_ERC1155]);

/**
 * The native fee the wallet spent on the transaction: one it sent without a paymaster paying
 * (0 otherwise). A failed transaction still paid its fee.
 */
function feePaidBy(transaction: Pick<WalletTransaction, 'from' | 'paymaster' | 'fee'>, wallet: string): bigint {
  return transaction.from.toLowerCase() === wallet.toLowerCase() && transaction.paymaster === '' ? BigInt(transaction.fee || '0') : 0n;
}

/**
 * What the transaction did to the wallet, as its PnL replay reads it: each fungible it moved
 * netted per asset (a transfer between the wallet and itself is neutral, and a fee-on-transfer
 * token counts what arrived), the fee it paid, and whether an NFT came or went. A failed
 * transaction moved nothing but its fee. The same from the whole transaction and from the
 * wallet's part of it (walletPart). Wallets compare case-insensitively.
 */
export function walletLegs(transaction: WalletTransaction, wallet: string): WalletLegs {
  const me = wallet.toLowerCase();
  const net = new Map<string, bigint>();
  let nftReceived = false;
  let nftSent = false;
  if (!transaction.failed) {
    for (const transfer of transaction.transfers) {
      const sent = transfer.sender.toLowerCase() === me;
      const received = transfer.recipient.toLowerCase() === me;
      const kind = transfer.asset?.kind ?? AssetKind.ASSET_KIND_UNSPECIFIED;
      if (sent === received) continue;
      if (nftKinds.has(kind)) {
        nftReceived ||= received;
        nftSent ||= sent;
        continue;
      }
      if (!fungibleKinds.has(kind)) continue;
      const asset = kind === AssetKind.ASSET_KIND_NATIVE ? '' : canonicalWallet(transfer.asset!.address);
      const amount = BigInt(transfer.amount);
      net.set(asset, (net.get(asset) ?? 0n) + (received ? amount : -amount));
    }
  }
  const legs: NetLeg[] = [];
  for (const [asset, amount] of net) if (amount !== 0n) legs.push({ asset, amount: amount.toString() });
  const fee = feePaidBy(transaction, wallet);
  return {
    chainId: transaction.chainId,
    blockNumber: transaction.blockNumber,
    blockHash: transaction.blockHash,
    blockTimestamp: transaction.blockTimestamp,
    transactionIndex: transaction.transactionIndex,
    feePaid: fee > 0n ? fee.toString() : '',
    legs,
    nftReceived,
    nftSent,
  };
}
