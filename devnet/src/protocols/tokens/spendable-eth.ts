import { parseEther, type Address } from 'viem';
import type { ActionContext } from '../../world/index.js';

/** ETH a wallet keeps back for gas when it sends, wraps or spends ETH. */
export const gasReserve = parseEther('0.05');

/** The wallet's ETH at the latest block less the gas reserve. */
export async function spendableEth(context: ActionContext, wallet: Address): Promise<bigint> {
  const balance = await context.session.client.getBalance({ address: wallet });
  return balance > gasReserve ? balance - gasReserve : 0n;
}
