import { AssetKind, type Act, type Transfer, type WalletTransaction } from '../generated/proto/events.js';
import { zeroAddress } from './address.js';
import { operationRank, type ActType, type OperationType } from './operation-type.js';
import type { TokenFacts } from './token-facts.js';

export type TransferDirection = 'in' | 'out' | 'self';
export type AssetType = 'fungible' | 'nft';

export interface ActView {
  id: number;
  /** `fee` is the spec's application-fee act; the chain decoder never produces one. */
  type: OperationType | 'fee';
  sentFrom: string;
  contractAddress: string;
}

export interface WalletTransactionView {
  operationType: OperationType;
  acts: ActView[];
  /** The transfers the wallet sent or received. */
  transfers: (Transfer & { direction: TransferDirection })[];
  isTrash: boolean;
  assetTypes: AssetType[];
  /** The other side of the wallet's transfers and approvals, and the contract it called. */
  counterparties: string[];
}

function directionOf(transfer: Transfer, wallet: string): TransferDirection | undefined {
  const sent = transfer.sender === wallet;
  const received = transfer.recipient === wallet;
  if (sent && received) return 'self';
  if (sent) return 'out';
  if (received) return 'in';
  return undefined;
}

/**
 * `transfer` reads as the wallet's side of it. So do a mint or burn read by a wallet that did not
 * perform it: the recipients of an airdrop minted to them received it.
 */
function readAct(act: Act, transfers: Transfer[], wallet: string): OperationType {
  const type = act.type as ActType;
  const own = transfers.filter((transfer) => transfer.actId === act.id);
  const sends = own.some((transfer) => transfer.sender === wallet);
  const receives = own.some((transfer) => transfer.recipient === wallet);
  const othersMintOrBurn = (type === 'mint' || type === 'burn') && act.sentFrom !== wallet && (sends || receives);
  if (type !== 'transfer' && !othersMintOrBurn) return type;
  return sends || !receives ? 'send' : 'receive';
}

/** Acts the wallet performed or took part in through a transfer or an approval. */
function involvedActIds(tx: WalletTransaction, wallet: string): Set<number> {
  const ids = new Set<number>();
  for (const act of tx.acts) if (act.sentFrom === wallet) ids.add(act.id);
  for (const transfer of tx.transfers) if (transfer.sender === wallet || transfer.recipient === wallet) ids.add(transfer.actId);
  for (const approval of tx.approvals) if (approval.owner === wallet || approval.spender === wallet) ids.add(approval.actId);
  for (const approval of tx.collectionApprovals) if (approval.owner === wallet || approval.operator === wallet) ids.add(approval.actId);
  return ids;
}

function isNft(kind: AssetKind): boolean {
  return kind === AssetKind.ASSET_KIND_ERC721 || kind === AssetKind.ASSET_KIND_ERC1155;
}

/**
 * An incoming asset the wallet would not want shown: spam, or a fungible token nobody vouches
 * for. NFT collections are rarely on token lists, so only a spam verdict condemns one.
 */
function isJunk(transfer: Transfer, chainId: string, tokens: TokenFacts): boolean {
  const asset = transfer.asset!;
  if (asset.kind === AssetKind.ASSET_KIND_NATIVE) return false;
  const fact = tokens.lookup(chainId, asset.address);
  if (fact?.isSpam) return true;
  return !isNft(asset.kind) && !fact?.verified;
}

/**
 * Unsolicited (the wallet did not send the transaction) and either nothing but zero-value
 * movements, the address-poisoning pattern, or only junk received with nothing of the wallet's
 * taken through an allowance.
 */
function isTrash(tx: WalletTransaction, wallet: string, own: Transfer[], tokens: TokenFacts): boolean {
  if (tx.from === wallet || own.length === 0) return false;
  if (own.every((transfer) => BigInt(transfer.amount) === 0n)) return true;
  const movedOut = own.some((transfer) => transfer.sender === wallet && transfer.recipient !== wallet && BigInt(transfer.amount) > 0n);
  const incoming = own.filter((transfer) => transfer.recipient === wallet && transfer.sender !== wallet);
  return !movedOut && incoming.length > 0 && incoming.every((transfer) => isJunk(transfer, tx.chainId, tokens));
}

function counterpartiesOf(tx: WalletTransaction, wallet: string, own: Transfer[]): string[] {
  const found = new Set<string>();
  for (const transfer of own) found.add(transfer.sender === wallet ? transfer.recipient : transfer.sender);
  for (const approval of tx.approvals) if (approval.owner === wallet) found.add(approval.spender);
  for (const approval of tx.collectionApprovals) if (approval.owner === wallet) found.add(approval.operator);
  if (tx.from === wallet && tx.to !== '') found.add(tx.to);
  found.delete(wallet);
  found.delete(zeroAddress);
  return [...found].sort();
}

/** How one wallet reads a decoded transaction. `wallet` is lowercase. */
export function walletView(tx: WalletTransaction, wallet: string, tokens: TokenFacts): WalletTransactionView {
  const acts = tx.acts.map((act) => ({ id: act.id, type: readAct(act, tx.transfers, wallet), sentFrom: act.sentFrom, contractAddress: act.contractAddress }));
  const involved = involvedActIds(tx, wallet);
  let operationType: OperationType = 'execute';
  for (const act of acts) {
    if (involved.has(act.id) && operationRank(act.type) < operationRank(operationType)) operationType = act.type;
  }
  const own = tx.transfers.filter((transfer) => directionOf(transfer, wallet) !== undefined);
  const kinds = new Set(own.map((transfer) => (isNft(transfer.asset!.kind) ? 'nft' : 'fungible')));
  return {
    operationType,
    acts,
    transfers: own.map((transfer) => ({ ...transfer, direction: directionOf(transfer, wallet)! })),
    isTrash: isTrash(tx, wallet, own, tokens),
    assetTypes: (['fungible', 'nft'] as const).filter((type) => kinds.has(type)),
    counterparties: counterpartiesOf(tx, wallet, own),
  };
}
