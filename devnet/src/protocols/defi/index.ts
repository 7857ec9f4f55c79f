import type { ProtocolModule } from '../../world/index.js';
import { defiActions } from './actions.js';
import { deployDefi } from './deploy.js';
import type { DefiManifest } from './manifest.js';

export type { DefiLendingMarketInfo, DefiManifest, DefiTokenInfo, DefiVaultInfo } from './manifest.js';
export type { TokenKind, TokenRef, TokensSection } from './tokens-section.js';

/**
 * ERC-4626 vaults with streamed yield, a staking contract with flexible and locked stakes, and a
 * Compound-style lending pool, all compiled from contracts/defi. Depends on the `tokens` module.
 */
export const defiModule: ProtocolModule<DefiManifest> = {
  name: 'defi',
  deploy: deployDefi,
  actions: defiActions,
};
