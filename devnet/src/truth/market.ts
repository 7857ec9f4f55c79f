import type { ChainWorld } from '../manifest/index.js';
import { referencePrice, type UniswapManifest } from '../protocols/uniswap/index.js';

/** An asset of the devnet market and its implementation on each chain of one network. */
export interface MarketAsset {
  symbol: string;
  implementations: { chainId: string; address: string }[];
  /** The reference USD price the market held at a time. */
  reference(time: number): number;
}

const uniswapOf = (chain: ChainWorld) => chain.protocols.uniswap as UniswapManifest;

/** The market's assets with their implementations on `chains` (one network's) and reference path. */
export function marketAssets(chains: readonly ChainWorld[]): MarketAsset[] {
  const market = uniswapOf(chains[0]!).market;
  return market.assets.map((asset) => ({
    symbol: asset.symbol,
    implementations: chains.flatMap((chain) => {
      const token = uniswapOf(chain).tokens.find((entry) => entry.symbol === asset.symbol);
      return token ? [{ chainId: chain.id, address: token.address.toLowerCase() }] : [];
    }),
    reference: (time) => referencePrice(market, asset.symbol, time)!,
  }));
}
