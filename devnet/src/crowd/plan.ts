import { getAddress, keccak256, parseEther, slice, toHex, type Address } from 'viem';
import { createRng, type Rng } from '../world/index.js';
import { humanAmount, logUniformUnits } from '../protocols/tokens/amounts.js';
import { startingHoldings } from '../protocols/tokens/fund.js';
import { tokenBySymbol, type TokensManifest } from '../protocols/tokens/index.js';
import type { UniswapManifest, UniswapV3PoolInfo } from '../protocols/uniswap/index.js';

/** A wallet of the crowd: funded once, like a world wallet joining, and acting at most once. */
export interface CrowdWallet {
  address: Address;
  eth: bigint;
  tokens: { token: Address; amount: bigint }[];
  /** A wide Uniswap V3 position minted to the wallet, its ticks chosen around the pool's price when built. */
  position?: { pool: UniswapV3PoolInfo; amount0: bigint; amount1: bigint; ticksBelow: number; ticksAbove: number };
  /** A part of one of its tokens sent to another crowd wallet after funding. */
  send?: { token: Address; to: Address; amount: bigint };
}

export interface CrowdPlanOptions {
  seed: string;
  count: number;
  tokens: TokensManifest;
  uniswap: UniswapManifest;
}

/** Whole-token ranges of a position's two deposits; tokens not listed are held as a joining wallet holds them. */
const depositRanges: Record<string, { min: number; max: number }> = {
  WETH: { min: 0.05, max: 20 },
  USDC: { min: 100, max: 50_000 },
  DAI: { min: 100, max: 50_000 },
};

const positionChance = 0.1;
const sendChance = 0.3;

/**
 * The address of crowd wallet `index`: keyless (anvil impersonates any sender), distinct per seed,
 * and never one of the world's wallets, whose addresses come from private keys.
 */
export function crowdAddress(seed: string, index: number): Address {
  return getAddress(slice(keccak256(toHex(`${seed}/crowd/${index}`)), 12));
}

function depositOf(rng: Rng, tokens: TokensManifest, symbol: string, address: Address): bigint {
  const range = depositRanges[symbol] ?? startingHoldings.find((holding) => holding.symbol === symbol);
  if (!range) throw new Error(`no deposit range for ${symbol} (${address})`);
  const decimals = tokens.tokens.find((token) => token.address === address)?.decimals ?? 18;
  return humanAmount(rng, logUniformUnits(rng, range.min, range.max, decimals));
}

/**
 * `count` wallets, each holding ether and a random handful of the tokens a joining world wallet
 * gets; one in ten also holds a wide position in a liquid Uniswap V3 pool, and three in ten send
 * part of a token to another crowd wallet. The same seed always plans the same crowd.
 */
export function planCrowd({ seed, count, tokens, uniswap }: CrowdPlanOptions): CrowdWallet[] {
  const rng = createRng(`${seed}/crowd`);
  const addresses = Array.from({ length: count }, (_, index) => crowdAddress(seed, index));
  const pools = uniswap.v3.pools.filter((pool) => !pool.thin);
  const symbolOf = (address: Address) => uniswap.tokens.find((token) => token.address === address)?.symbol ?? '';
  return addresses.map((address, index) => {
    const chosen = startingHoldings.filter((holding) => rng.chance(holding.chance));
    const held = (chosen.length > 0 ? chosen : [startingHoldings[0]!]).map((holding) => {
      const token = tokenBySymbol(tokens, holding.symbol);
      return { token: token.address, amount: humanAmount(rng, logUniformUnits(rng, holding.min, holding.max, token.decimals)) };
    });
    const wallet: CrowdWallet = { address, eth: humanAmount(rng, logUniformUnits(rng, 0.01, 5, 18)) + parseEther('0.001'), tokens: held };
    if (pools.length > 0 && rng.chance(positionChance)) {
      const pool = rng.pick(pools);
      wallet.position = {
        pool,
        amount0: depositOf(rng, tokens, symbolOf(pool.token0), pool.token0),
        amount1: depositOf(rng, tokens, symbolOf(pool.token1), pool.token1),
        ticksBelow: rng.int(1_000, 9_000),
        ticksAbove: rng.int(1_000, 9_000),
      };
    }
    if (count > 1 && rng.chance(sendChance)) {
      const { token, amount } = rng.pick(held);
      const to = addresses[(index + rng.int(1, count - 1)) % count]!;
      wallet.send = { token, to, amount: amount / BigInt(rng.int(2, 10)) };
    }
    return wallet;
  });
}
