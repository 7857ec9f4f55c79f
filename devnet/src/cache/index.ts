export { devnetChains, ensureWorld, shapesWorld, worldCacheKey, type DevnetChainSpec, type World, type WorldOptions } from './world-cache.js';
