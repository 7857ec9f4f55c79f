import { multicall3Address, multicall3Deployer } from '@wallet-api/core/evm';
import type { ChainSession } from '../chain/index.js';
import type { Artifacts } from '../compile/index.js';

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
