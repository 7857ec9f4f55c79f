import type { ProtocolModule } from '../../world/index.js';
import { smartWalletsActions } from './actions.js';
import { deploySmartWallets } from './deploy.js';
import type { SmartWalletsManifest } from './manifest.js';

export type { SmartAccountInfo, SmartWalletRecord, SmartWalletsManifest } from './manifest.js';
export { safeTransactionHash, approvedHashSignatures } from './safe-transactions.js';
export { userOperationHash } from './user-operations.js';

/**
 * Safe-style multisigs (created by wallets, threshold 2, executed through on-chain approvals) and
 * ERC-4337 smart accounts (counterfactual, deployed by their first user operation, bundled by the
 * deployer), compiled from contracts/smart-wallets. Depends on the `tokens` module. Its manifest's
 * `wallets` lists every smart wallet for the world builder.
 */
export const smartWalletsModule: ProtocolModule<SmartWalletsManifest> = {
  name: 'smartWallets',
  deploy: deploySmartWallets,
  actions: smartWalletsActions,
};
