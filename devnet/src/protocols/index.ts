import type { ProtocolModule } from '../world/index.js';
import { defiModule } from './defi/index.js';
import { nftsModule } from './nfts/index.js';
import { smartWalletsModule } from './smart-wallets/index.js';
import { tokensModule } from './tokens/index.js';
import { uniswapModule } from './uniswap/index.js';

/** Every protocol of the devnet world, in deployment order (later modules read earlier manifests). */
// biome-ignore lint/suspicious/noExplicitAny: modules differ in their manifest type; each is used only with its own
export const worldModules: readonly ProtocolModule<any>[] = [tokensModule, nftsModule, uniswapModule, defiModule, smartWalletsModule];
