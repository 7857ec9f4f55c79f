import type { Address } from 'viem';
import type { ChainSession } from '../chain/index.js';
import type { Artifacts } from '../compile/index.js';

/** Multicall3's address on every production chain: the first contract its keyless deployer created. */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The account whose nonce-0 deployment put Multicall3 at that address on every chain. */
export const multicall3Deployer: Address = '0x05f32B3cC3888453ff71B01135B34FF8e41263F2';

/**
 * Deploys Multicall3 the way production chains got it, by a transaction from its deployer at
 * nonce 0, so readers that batch through it (viem's multicall) find it where they look on a real
 * chain. Fails rather than deploy it anywhere else.
 */
export async function deployMulticall3(session: ChainSession, artifacts: Artifacts, timestamp: number): Promise<void> {
  await session.setBalance(multicall3Deployer, 10n ** 18n);
  const address = await session.deploy(artifacts.Multicall3!, [], multicall3Deployer, timestamp);
  if (address.toLowerCase() !== multicall3Address.toLowerCase()) {
    throw new Error(`Multicall3 landed at ${address}, not ${multicall3Address}: its deployer had sent transactions before`);
  }
}
