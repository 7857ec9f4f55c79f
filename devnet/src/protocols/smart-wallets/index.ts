import type { ProtocolModule } from '../../world/index.js';
import { smartWalletsActions } from './actions.js';
import { deploySmartWallets } from './deploy.js';
import type { SmartWalletsManifest } from './manifest.js';
import { readSmartWallets } from '../../truth/smart-wallets.js';

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
  // Actions rebuild `wallets` from the chain as they go; a safe created in the last blocks, or one
  // whose creation a reorg dropped, is only settled by a read at the final block.
  async finalize(context, deployed) {
    const latest = await context.session.client.getBlockNumber();
    deployed.wallets = await readSmartWallets(context.session.client, deployed, latest);
  },
};
