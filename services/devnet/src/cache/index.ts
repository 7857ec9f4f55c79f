export { devnetChains, ensureWorld, worldCacheKey, type DevnetChainSpec, type World, type WorldOptions } from './world-cache.js';
