import type { ProtocolModule } from '../../world/index.js';
import { nftsActions } from './actions.js';
import { deployNfts } from './deploy.js';
import type { NftsManifest } from './manifest.js';

export { defaultMetadataBaseUrl } from './deploy.js';
export { collectionOf, type NftCollection, type NftCollectionKind, type NftsManifest } from './manifest.js';

/**
 * An on-chain-metadata ERC-721 with paid mints, an http-metadata ERC-721, an ERC-1155, a spam
 * ERC-721 and a fixed-price ETH market. Hosted metadata lives at `deployed.metadata.baseUrl`
 * (`startMetadataServer`), or `defaultMetadataBaseUrl` when the world builder gives none.
 */
export const nftsModule: ProtocolModule<NftsManifest> = {
  name: 'nfts',
  deploy: deployNfts,
  actions: nftsActions,
};
