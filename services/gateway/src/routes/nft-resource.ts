import type {
  ContentItem,
  ListWalletNftPositionsResponse,
  NftCollection,
  NftContent,
  NftPosition,
  NftToken,
  WalletNftCollection,
} from '@wallet-api/core/proto/nft';
import { quantity } from '@wallet-api/core/resources';
import type {
  NftCollectionResource,
  NftPositionIncluded,
  NftPositionResource,
  NftResource,
  WalletNftCollectionResource,
  WalletNftPortfolioResource,
} from '../schemas/nft.js';
import type { nftPositionsIncludes } from '../schemas/nft-query.js';

type Content = NftPositionResource['attributes']['nft_info']['content'];
type CollectionInfo = NftPositionResource['attributes']['collection_info'];

/** A proto content item is absent, or present with an empty url when the metadata named none: null either way. */
const contentItem = (item: ContentItem | undefined) => (item && item.url !== '' ? { url: item.url, content_type: item.contentType } : null);

function nftContent(content: NftContent | undefined): Content {
  return {
    preview: contentItem(content?.preview),
    detail: contentItem(content?.detail),
    audio: contentItem(content?.audio),
    video: contentItem(content?.video),
  };
}

/**
 * decisions.md "NFTs": lowercase `erc721` or `erc1155`. The proto promises those; a spelling such
 * as `ERC-1155` is read for what it says, and anything else is taken for the common ERC-721 rather
 * than failing the whole response.
 */
export function nftInterface(value: string): 'erc721' | 'erc1155' {
  return value.toLowerCase().replace(/[-_]/g, '') === 'erc1155' ? 'erc1155' : 'erc721';
}

/** Unix seconds (uint64 as decimal text) as the ISO 8601 UTC timestamps of every other route. */
const isoSeconds = (seconds: string) => new Date(Number(seconds || '0') * 1000).toISOString();

/**
 * decisions.md: collection ids are integers. int64 on the wire; the nft service numbers its
 * collections in sequence (a database serial), far below 2^53, so a JSON number holds them exactly.
 */
const collectionNumber = (id: string) => Number(id);

const collectionRelationship = (id: string) => ({ data: { type: 'nft_collections' as const, id: collectionNumber(id) } });

const chainRelationship = (baseUrl: string, chainId: string) => ({
  links: { related: `${baseUrl}/v1/chains/${encodeURIComponent(chainId)}` },
  data: { type: 'chains' as const, id: chainId },
});

/** The response's collections by id, for the resources that show one. */
export const collectionsById = (collections: readonly NftCollection[]) => new Map(collections.map((collection) => [collection.id, collection]));

/**
 * Spec 2.6 `collection_info`. The nft service sends the collection of every position it returns;
 * one missing anyway shows empty rather than failing the page.
 */
export function collectionInfo(collection: NftCollection | undefined): CollectionInfo {
  return {
    name: collection?.name ?? '',
    description: collection?.description ?? '',
    content: { icon: collection?.icon?.url ? { url: collection.icon.url } : null, banner: contentItem(collection?.banner) },
  };
}

/** Spec 2.6 NFT position from the nft service's record and its response's collections. */
export function toNftPositionResource(position: NftPosition, collections: ReadonlyMap<string, NftCollection>, baseUrl: string): NftPositionResource {
  const nft = position.nft;
  const chainId = nft?.ref?.chainId ?? '';
  const collectionId = nft?.collectionId ?? '0';
  return {
    type: 'nft_positions',
    id: position.id,
    attributes: {
      changed_at: isoSeconds(position.changedAt),
      amount: position.amount,
      price: position.price ?? null,
      value: position.value ?? null,
      nft_info: {
        contract_address: nft?.ref?.contractAddress ?? '',
        token_id: nft?.ref?.tokenId ?? '',
        name: nft?.metadata?.name ?? '',
        interface: nftInterface(nft?.interface ?? ''),
        flags: { is_spam: nft?.isSpam ?? false },
        content: nftContent(nft?.metadata?.content),
      },
      collection_info: collectionInfo(collections.get(collectionId)),
    },
    relationships: {
      chain: chainRelationship(baseUrl, chainId),
      nft_collection: collectionRelationship(collectionId),
      nft: { data: { type: 'nfts', id: nft?.id ?? '' } },
    },
  };
}

