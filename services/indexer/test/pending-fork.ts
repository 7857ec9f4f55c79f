import { encodeFunctionData, erc20Abi, type Address, type Hash } from 'viem';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/index.js';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { startForkAnvil, type OwnAnvil } from '../../reference-data/test/own-anvil.js';

/**
 * A fork of the world's ethereum anvil with automine off, where a world EOA holding USDC at the
 * fork's head (impersonated) sends transfers that stay in the node's pending pool until mined.
 * Nothing reaches the shared chain.
 */
export interface PendingFork {
  world: ChainWorld;
  fork: OwnAnvil;
  usdc: Address;
  sender: Address;
  /** The world's other EOAs, in manifest order. */
  others: Address[];
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Sends `amount` USDC base units from the sender to `recipient` into the pool; anvil leaves it unmined. */
  sendTransfer(recipient: Address, amount: bigint): Promise<Hash>;
}

export async function startPendingFork(): Promise<PendingFork> {
  const world = (await readManifest()).chains.find((chain) => chain.id === 'ethereum')!;
  const fork = await startForkAnvil(world.rpcUrl);
  const rpc = (method: string, params: unknown[] = []) => fork.client.request({ method: method as never, params: params as never });
  await rpc('evm_setAutomine', [false]);
  const usdc = (world.protocols.tokens as TokensManifest).tokens.find((token) => token.symbol === 'USDC')!.address as Address;
  const eoas = world.wallets.filter((wallet) => wallet.kind === 'eoa').map((wallet) => wallet.address as Address);
  const balances = await Promise.all(
    eoas.map((address) => fork.client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })),
  );
  const sender = eoas[balances.findIndex((balance) => balance > 1_000_000n)]!;
  await rpc('anvil_impersonateAccount', [sender]);
  return {
    world,
    fork,
    usdc,
    sender,
    others: eoas.filter((address) => address !== sender),
    rpc,
    async sendTransfer(recipient, amount) {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
      return (await rpc('eth_sendTransaction', [{ from: sender, to: usdc, data }])) as Hash;
    },
  };
}
