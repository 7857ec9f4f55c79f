import type { Address, PublicClient } from 'viem';
import type { ChainWorld } from '../manifest/index.js';
import type { DefiManifest } from '../protocols/defi/index.js';
import type { NftsManifest } from '../protocols/nfts/index.js';
import type { TokensManifest } from '../protocols/tokens/index.js';
import type { UniswapManifest } from '../protocols/uniswap/index.js';
import { readDefiHoldings, type DefiHoldings } from './defi.js';
import { nftHoldings, type NftHolding } from './nfts.js';
import { nativeBalance, tokenBalances, type TokenBalance } from './tokens.js';
import { readUniswapV2Shares, readUniswapV3Positions, type UniswapV2Share, type UniswapV3Position } from './uniswap.js';

export { nativeBalance, tokenBalances, type TokenBalance } from './tokens.js';
export { nftHoldings, type NftHolding } from './nfts.js';
export { readUniswapV2Shares, readUniswapV3Positions, type UniswapV2Share, type UniswapV3Position } from './uniswap.js';
export { readDefiHoldings, type DefiHoldings } from './defi.js';
export { marketAssets, type MarketAsset } from './market.js';
export { readSmartWallets, readSafeState, readSmartAccountState } from './smart-wallets.js';

/** Everything a wallet holds on one chain at the end of one block, read from the chain itself. */
export interface WalletTruth {
  blockNumber: bigint;
  native: bigint;
  /** ERC-20 balances of every token the world deployed (WETH, spam, reward and vault-share tokens included). */
  tokens: TokenBalance[];
  nfts: NftHolding[];
  uniswapV2: UniswapV2Share[];
  uniswapV3: UniswapV3Position[];
  defi: DefiHoldings;
}

export type TruthReader = Pick<PublicClient, 'readContract' | 'getBalance' | 'getBlock' | 'getCode'>;

/** All ERC-20s of a world: the tokens module's plus those other modules issue (reward token, vault shares). */
export function worldTokens(chain: ChainWorld): TokensManifest {
  const tokens = chain.protocols.tokens as TokensManifest;
  const defi = chain.protocols.defi as DefiManifest;
  return { ...tokens, tokens: [...tokens.tokens, ...defi.tokens.map((token) => ({ ...token, kind: 'standard' as const }))] };
}

export async function readWalletTruth(client: TruthReader, chain: ChainWorld, wallet: Address, blockNumber: bigint): Promise<WalletTruth> {
  const [native, tokens, nfts, uniswapV2, uniswapV3, defi] = await Promise.all([
    nativeBalance(client, wallet, blockNumber),
    tokenBalances(client, worldTokens(chain), wallet, blockNumber),
    nftHoldings(client, chain.protocols.nfts as NftsManifest, wallet, blockNumber),
    readUniswapV2Shares(client, chain.protocols.uniswap as UniswapManifest, wallet, blockNumber),
    readUniswapV3Positions(client, chain.protocols.uniswap as UniswapManifest, wallet, blockNumber),
    readDefiHoldings(client, chain.protocols.defi as DefiManifest, wallet, blockNumber),
  ]);
  return { blockNumber, native, tokens, nfts, uniswapV2, uniswapV3, defi };
}
export {
  multiplierAt,
  readScaledUiAmount,
  solanaChainTime,
  solanaDisplayAmount,
  solanaLamports,
  solanaTokenHoldings,
  type SolanaTokenHolding,
  type SolanaTruthRpc,
} from './solana.js';
