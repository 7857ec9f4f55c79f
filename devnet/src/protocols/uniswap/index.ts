import type { ProtocolModule } from '../../world/index.js';
import { deployUniswap } from './deploy.js';
import type { UniswapManifest } from './manifest.js';
import { arbitragePools } from './market-maker.js';
import { v2Actions } from './v2-actions.js';
import { v3Actions } from './v3-actions.js';

export type { AssetPath, MarketPath } from './market-path.js';
export { referencePrice } from './market-path.js';
export type { TokensInput, UniswapManifest, UniswapToken, UniswapV2PairInfo, UniswapV3PoolInfo } from './manifest.js';

/**
 * Uniswap V2 and V3 from the published build files, with deep deployer liquidity at reference
 * prices (and one thin, mispriced V3 pool), traded and provided to by the wallets, and held at a
 * reference price path by an arbitrageur (market-maker.ts) so every pool of an asset agrees.
 * Reads its tokens from the `tokens` module's manifest; wallets get their tokens from that module.
 */
export const uniswapModule: ProtocolModule<UniswapManifest> = {
  name: 'uniswap',
  deploy: deployUniswap,
  actions: (manifest) => [...v2Actions(manifest), ...v3Actions(manifest)],
  market: arbitragePools,
};
