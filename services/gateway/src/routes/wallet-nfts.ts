import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { NftPositionsSort, WalletNftCollectionsSort } from '@wallet-api/core/proto/nft';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { nftPositionListResponseSchema, walletNftCollectionListResponseSchema, walletNftPortfolioResponseSchema } from '../schemas/nft.js';
import {
  evmWalletAddressParam,
  nftPositionsQuery,
  walletNftCollectionsQuery,
  walletNftPortfolioQuery,
  type nftPositionsSorts,
  type walletNftCollectionsSorts,
} from '../schemas/nft-query.js';
import type { ApiRoutes } from './define-route.js';
import { noNftPositions, noWalletNftCollections, nftPositionsPage, walletNftCollectionsPage, walletNftPortfolioAnswer } from './nft-pages.js';
import { toRequestContext } from './request-context.js';
import { resolveWalletScope, type WalletScope } from './wallet-scope.js';

const positionSorts: Record<(typeof nftPositionsSorts)[number], NftPositionsSort> = {
  '-created_at': NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_DESC,
  created_at: NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_ASC,
  '-floor_price': NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_DESC,
  floor_price: NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_ASC,
};

const collectionSorts: Record<(typeof walletNftCollectionsSorts)[number], WalletNftCollectionsSort> = {
  '-total_floor_price': WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_TOTAL_FLOOR_PRICE_DESC,
  total_floor_price: WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_TOTAL_FLOOR_PRICE_ASC,
  '-max_changed_at': WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_MAX_CHANGED_AT_DESC,
  max_changed_at: WalletNftCollectionsSort.WALLET_NFT_COLLECTIONS_SORT_MAX_CHANGED_AT_ASC,
};

const indexingDescription = 'The wallet is being indexed for the first time: the same shape with empty data; ask again shortly.';

/**
 * The wallet and chains of an NFT request: the chains named (each reporting
 * `supports_nft_positions`) or every EVM chain of the network that does. The address must be
 * known to be tracked before the nft service is asked: its first request for a wallet starts
 * indexing it, so nothing may reach it for an address that gets a 400.
 */
function nftScope(backends: Backends, context: RequestContext, address: string, chainIds: readonly string[] | undefined): Promise<WalletScope> {
  return resolveWalletScope(backends, { context, address, chainIds, capabilities: ['nft_positions'] });
}

/*
 * Not held to the spec's 2000-character URL (section 8) as positions are: links.next carries the
 * nft service's cursor, whose length is that service's, and the gateway must accept every link it hands out.
 */
export function addWalletNftRoutes(routes: ApiRoutes, backends: Backends): void {
  const { nft } = backends;
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/nft-positions/',
    summary: "An EVM wallet's NFT positions, newest change first by default, with cursor pagination through links.next; 202 while the wallet is first indexed",
    tag: 'wallets',
    params: evmWalletAddressParam,
    query: nftPositionsQuery,
    headers: networkHeaders,
    response: nftPositionListResponseSchema,
    alsoAnswers: { 202: indexingDescription },
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['nfts'] }),
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await nftScope(backends, context, params.address, query['filter[chain_ids]']);
      const response =
        scope.chainIds.length === 0
          ? noNftPositions
          : await unary(
              nft,
              nft.listWalletNftPositions,
              {
                context,
                address: scope.address,
                chainIds: scope.chainIds,
                collectionIds: query['filter[collections_ids]'] ?? [],
                sort: positionSorts[query.sort],
                pageSize: query['page[size]'],
                cursor: query['page[after]'] ?? '',
                currency: query.currency,
              },
              { name: 'Nft/ListWalletNftPositions' },
            );
      return nftPositionsPage(response, { address: scope.address, selfUrl, baseUrl, include: query.include });
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/nft-collections/',
    summary:
      "An EVM wallet's NFT holdings by collection, most valuable first by default, with cursor pagination through links.next; 202 while the wallet is first indexed",
    tag: 'wallets',
    params: evmWalletAddressParam,
    query: walletNftCollectionsQuery,
    headers: networkHeaders,
    response: walletNftCollectionListResponseSchema,
    alsoAnswers: { 202: indexingDescription },
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['nfts'] }),
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await nftScope(backends, context, params.address, query['filter[chain_ids]']);
      const response =
        scope.chainIds.length === 0
          ? noWalletNftCollections
          : await unary(
              nft,
              nft.listWalletNftCollections,
              {
                context,
                address: scope.address,
                chainIds: scope.chainIds,
                collectionIds: query['filter[collections_ids]'] ?? [],
                sort: collectionSorts[query.sort],
                pageSize: query['page[size]'],
                cursor: query['page[after]'] ?? '',
                currency: query.currency,
              },
              { name: 'Nft/ListWalletNftCollections' },
            );
      return walletNftCollectionsPage(response, { address: scope.address, selfUrl, baseUrl, include: query.include });
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/nft-portfolio',
    summary: "The value of an EVM wallet's NFTs per chain, from the collections' floor prices; 202 while the wallet is first indexed",
    tag: 'wallets',
    params: evmWalletAddressParam,
    query: walletNftPortfolioQuery,
    headers: networkHeaders,
    response: walletNftPortfolioResponseSchema,
    alsoAnswers: { 202: 'The wallet is being indexed for the first time: the resource with an empty positions_distribution_by_chain; ask again shortly.' },
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['nfts'] }),
    async handle({ params, query, headers }, { organization, selfUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await nftScope(backends, context, params.address, query['filter[chain_ids]']);
      const answer =
        scope.chainIds.length === 0
          ? { indexing: false, byChain: {} }
          : await unary(
              nft,
              nft.getWalletNftPortfolio,
              { context, address: scope.address, chainIds: scope.chainIds, currency: query.currency },
              { name: 'Nft/GetWalletNftPortfolio' },
            );
      return walletNftPortfolioAnswer(answer, { address: scope.address, selfUrl });
    },
  });
}
