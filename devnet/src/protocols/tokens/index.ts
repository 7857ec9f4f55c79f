import type { ProtocolModule } from '../../world/index.js';
import { tokensActions } from './actions.js';
import { deployTokens } from './deploy.js';
import { fundWallet } from './fund.js';
import type { TokensManifest } from './manifest.js';

export { tokenBySymbol, type TokenInfo, type TokenKind, type TokensManifest } from './manifest.js';
export { knownContracts } from './known-contracts.js';

/**
 * WETH9, stablecoins, WBTC-style and ordinary ERC-20s, a fee-on-transfer token and spam tokens;
 * deployed first, since other modules trade and lend these tokens (see `TokensManifest`).
 */
export const tokensModule: ProtocolModule<TokensManifest> = {
  name: 'tokens',
  deploy: deployTokens,
  fund: fundWallet,
  actions: tokensActions,
};
