import type { z } from 'zod';
import type { ListWalletNftCollectionsResponse, ListWalletNftPositionsResponse } from '@wallet-api/core/proto/nft';
import type { nftPositionListResponseSchema, walletNftCollectionListResponseSchema, walletNftPortfolioResponseSchema } from '../schemas/nft.js';
import { answerWith, type StatusAnswer } from './define-route.js';
import {
  collectionsById,
  nextPageLink,
  nftPositionsIncluded,
  toNftCollectionResource,
  toNftPositionResource,
  toWalletNftCollectionResource,
  toWalletNftPortfolioResource,
  type NftPositionsInclude,
} from './nft-resource.js';

type NftPositionList = z.infer<typeof nftPositionListResponseSchema>;
type WalletNftCollectionList = z.infer<typeof walletNftCollectionListResponseSchema>;
type WalletNftPortfolioResponse = z.infer<typeof walletNftPortfolioResponseSchema>;

/** What a wallet NFT page is built from besides the nft service's answer. */
export interface NftPageRequest<I extends string> {
  /** The wallet, lowercased. */
  address: string;
  selfUrl: string;
  baseUrl: string;
  /** The `include` parameter; undefined when not sent (no `included` then). */
  include: readonly I[] | undefined;
}

/**
 * decisions.md "NFTs": while a new wallet is first indexed the NFT endpoints answer 202 with a
 * body of the same shape whose data is empty: no `links.next` (there is no page after nothing),
 * and an empty `included` when includes were asked for.
 */
function indexingList(request: NftPageRequest<string>) {
  return answerWith(202, { links: { self: request.selfUrl }, data: [], ...(request.include ? { included: [] } : {}) });
}

/** Spec 4.6: a page of NFT positions, `links.next` while the nft service has more. */
export function nftPositionsPage(
  response: ListWalletNftPositionsResponse,
  request: NftPageRequest<NftPositionsInclude>,
): NftPositionList | StatusAnswer<NftPositionList> {
  if (response.indexing) return indexingList(request);
  const collections = collectionsById(response.collections);
  const next = nextPageLink(request.selfUrl, response.nextCursor);
  return {
    links: { self: request.selfUrl, ...(next ? { next } : {}) },
    data: response.positions.map((position) => toNftPositionResource(position, collections, request.baseUrl)),
    ...(request.include ? { included: nftPositionsIncluded(response, request.include, request.address, request.baseUrl) } : {}),
  };
}

/** decisions.md `wallet_nft_collections`: a page of the wallet's holdings by collection. */
export function walletNftCollectionsPage(
  response: ListWalletNftCollectionsResponse,
  request: NftPageRequest<'nft_collections'>,
): WalletNftCollectionList | StatusAnswer<WalletNftCollectionList> {
  if (response.indexing) return indexingList(request);
  const collections = collectionsById(response.collections);
  const next = nextPageLink(request.selfUrl, response.nextCursor);
  return {
    links: { self: request.selfUrl, ...(next ? { next } : {}) },
    data: response.walletCollections.map((holding) => toWalletNftCollectionResource(request.address, holding, collections)),
    ...(request.include ? { included: response.collections.map(toNftCollectionResource) } : {}),
  };
}

/**
 * decisions.md `wallet_nft_portfolio`. A single resource has no empty list to answer with while
 * the wallet is first indexed: the 202 carries the resource with an empty distribution instead.
 */
export function walletNftPortfolioAnswer(
  answer: { indexing: boolean; byChain: Record<string, number> },
  request: Pick<NftPageRequest<never>, 'address' | 'selfUrl'>,
): WalletNftPortfolioResponse | StatusAnswer<WalletNftPortfolioResponse> {
  if (answer.indexing) return answerWith(202, { links: { self: request.selfUrl }, data: toWalletNftPortfolioResource(request.address, {}) });
  return { links: { self: request.selfUrl }, data: toWalletNftPortfolioResource(request.address, answer.byChain) };
}

/** What a wallet on none of the chains asked for holds: nothing, and nothing to index. */
export const noNftPositions: ListWalletNftPositionsResponse = { indexing: false, positions: [], nextCursor: '', collections: [], walletCollections: [] };
export const noWalletNftCollections: ListWalletNftCollectionsResponse = { indexing: false, walletCollections: [], nextCursor: '', collections: [] };
