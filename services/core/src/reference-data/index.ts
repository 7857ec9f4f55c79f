// Lookups of reference-data that several services make: the chain list, token metadata, dapp
// attribution and which wallets are served.
export { listAllChains } from './all-chains.js';
export { createExpiringCache, type CacheOptions, type ExpiringCache } from './expiring-cache.js';
export { createDappDirectory, type DappDirectory, type DappTable } from './dapp-directory.js';
export { pricesAt } from './prices-at.js';
export { priceAtStep, priceSeries, type PriceSteps } from './price-series.js';
export { createPriceQuotes, quoteKey, type PriceQuotes } from './price-quotes.js';
export { createTokenDirectory, type TokenDirectory, type TokenTable } from './token-directory.js';
export { createWalletTracking, type WalletTracking, type WalletTrackingOptions } from './wallet-tracking.js';
export {
  createPointPriceCache,
  type CacheBaseline,
  type PointPrice,
  type PointPriceCache,
  type PointPriceCacheOptions,
  type PriceLookupKey,
  type PriceSeriesKey,
} from './point-price-cache.js';
