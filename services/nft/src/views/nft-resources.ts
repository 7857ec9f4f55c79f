import type { NftCollection, NftMetadata as NftMetadataMessage, NftToken } from '@wallet-api/core/proto/nft';
import type { NftMetadata } from '../metadata/nft-metadata.js';
import type { Sale } from '../store/market-store.js';
import type { CollectionRow, KnownToken, TokenKey } from '../store/token-store.js';

/** What one answer knows of the market: floors and sales in wei, and the native coin's price per chain. */
export interface MarketFacts {
  /** `<chain>:<contract>` -> wei. */
  floors: ReadonlyMap<string, bigint>;
  /** `<chain>:<contract>:<token id>` -> newest sale. */
  lastSales: ReadonlyMap<string, Sale>;
  /** Chain id -> price of one native coin in the request's currency (absent: unpriced). */
  nativePrices: ReadonlyMap<string, number>;
}

/** Wei at the chain's native price; undefined without a price. */
export function weiValue(wei: bigint, chainId: string, market: MarketFacts): number | undefined {
  const price = market.nativePrices.get(chainId);
  return price === undefined ? undefined : (Number(wei) / 1e18) * price;
}

export const nftId = (key: TokenKey) => `${key.chainId}:${key.contract}:${key.tokenId}`;

/** The opaque id back to its parts; undefined for anything `nftId` does not produce. */
export function parseNftId(id: string): TokenKey | undefined {
  const match = /^([a-z0-9-]{1,32}):(0x[0-9a-f]{40}):(0|[1-9][0-9]{0,77})$/.exec(id);
  return match ? { chainId: match[1]!, contract: match[2]!, tokenId: match[3]! } : undefined;
}

const emptyMetadata: NftMetadataMessage = { name: '', description: '', tags: [], content: {}, attributes: [] };

function metadataMessage(metadata: NftMetadata | undefined): NftMetadataMessage {
  if (!metadata) return emptyMetadata;
  return {
    name: metadata.name,
    description: metadata.description,
    tags: metadata.tags,
    content: metadata.content,
    attributes: metadata.attributes,
  };
}

export function floorOf(collection: { chainId: string; contract: string }, market: MarketFacts): number | undefined {
  const wei = market.floors.get(`${collection.chainId}:${collection.contract}`);
  return wei === undefined ? undefined : weiValue(wei, collection.chainId, market);
}

export function toNftMessage(token: KnownToken, collection: CollectionRow, isSpam: boolean, market: MarketFacts): NftToken {
  const sale = market.lastSales.get(nftId(token));
  const floor = floorOf(token, market);
  const salePrice = sale ? weiValue(sale.price, token.chainId, market) : undefined;
  return {
    id: nftId(token),
    ref: { chainId: token.chainId, contractAddress: token.contract, tokenId: token.tokenId },
    interface: token.standard,
    metadata: metadataMessage(token.metadata),
    ...(floor !== undefined ? { floorPrice: floor } : {}),
    ...(sale
      ? { lastSale: { ...(salePrice !== undefined ? { price: salePrice } : {}), quantity: sale.quantity.toString(), soldAt: sale.soldAt.toString() } }
      : {}),
    externalLinks: token.metadata?.externalLinks ?? [],
    isSpam,
    collectionId: collection.id.toString(),
  };
}

export function toCollectionMessage(collection: CollectionRow, isSpam: boolean, nativeSymbol: string, market: MarketFacts): NftCollection {
  const floor = floorOf(collection, market);
  return {
    id: collection.id.toString(),
    name: collection.name,
    description: collection.description,
    ...(collection.iconUrl ? { icon: { url: collection.iconUrl, contentType: '' } } : {}),
    ...(collection.bannerUrl ? { banner: { url: collection.bannerUrl, contentType: '' } } : {}),
    paymentTokenSymbol: nativeSymbol,
    implementations: [{ chainId: collection.chainId, address: collection.contract }],
    isSpam,
    ...(floor !== undefined ? { floorPrice: floor } : {}),
  };
}
