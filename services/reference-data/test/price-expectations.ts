// What the prices should be, computed in the test from the chain itself: each pool's state read
// by eth_call at a block (getReserves; slot0 and liquidity), then the rule of issue 5 written out
// again here, independently of the service's code: per token, its pools against a stablecoin or
// WETH holding at least half the threshold on the quote side; their median price weighted by
// sqrt(token held x quote held in USD), which no swap changes; of those, the ones within the
// deviation bound of it and holding at least half the threshold of the token valued at it; their
// mean weighted the same way.
import { parseAbi, type Address, type PublicClient } from 'viem';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { defaultMaxDeviation, type RegistryConfig } from '../src/registry/registry-config.js';

export interface TestPool {
  kind: 'v2' | 'v3';
  address: string;
  token0: string;
  token1: string;
}

export interface PoolReading extends TestPool {
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint;
  liquidity: bigint;
}

export interface Routing {
  stablecoins: ReadonlySet<string>;
  weth: string;
  minLiquidityUsd: number;
  /** The registry's `max_deviation`; absent, its default. */
  maxDeviation?: number;
  decimals: ReadonlyMap<string, number>;
}

const poolAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
]);

/** The pools that exist at the block, in their state there. */
export async function readPools(client: PublicClient, pools: readonly TestPool[], blockNumber: bigint): Promise<PoolReading[]> {
  const existing = (
    await Promise.all(pools.map(async (pool) => ((await client.getCode({ address: pool.address as Address, blockNumber })) ? pool : undefined)))
  ).filter((pool): pool is TestPool => pool !== undefined);
  return Promise.all(
    existing.map(async (pool) => {
      const address = pool.address as Address;
      if (pool.kind === 'v2') {
        const [reserve0, reserve1] = await client.readContract({ address, abi: poolAbi, functionName: 'getReserves', blockNumber });
        return { ...pool, reserve0, reserve1, sqrtPriceX96: 0n, liquidity: 0n };
      }
      const [[sqrtPriceX96], liquidity] = await Promise.all([
        client.readContract({ address, abi: poolAbi, functionName: 'slot0', blockNumber }),
        client.readContract({ address, abi: poolAbi, functionName: 'liquidity', blockNumber }),
      ]);
      const q96 = 2n ** 96n;
      // The virtual reserves of the in-range liquidity: L / sqrtP and L * sqrtP.
      return {
        ...pool,
        sqrtPriceX96,
        liquidity,
        reserve0: sqrtPriceX96 === 0n ? 0n : (liquidity * q96) / sqrtPriceX96,
        reserve1: (liquidity * sqrtPriceX96) / q96,
      };
    }),
  );
}

