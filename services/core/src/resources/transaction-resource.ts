import { AssetKind } from '../generated/proto/events.js';
import type { TokenView, TransactionCursor, TransactionRecord } from '../generated/proto/indexer.js';
import { TokenInterface, type Dapp, type PriceQuery, type TokenPrice, type TokenRef } from '../generated/proto/reference_data.js';
import type { TransactionResource } from './transaction-schema.js';
import type { ResponseFungibles } from './fungible-info.js';
import { quantity, tokenQuantity } from './quantity.js';

/** The resource id doubles as the cursor position: `<chain>:<block number>:<transaction index>`. */
export function transactionId(cursor: TransactionCursor): string {
  return `${cursor.chainId}:${cursor.blockNumber}:${cursor.transactionIndex}`;
}

/** Reads `page[lastId]` (already checked against the id pattern) with `page[lastTimestamp]`. */
export function cursorFromPage(lastId: string, lastTimestampMs: bigint): TransactionCursor {
  const [chainId, blockNumber, transactionIndex] = lastId.split(':') as [string, string, string];
  return { chainId, blockNumber: BigInt(blockNumber).toString(), transactionIndex: Number(transactionIndex), minedAtMs: lastTimestampMs.toString() };
}

const isNftKind = (kind: AssetKind | undefined) => kind === AssetKind.ASSET_KIND_ERC721 || kind === AssetKind.ASSET_KIND_ERC1155;

function nftInfo(token: TokenView) {
  const kind = token.asset?.kind;
  const reported = token.info?.interface;
  return {
    contract_address: token.asset?.address ?? '',
    token_id: token.asset?.tokenId ?? '',
    name: token.info?.name ?? '',
    interface: kind === AssetKind.ASSET_KIND_ERC1155 || reported === TokenInterface.TOKEN_INTERFACE_ERC1155 ? ('erc1155' as const) : ('erc721' as const),
    flags: { is_spam: token.info?.isSpam ?? false },
    content: {},
  };
}

/** Fungible or NFT facts of a token, and the quantity in its units. */
function assetFields(token: TokenView | undefined, amount: string, chainId: string, fungibles: ResponseFungibles) {
  const view = token ?? { asset: undefined, info: undefined };
  if (isNftKind(view.asset?.kind)) return { quantity: quantity(amount, 0), fungible_info: null, nft_info: nftInfo(view) };
  return { quantity: tokenQuantity(amount, view.info), fungible_info: fungibles.fungibleInfo(chainId, view.asset?.address ?? '', view.info), nft_info: null };
}

/** A page's token prices at its transactions' times, in the request's currency. */
export interface PagePrices {
  /** `address` '' is the native asset; `timestamp` unix seconds. Undefined: no price at that time. */
  price(chainId: string, address: string, timestamp: string): number | undefined;
}

export const noPrices: PagePrices = { price: () => undefined };

const priceKey = (chainId: string, address: string, timestamp: string) => `${chainId}:${address}:${timestamp}`;

/** The fungible a transfer or fee moves, as GetPrices names it; NFTs are not priced. */
function fungibleAddress(token: TokenView | undefined): string | undefined {
  return isNftKind(token?.asset?.kind) ? undefined : (token?.asset?.address ?? '');
}

/** Every fungible a page shows (fees, transfers and approvals), as GetFungibles is asked for them. */
export function transactionTokens(records: readonly TransactionRecord[]): TokenRef[] {
  return records.flatMap((record) =>
    [record.feeToken, ...record.transfers.map((transfer) => transfer.token), ...record.approvals.map((approval) => approval.token)].flatMap((token) => {
      const address = fungibleAddress(token);
      return address === undefined ? [] : [{ chainId: record.chainId, address }];
    }),
  );
}

/** What a page asks GetPrices: each fungible its transfers and fees move, at its transaction's time, once. */
export function priceQueries(records: readonly TransactionRecord[]): PriceQuery[] {
  const queries = new Map<string, PriceQuery>();
  for (const record of records) {
    for (const token of [record.feeToken, ...record.transfers.map((transfer) => transfer.token)]) {
      const address = fungibleAddress(token);
      if (address === undefined) continue;
      queries.set(priceKey(record.chainId, address, record.minedAt), { token: { chainId: record.chainId, address }, timestamp: record.minedAt });
    }
  }
  return [...queries.values()];
}

