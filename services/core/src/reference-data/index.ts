// Lookups of reference-data that several services make: the chain list, token metadata and dapp attribution.
export { listAllChains } from './all-chains.js';
export { createExpiringCache, type CacheOptions, type ExpiringCache } from './expiring-cache.js';
export { createDappDirectory, type DappDirectory, type DappTable } from './dapp-directory.js';
export { createTokenDirectory, type TokenDirectory, type TokenTable } from './token-directory.js';