/** Whole units of `other` per whole unit of `token` in the pool, and the pool's whole units of each. */
function quote(
  pool: PoolReading,
  token: string,
  other: string,
  decimals: ReadonlyMap<string, number>,
): { price: number; otherDepth: number; tokenDepth: number } | undefined {
  const [d0, d1] = [decimals.get(pool.token0)!, decimals.get(pool.token1)!];
  let oneIn0: number;
  if (pool.kind === 'v3') {
    if (pool.sqrtPriceX96 === 0n) return undefined;
    oneIn0 = (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2 * 10 ** (d0 - d1);
  } else {
    if (pool.reserve0 === 0n || pool.reserve1 === 0n) return undefined;
    oneIn0 = Number(pool.reserve1) / 10 ** d1 / (Number(pool.reserve0) / 10 ** d0);
  }
  const [amount0, amount1] = [Number(pool.reserve0) / 10 ** d0, Number(pool.reserve1) / 10 ** d1];
  if (pool.token0 === token && pool.token1 === other) return { price: oneIn0, otherDepth: amount1, tokenDepth: amount0 };
  if (pool.token1 === token && pool.token0 === other) return { price: 1 / oneIn0, otherDepth: amount0, tokenDepth: amount1 };
  return undefined;
}

function robust(token: string, pools: readonly PoolReading[], unitOf: (other: string) => number | undefined, routing: Routing): number | undefined {
  const half = routing.minLiquidityUsd / 2;
  const bound = routing.maxDeviation ?? defaultMaxDeviation;
  const candidates: { usd: number; depth: number; weight: number }[] = [];
  for (const pool of pools) {
    if (pool.token0 !== token && pool.token1 !== token) continue;
    const other = pool.token0 === token ? pool.token1 : pool.token0;
    const unit = unitOf(other);
    const quoted = unit === undefined ? undefined : quote(pool, token, other, routing.decimals);
    if (unit === undefined || !quoted) continue;
    if (quoted.otherDepth * unit < half || quoted.otherDepth === 0 || quoted.tokenDepth === 0) continue;
    candidates.push({ usd: quoted.price * unit, depth: quoted.tokenDepth, weight: Math.sqrt(quoted.tokenDepth * quoted.otherDepth * unit) });
  }
  if (candidates.length === 0) return undefined;
  const byPrice = [...candidates].sort((a, b) => a.usd - b.usd);
  const total = byPrice.reduce((sum, candidate) => sum + candidate.weight, 0);
  let below = 0;
  let median = byPrice[byPrice.length - 1]!.usd;
  for (const candidate of byPrice) {
    below += candidate.weight;
    if (below >= total / 2) {
      median = candidate.usd;
      break;
    }
  }
  const kept = candidates.filter((candidate) => Math.abs(candidate.usd - median) <= bound * median && candidate.depth * median >= half);
  const weights = kept.reduce((sum, candidate) => sum + candidate.weight, 0);
  return weights > 0 ? kept.reduce((sum, candidate) => sum + candidate.weight * candidate.usd, 0) / weights : undefined;
}

/** USD price of every token of the pools that has one; stablecoins are 1. */
export function expectedPrices(pools: readonly PoolReading[], routing: Routing): Map<string, number> {
  const prices = new Map<string, number>();
  for (const stable of routing.stablecoins) prices.set(stable, 1);
  const wethPrice = robust(routing.weth, pools, (other) => (routing.stablecoins.has(other) ? 1 : undefined), routing);
  if (wethPrice !== undefined) prices.set(routing.weth, wethPrice);
  const tokens = new Set(pools.flatMap((pool) => [pool.token0, pool.token1]));
  for (const token of tokens) {
    if (prices.has(token)) continue;
    const price = robust(token, pools, (other) => (routing.stablecoins.has(other) ? 1 : other === routing.weth ? wethPrice : undefined), routing);
    if (price !== undefined) prices.set(token, price);
  }
  return prices;
}

/** Relative difference, for the 1e-9 tolerance. */
export function relativeError(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.abs(expected);
}

/** The routing of a chain's prices from its registry `pricing` entry and the world's token decimals. */
export function routingOf(registry: RegistryConfig, chainId: string, tokens: readonly { address: string; decimals: number }[]): Routing {
  const pricing = registry.pricing[chainId]!;
  return {
    stablecoins: new Set(pricing.usd_stablecoins),
    weth: pricing.wrapped_native,
    minLiquidityUsd: pricing.min_liquidity_usd,
    maxDeviation: pricing.max_deviation,
    decimals: new Map(tokens.map((token) => [token.address.toLowerCase(), token.decimals])),
  };
}

/** Every V2 pair and V3 pool of the world's Uniswap deployment: what the registry lets the service trust. */
export function uniswapPools(uniswap: UniswapManifest): TestPool[] {
  const lower = (address: string) => address.toLowerCase();
  return [
    ...uniswap.v2.pairs.map((pair) => ({ kind: 'v2' as const, address: lower(pair.address), token0: lower(pair.token0), token1: lower(pair.token1) })),
    ...uniswap.v3.pools.map((pool) => ({ kind: 'v3' as const, address: lower(pool.address), token0: lower(pool.token0), token1: lower(pool.token1) })),
  ];
}
