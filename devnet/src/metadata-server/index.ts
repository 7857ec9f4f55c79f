export { startMetadataServer, type MetadataServer, type MetadataServerOptions } from './server.js';
export { hostedCollections, tokenImage, tokenMetadata, type HostedCollection, type TokenMetadata } from './metadata.js';