/** Spec 2.7 NFT resource. */
export function toNftResource(token: NftToken, baseUrl: string): NftResource {
  const { metadata, lastSale } = token;
  return {
    type: 'nfts',
    id: token.id,
    attributes: {
      contract_address: token.ref?.contractAddress ?? '',
      token_id: token.ref?.tokenId ?? '',
      interface: nftInterface(token.interface),
      metadata: {
        name: metadata?.name ?? '',
        description: metadata?.description ?? '',
        tags: metadata?.tags ?? [],
        content: nftContent(metadata?.content),
        attributes: (metadata?.attributes ?? []).map(({ key, value }) => ({ key, value })),
      },
      market_data: {
        prices: { floor: token.floorPrice ?? null },
        // Tokens are indivisible: the quantity sold has no decimals. The proto's empty default reads as none.
        last_sale: lastSale ? { price: lastSale.price ?? null, quantity: quantity(lastSale.quantity || '0', 0) } : null,
      },
      external_links: token.externalLinks.map(({ url, type, name }) => ({ url, type, name })),
      flags: { is_spam: token.isSpam },
    },
    relationships: {
      chain: chainRelationship(baseUrl, token.ref?.chainId ?? ''),
      nft_collection: collectionRelationship(token.collectionId),
    },
  };
}

/** Spec 2.8 NFT collection resource. */
export function toNftCollectionResource(collection: NftCollection): NftCollectionResource {
  const info = collectionInfo(collection);
  return {
    type: 'nft_collections',
    id: collectionNumber(collection.id),
    attributes: {
      metadata: { name: info.name, description: info.description, content: info.content, payment_token_symbol: collection.paymentTokenSymbol },
      implementations: collection.implementations.map(({ chainId, address }) => ({ chain_id: chainId, address })),
    },
  };
}

/** decisions.md `wallet_nft_collections`: one id per wallet and collection, `<address>-<collection id>`. */
export function toWalletNftCollectionResource(
  address: string,
  holding: WalletNftCollection,
  collections: ReadonlyMap<string, NftCollection>,
): WalletNftCollectionResource {
  return {
    type: 'wallet_nft_collections',
    id: `${address}-${holding.collectionId}`,
    attributes: {
      min_changed_at: isoSeconds(holding.minChangedAt),
      max_changed_at: isoSeconds(holding.maxChangedAt),
      nfts_count: holding.nftsCount || '0',
      total_floor_price: holding.totalFloorPrice,
      collection_info: collectionInfo(collections.get(holding.collectionId)),
    },
    relationships: {
      chains: { data: holding.chainIds.map((id) => ({ type: 'chains' as const, id })) },
      nft_collection: collectionRelationship(holding.collectionId),
    },
  };
}

/**
 * decisions.md `wallet_nft_portfolio`, id the wallet's address. While the wallet is first indexed
 * (202) `byChain` is empty: a body of the same shape whose data says nothing yet.
 */
export function toWalletNftPortfolioResource(address: string, byChain: Readonly<Record<string, number>>): WalletNftPortfolioResource {
  return { type: 'wallet_nft_portfolio', id: address, attributes: { positions_distribution_by_chain: { ...byChain } } };
}

export type NftPositionsInclude = (typeof nftPositionsIncludes)[number];

/**
 * `included` of an NFT positions page, for the kinds asked: the page's NFTs (once each), the
 * collections the nft service sent with it, and the wallet's holding of each of them.
 */
export function nftPositionsIncluded(
  response: Pick<ListWalletNftPositionsResponse, 'positions' | 'collections' | 'walletCollections'>,
  includes: readonly NftPositionsInclude[],
  address: string,
  baseUrl: string,
): NftPositionIncluded[] {
  const asked = new Set(includes);
  const collections = collectionsById(response.collections);
  const nfts = new Map<string, NftToken>();
  for (const { nft } of response.positions) if (nft && !nfts.has(nft.id)) nfts.set(nft.id, nft);
  return [
    ...(asked.has('nfts') ? [...nfts.values()].map((token) => toNftResource(token, baseUrl)) : []),
    ...(asked.has('nft_collections') ? response.collections.map(toNftCollectionResource) : []),
    ...(asked.has('wallet_nft_collections') ? response.walletCollections.map((holding) => toWalletNftCollectionResource(address, holding, collections)) : []),
  ];
}

/** `links.next`: this request with `page[after]` set to the nft service's cursor; none on the last page. */
export function nextPageLink(selfUrl: string, nextCursor: string): string | undefined {
  if (nextCursor === '') return undefined;
  const url = new URL(selfUrl);
  url.searchParams.set('page[after]', nextCursor);
  return url.toString();
}
