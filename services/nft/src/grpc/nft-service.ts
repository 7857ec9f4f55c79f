import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import {
  NftPositionsSort,
  NftService,
  WalletNftCollectionsSort,
  type NftCollection,
  type NftServer,
  type WalletNftCollection,
} from '@wallet-api/core/proto/nft';
import type { NftCatalog } from '../views/nft-catalog.js';
import { nftId, parseNftId } from '../views/nft-resources.js';
import { compareSortable, decodeCursor, encodeCursor, notACursor, pageAfter, type Sortable } from '../views/page-cursor.js';
import type { WalletNftView, WalletNfts } from '../views/wallet-nfts.js';
import type { WalletIndexing } from '../wallets/wallet-indexing.js';

export interface NftServiceDeps {
  indexing: WalletIndexing;
  wallets: WalletNfts;
  catalog: NftCatalog;
}

const evmAddress = /^0x[0-9a-fA-F]{40}$/;
export const maxPageSize = 500;
/** References per GetNfts call. */
export const maxRefs = 100;

const positionSorts = new Set<number>(Object.values(NftPositionsSort).filter((value) => typeof value === 'number'));

const defaultContext: RequestContext = { organizationId: '', roles: [], addons: [], network: 0 };

interface WalletRequest {
  context?: RequestContext | undefined;
  address: string;
  chainIds: readonly string[];
}

function walletOf(request: WalletRequest): string {
  if (!evmAddress.test(request.address)) throw invalidArgument(`address ${request.address} is not an EVM address; NFT endpoints accept EVM addresses only`);
  if (request.chainIds.length === 0) throw invalidArgument('chain_ids must name at least one chain');
  return request.address.toLowerCase();
}

function pageSizeOf(size: number): number {
  if (size < 1 || size > maxPageSize) throw invalidArgument(`page_size must be 1 to ${maxPageSize}`);
  return size;
}

function cursorFor(text: string, sort: number): Sortable | undefined {
  if (!text) return undefined;
  const cursor = decodeCursor(text);
  if (!cursor || cursor.sort !== sort) throw invalidArgument(notACursor);
  return { key: cursor.key, id: cursor.id };
}

function collectionsOf(view: WalletNftView, ids: Iterable<string>): NftCollection[] {
  return [...new Set(ids)].flatMap((id) => view.collections.get(id) ?? []);
}

export function nftService(deps: NftServiceDeps): ServiceRegistration {
  const { indexing, wallets, catalog } = deps;

  /** The view, or undefined while the wallet's first read from the chain runs. */
  async function viewOf(request: WalletRequest & { currency: string }): Promise<WalletNftView | undefined> {
    const wallet = walletOf(request);
    const context = request.context ?? defaultContext;
    if (!(await indexing.ready(wallet, request.chainIds))) return undefined;
    return wallets.view(context, wallet, request.chainIds, request.currency);
  }

  const keep = (ids: readonly string[]) => (ids.length === 0 ? () => true : (id: string) => ids.includes(id));

  return registration<NftServer>('walletapi.nft.Nft', NftService, {
    async listWalletNftPositions(request) {
      if (!positionSorts.has(request.sort)) throw invalidArgument(`sort ${request.sort} is not an NftPositionsSort`);
      const size = pageSizeOf(request.pageSize);
      const after = cursorFor(request.cursor, request.sort);
      const view = await viewOf(request);
      if (!view) return { indexing: true, positions: [], nextCursor: '', collections: [], walletCollections: [] };
      const inCollection = keep(request.collectionIds);
      const ascending =
        request.sort === NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_ASC || request.sort === NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_ASC;
      const sorted = view.sorted(request.sort);
      const items = request.collectionIds.length === 0 ? sorted : sorted.filter((position) => inCollection(position.collectionId));
      const { page, last } = pageAfter(items, compareSortable(ascending), size, after);
      const pageCollections = [...new Set(page.map((position) => position.collectionId))];
      return {
        indexing: false,
        positions: await view.render(page),
        nextCursor: last ? encodeCursor({ sort: request.sort, key: last.key, id: last.id }) : '',
        collections: collectionsOf(view, pageCollections),
        walletCollections: pageCollections.flatMap((id) => view.walletCollections.get(id) ?? []),
      };
    },

    async listWalletNftCollections(request) {
      const size = pageSizeOf(request.pageSize);
      const after = cursorFor(request.cursor, request.sort);
      const view = await viewOf(request);
      if (!view) return { indexing: true, walletCollections: [], nextCursor: '', collections: [] };
      const inCollection = keep(request.collectionIds);
      const byFloor =
        request.sort === WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_TOTAL_FLOOR_PRICE_DESC ||
        request.sort === WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_TOTAL_FLOOR_PRICE_ASC;
      const ascending =
        request.sort === WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_TOTAL_FLOOR_PRICE_ASC ||
        request.sort === WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_MAX_CHANGED_AT_ASC;
      const compare = compareSortable(ascending);
      const items = [...view.walletCollections.values()]
        .filter((summary) => inCollection(summary.collectionId))
        .map((summary: WalletNftCollection) => ({
          summary,
          key: byFloor ? summary.totalFloorPrice : Number(summary.maxChangedAt),
          id: summary.collectionId.padStart(20, '0'),
        }))
        .sort(compare);
      const { page, last } = pageAfter(items, compare, size, after);
      return {
        indexing: false,
        walletCollections: page.map(({ summary }) => summary),
        nextCursor: last ? encodeCursor({ sort: request.sort, key: last.key, id: last.id }) : '',
        collections: collectionsOf(
          view,
          page.map(({ summary }) => summary.collectionId),
        ),
      };
    },

    async getWalletNftPortfolio(request) {
      const view = await viewOf(request);
      if (!view) return { indexing: true, byChain: {} };
      return { indexing: false, byChain: Object.fromEntries(request.chainIds.map((chainId) => [chainId, view.byChain.get(chainId) ?? 0])) };
    },

    async getNfts(request) {
      if (request.refs.length > maxRefs) throw invalidArgument(`at most ${maxRefs} references are allowed`);
      const keys = request.refs.map((ref) => {
        const key = parseNftId(`${ref.chainId}:${ref.contractAddress.toLowerCase()}:${ref.tokenId}`);
        if (!key) throw invalidArgument(`reference ${ref.chainId}:${ref.contractAddress}:${ref.tokenId} is not <chain_id>:<contract_address>:<token_id>`);
        return key;
      });
      const context = request.context ?? defaultContext;
      const entries = await catalog.entries(keys, context);
      const facts = await catalog.market(entries, request.currency, context, keys);
      const nfts = keys.flatMap((key) => {
        const token = entries.tokens.get(nftId(key));
        return token && entries.collections.has(`${key.chainId}:${key.contract}`) ? [catalog.nft(token, entries, facts)] : [];
      });
      const collections = [...new Set(nfts.map((nft) => `${nft.ref!.chainId}:${nft.ref!.contractAddress}`))].map((key) =>
        catalog.collection(entries.collections.get(key)!, entries, facts),
      );
      return { nfts, collections };
    },
  });
}
