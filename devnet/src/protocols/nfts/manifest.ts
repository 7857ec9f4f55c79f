import type { Address } from 'viem';

/**
 * - `onchain-art`: ERC-721, paid mint, tokenURI is a `data:application/json;base64` document.
 * - `hosted`: ERC-721, free mint, tokenURI is `<metadataBaseUrl>harbor-birds/<id>.json`.
 * - `editions`: ERC-1155, ids 1..editionCount, uri is `<metadataBaseUrl>field-passes/<id>.json`.
 * - `spam`: ERC-721 minted unasked into wallets, on-chain phishing metadata.
 * Every ERC-721 here numbers its tokens 1..totalSupply() and never burns.
 */
export type NftCollectionKind = 'onchain-art' | 'hosted' | 'editions' | 'spam';

export interface NftCollection {
  kind: NftCollectionKind;
  standard: 'erc721' | 'erc1155';
  name: string;
  symbol: string;
  address: Address;
}

/** Manifest section `nfts`. */
export interface NftsManifest {
  collections: NftCollection[];
  /** Fixed-price market: `list(nft, tokenId, price)` after approving it, `buy(listingId)` paying ETH. */
  market: Address;
  /** Price of one `onchain-art` token, in wei (decimal string). */
  mintPriceWei: string;
  /** Where the `hosted` and `editions` metadata is served (see `src/metadata-server`). */
  metadataBaseUrl: string;
}

export function collectionOf(manifest: NftsManifest, kind: NftCollectionKind): NftCollection {
  const collection = manifest.collections.find((entry) => entry.kind === kind);
  if (!collection) throw new Error(`nfts manifest has no ${kind} collection`);
  return collection;
}