/** GetPrices answers one price per query, in query order. */
export function pagePrices(queries: readonly PriceQuery[], answers: readonly TokenPrice[]): PagePrices {
  if (answers.length !== queries.length) throw new Error(`GetPrices answered ${answers.length} prices for ${queries.length} queries`);
  const table = new Map<string, number>();
  queries.forEach((query, index) => {
    const { price } = answers[index]!;
    if (price !== undefined) table.set(priceKey(query.token!.chainId, query.token!.address, query.timestamp), price);
  });
  return { price: (chainId, address, timestamp) => table.get(priceKey(chainId, address, timestamp)) };
}

/** Spec `price` and `value` (quantity times price) of a fungible amount; both null without a price. */
function valuation(token: TokenView | undefined, amount: { float: number }, record: TransactionRecord, prices: PagePrices) {
  const address = fungibleAddress(token);
  const price = address === undefined ? undefined : prices.price(record.chainId, address, record.minedAt);
  return price === undefined ? { price: null, value: null } : { price, value: amount.float * price };
}

const dappName = (dapp: Dapp | undefined) => dapp?.name ?? null;
const dappIcon = (dapp: Dapp | undefined) => (dapp?.iconUrl ? { url: dapp.iconUrl } : null);

const isoTime = (ms: string | undefined) => (ms === undefined ? null : new Date(Number(ms)).toISOString());

/**
 * A record as spec 2.5's transaction resource. Pending transactions and unsigned actions (records
 * with an action id) are not mined: their id is the action id, `status` and `mined_at_block` are
 * empty, `mined_at` is when they were first seen or created, and they carry `available_at` and
 * `expires_at`.
 */
export function toTransactionResource(record: TransactionRecord, baseUrl: string, prices: PagePrices, fungibles: ResponseFungibles): TransactionResource {
  const chainId = record.chainId;
  const action = record.actionId !== '';
  const application = record.application;
  const fee = assetFields(record.feeToken, record.fee || '0', chainId, fungibles);
  return {
    type: 'transactions',
    id: action ? record.actionId : transactionId(record.cursor!),
    attributes: {
      operation_type: record.operationType,
      hash: record.hash,
      mined_at_block: action ? null : Number(record.blockNumber),
      mined_at: new Date(Number(record.minedAt) * 1000).toISOString(),
      sent_from: record.sentFrom,
      sent_to: record.sentTo,
      status: action ? '' : 'confirmed',
      nonce: Number(record.nonce),
      fee: { fungible_info: fee.fungible_info, quantity: fee.quantity, ...valuation(record.feeToken, fee.quantity, record, prices) },
      transfers: record.transfers.map((transfer) => {
        const fields = assetFields(transfer.token, transfer.amount, chainId, fungibles);
        return {
          direction: transfer.direction as 'in' | 'out' | 'self',
          ...fields,
          ...valuation(transfer.token, fields.quantity, record, prices),
          sender: transfer.sender,
          recipient: transfer.recipient,
          act_id: String(transfer.actId),
        };
      }),
      approvals: record.approvals.map((approval) => ({
        ...assetFields(approval.token, approval.amount || '0', chainId, fungibles),
        sender: approval.owner,
        spender: approval.spender,
        act_id: String(approval.actId),
      })),
      address: record.address,
      collection_approvals: record.collectionApprovals.map((approval) => ({
        cancelled: !approval.approved,
        spender: approval.operator,
        act_id: String(approval.actId),
        collection_info: {
          id: approval.collection?.asset?.address ?? '',
          name: approval.collection?.info?.name ?? '',
          icon_url: approval.collection?.info?.iconUrl || null,
        },
      })),
      delegations: [],
      application_metadata: application
        ? {
            contract_address: application.contractAddress,
            name: dappName(application.dapp),
            icon: dappIcon(application.dapp),
            method: application.methodId ? { id: application.methodId, name: application.methodName } : null,
          }
        : null,
      flags: { is_trash: record.isTrash },
      acts: record.acts.map((act) => ({
        id: String(act.id),
        type: act.type,
        ...(act.feeKind === 'ui' || act.feeKind === 'tip' ? { fee_kind: act.feeKind } : {}),
        sent_from: act.sentFrom,
        ...(act.dapp ? { application_metadata: { contract_address: act.contractAddress, name: dappName(act.dapp), icon: dappIcon(act.dapp) } } : {}),
      })),
      paymaster: record.paymaster || null,
      ...(action ? { available_at: isoTime(record.availableAtMs), expires_at: isoTime(record.expiresAtMs) } : {}),
    },
    relationships: {
      chain: { links: { related: `${baseUrl}/v1/chains/${encodeURIComponent(chainId)}` }, data: { type: 'chains', id: chainId } },
      ...(application?.dapp ? { dapp: { data: { type: 'dapps' as const, id: application.dapp.id } } } : {}),
    },
  };
}
