import type { Address, PublicClient } from 'viem';
import { erc20Abi } from '../protocols/tokens/abis.js';
import type { TokensManifest } from '../protocols/tokens/manifest.js';

/** The reads a truth reader needs; any viem public client (or the devnet's test client) has them. */
export type TruthClient = Pick<PublicClient, 'readContract' | 'getBalance'>;

export interface TokenBalance {
  address: Address;
  symbol: string;
  decimals: number;
  balance: bigint;
}

/** Wei held by `wallet` at the end of block `blockNumber`. */
export async function nativeBalance(client: TruthClient, wallet: Address, blockNumber: bigint): Promise<bigint> {
  return client.getBalance({ address: wallet, blockNumber });
}

/**
 * Non-zero balances of every token in the manifest (WETH and spam included) at the end of block
 * `blockNumber`, in manifest order, read with `balanceOf` at that block.
 */
export async function tokenBalances(client: TruthClient, manifest: TokensManifest, wallet: Address, blockNumber: bigint): Promise<TokenBalance[]> {
  const balances = await Promise.all(
    manifest.tokens.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber })),
  );
  return manifest.tokens
    .map((token, index) => ({ address: token.address, symbol: token.symbol, decimals: token.decimals, balance: balances[index]! }))
    .filter((entry) => entry.balance > 0n);
}
