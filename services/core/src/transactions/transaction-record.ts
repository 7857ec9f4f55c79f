import { AssetKind, type Asset, type WalletTransaction } from '../generated/proto/events.js';
import type { TokenView, TransactionRecord } from '../generated/proto/indexer.js';
import type { DappTable, TokenTable } from '../reference-data/index.js';
import { walletView, type WalletTransactionView } from './wallet-view.js';

/** How a wallet reads a transaction, when it was already decided (the indexer stores it) rather than read now. */
export interface WalletReading {
  operationType: string;
  isTrash: boolean;
}

function tokenView(asset: Asset, chainId: string, tokens: TokenTable): TokenView {
  return { asset, info: tokens.info(chainId, asset.address) };
}

const nativeAsset: Asset = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };

/**
 * A decoded transaction as one wallet sees it, with the reference data of its tokens and dapps:
 * what the transactions endpoint and the webhooks render. `wallet` is lowercase for EVM.
 */
export function toTransactionRecord(
  tx: WalletTransaction,
  wallet: string,
  tables: { tokens: TokenTable; dapps: DappTable },
  options: {
    reading?: WalletReading;
    /** The wallet's view of the transaction, when the caller already has it. */
    view?: WalletTransactionView;
  } = {},
): TransactionRecord {
  const { tokens, dapps } = tables;
  const { reading } = options;
  const chainId = tx.chainId;
  const view = options.view ?? walletView(tx, wallet, { lookup: tokens.info });
  const applicationContract = tx.to || tx.createdContract;
  return {
    cursor: {
      minedAtMs: String(BigInt(tx.blockTimestamp) * 1000n),
      blockNumber: tx.blockNumber,
      transactionIndex: tx.transactionIndex,
      chainId,
    },
    chainId,
    address: wallet,
    hash: tx.hash,
    blockNumber: tx.blockNumber,
    blockHash: tx.blockHash,
    minedAt: tx.blockTimestamp,
    sentFrom: tx.from,
    sentTo: tx.to,
    nonce: tx.nonce,
    failed: tx.failed,
    operationType: reading?.operationType ?? view.operationType,
    isTrash: reading?.isTrash ?? view.isTrash,
    fee: tx.fee,
    feeToken: tokenView(nativeAsset, chainId, tokens),
    transfers: view.transfers.map((transfer) => ({
      actId: transfer.actId,
      direction: transfer.direction,
      token: tokenView(transfer.asset ?? nativeAsset, chainId, tokens),
      amount: transfer.amount,
      sender: transfer.sender,
      recipient: transfer.recipient,
    })),
    approvals: tx.approvals
      .filter((approval) => approval.owner === wallet || approval.spender === wallet)
      .map((approval) => ({
        actId: approval.actId,
        token: tokenView(approval.asset ?? nativeAsset, chainId, tokens),
        amount: approval.amount,
        owner: approval.owner,
        spender: approval.spender,
      })),
    collectionApprovals: tx.collectionApprovals
      .filter((approval) => approval.owner === wallet || approval.operator === wallet)
      .map((approval) => ({
        actId: approval.actId,
        collection: tokenView({ kind: AssetKind.ASSET_KIND_UNSPECIFIED, address: approval.collection, tokenId: '' }, chainId, tokens),
        operator: approval.operator,
        approved: approval.approved,
      })),
    acts: view.acts.map((act) => ({
      id: act.id,
      type: act.type,
      sentFrom: act.sentFrom,
      feeKind: '',
      contractAddress: act.contractAddress,
      dapp: act.contractAddress ? dapps.dapp(chainId, act.contractAddress) : undefined,
    })),
    application:
      tx.methodId || tx.createdContract
        ? {
            contractAddress: applicationContract,
            dapp: dapps.dapp(chainId, applicationContract),
            methodId: tx.methodId,
            methodName: tx.methodName,
          }
        : undefined,
    paymaster: tx.paymaster,
    actionId: '',
  };
}

/** The contracts a transaction calls (its `to` or created contract, and every act's), whose dapps it shows. */
export function transactionContracts(tx: WalletTransaction): { chainId: string; address: string }[] {
  const addresses = new Set<string>();
  if (tx.to || tx.createdContract) addresses.add(tx.to || tx.createdContract);
  for (const act of tx.acts) if (act.contractAddress) addresses.add(act.contractAddress);
  return [...addresses].map((address) => ({ chainId: tx.chainId, address }));
}
