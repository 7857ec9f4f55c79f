import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import type { MarketPath } from './market-path.js';

/**
 * The part of the `tokens` module's manifest this module reads (`deployed.tokens`). Declared here
 * rather than imported so the two modules stay independent: any manifest with these fields works,
 * extra fields are ignored. `kind` decides the role of a token: `weth` is wrapped ether, `stable`
 * is priced at 1 USD, `btc` at 60,000 USD, the first three `standard` tokens at a seeded market
 * capitalisation over their supply; `fee-on-transfer` and `spam` tokens get no pools.
 */
const tokensInputSchema = z.object({
  weth: z.string().transform((value) => getAddress(value)),
  tokens: z.array(
    z.object({
      symbol: z.string(),
      address: z.string().transform((value) => getAddress(value)),
      decimals: z.number().int().min(0).max(36),
      kind: z.string(),
    }),
  ),
});

export type TokensInput = z.infer<typeof tokensInputSchema>;

export function parseTokensInput(deployed: Readonly<Record<string, unknown>>): TokensInput {
  const parsed = tokensInputSchema.safeParse(deployed.tokens);
  if (!parsed.success) throw new Error(`uniswap needs the tokens module deployed first: ${parsed.error.message}`);
  return parsed.data;
}

/** A token this module trades, with the reference price its pools were seeded at. */
export interface UniswapToken {
  symbol: string;
  address: Address;
  decimals: number;
  /** USD price the pools were initialised at (then moved by the wallets' trades). */
  priceUsd: number;
}

export interface UniswapV2PairInfo {
  address: Address;
  token0: Address;
  token1: Address;
}

export interface UniswapV3PoolInfo {
  address: Address;
  token0: Address;
  token1: Address;
  fee: number;
  tickSpacing: number;
  /** Tiny liquidity at a price away from the market: a price oracle should ignore this pool. */
  thin: boolean;
}

export interface UniswapManifest {
  weth: Address;
  tokens: UniswapToken[];
  /** Reference prices the market maker holds the pools at. */
  market: MarketPath;
  v2: {
    factory: Address;
    router: Address;
    pairs: UniswapV2PairInfo[];
  };
  v3: {
    factory: Address;
    positionManager: Address;
    positionDescriptor: Address;
    swapRouter: Address;
    quoter: Address;
    pools: UniswapV3PoolInfo[];
  };
}
