import type { Address } from 'viem';
import type { ActionContext } from '../../world/index.js';

/** Another wallet of the world to send to, or undefined while the wallet is alone. */
export function otherWallet(context: ActionContext, wallet: Address): Address | undefined {
  const others = context.wallets.filter((candidate) => candidate !== wallet);
  return others.length > 0 ? context.rng.pick(others) : undefined;
}
