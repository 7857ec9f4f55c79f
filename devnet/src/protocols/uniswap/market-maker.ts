import { encodeFunctionData, type Address, type Hash } from 'viem';
import type { ActionContext } from '../../world/index.js';
import { erc20Abi, swapRouterAbi, v2PairAbi, v2RouterAbi, v3PoolAbi } from './abi.js';
import type { UniswapManifest, UniswapToken } from './manifest.js';
import { referencePrice } from './market-path.js';
import { priceFraction } from './prices.js';
import { encodeSqrtPriceX96 } from '@wallet-api/core/protocol-math';

/** V2 pairs charge 0.3%: inside that band no trade against the reference price pays. */
const v2FeeBand = 0.003;
const v2Fee = 0.997;
const gas = { v2Swap: 400_000n, v3Swap: 3_000_000n };

/** Base units of token1 per base unit of token0 when each is worth its reference USD price. */
export function rawPrice(usd0: number, decimals0: number, usd1: number, decimals1: number): number {
  return (usd0 / usd1) * 10 ** (decimals1 - decimals0);
}

/**
 * The V2 trade that moves a constant-product pair with reserves (r0, r1) to `target` (token1 per
 * token0, base units) once the 0.3% fee is paid; undefined while the pair is within the fee band.
 */
export function v2Rebalance(reserve0: bigint, reserve1: bigint, target: number): { zeroForOne: boolean; amountIn: bigint } | undefined {
  if (reserve0 === 0n || reserve1 === 0n || !(target > 0)) return undefined;
  const [r0, r1] = [Number(reserve0), Number(reserve1)];
  if (Math.abs(r1 / r0 / target - 1) <= v2FeeBand) return undefined;
  const k = r0 * r1;
  const next0 = Math.sqrt(k / target);
  if (next0 > r0) return { zeroForOne: true, amountIn: BigInt(Math.floor((next0 - r0) / v2Fee)) };
  return { zeroForOne: false, amountIn: BigInt(Math.floor((Math.sqrt(k * target) - r1) / v2Fee)) };
}

/**
 * The arbitrageur of the devnet market: it trades every trusted
 * pool (each V2 pair, each V3 pool but the deliberately thin one) that sits outside its fee band
 * back to the reference path of the block's time, so the same asset has one price on every pool
 * and chain, as arbitrage keeps it on a real market. V3 swaps carry the target as their price
 * limit, so the pool stops exactly there; V2 swaps are sized from the reserves. The caller mines
 * these trades in a block of their own before the wallets act (build-chain-world, live-activity);
 * the wallets' trades then move prices a little, and the next market block brings them back.
 */
export async function arbitragePools(context: ActionContext, manifest: UniswapManifest): Promise<Hash[]> {
  const { session, deployer, timestamp } = context;
  const client = session.client;
  const tokens = new Map(manifest.tokens.map((token) => [token.address.toLowerCase(), token]));
  const usd = (address: Address) => {
    const token = tokens.get(address.toLowerCase());
    return token ? referencePrice(manifest.market, token.symbol, timestamp) : undefined;
  };
  const target = (token0: Address, token1: Address) => {
    const [a, b] = [tokens.get(token0.toLowerCase()), tokens.get(token1.toLowerCase())] as [UniswapToken | undefined, UniswapToken | undefined];
    const [usd0, usd1] = [usd(token0), usd(token1)];
    return a && b && usd0 && usd1 ? rawPrice(usd0, a.decimals, usd1, b.decimals) : undefined;
  };

  const pools = manifest.v3.pools.filter((pool) => !pool.thin);
  const [reserves, slots, balances] = await Promise.all([
    Promise.all(manifest.v2.pairs.map((pair) => client.readContract({ address: pair.address, abi: v2PairAbi, functionName: 'getReserves' }))),
    Promise.all(pools.map((pool) => client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' }))),
    Promise.all(manifest.tokens.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [deployer] }))),
  ]);
  const available = new Map(manifest.tokens.map((token, index) => [token.address.toLowerCase(), balances[index]!]));
  const spend = (token: Address, amount: bigint) => {
    const key = token.toLowerCase();
    const left = available.get(key) ?? 0n;
    const used = amount < left ? amount : left;
    available.set(key, left - used);
    return used;
  };
  const deadline = BigInt(timestamp + 3600);
  const hashes: Hash[] = [];

  for (const [index, pair] of manifest.v2.pairs.entries()) {
    const price = target(pair.token0, pair.token1);
    const [reserve0, reserve1] = reserves[index]!;
    const trade = price === undefined ? undefined : v2Rebalance(reserve0, reserve1, price);
    if (!trade) continue;
    const path = trade.zeroForOne ? [pair.token0, pair.token1] : [pair.token1, pair.token0];
    const amountIn = spend(path[0]!, trade.amountIn);
    if (amountIn === 0n) continue;
    const data = encodeFunctionData({ abi: v2RouterAbi, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, path, deployer, deadline] });
    hashes.push(await session.send({ from: deployer, to: manifest.v2.router, data, gas: gas.v2Swap }));
  }

  for (const [index, pool] of pools.entries()) {
    const price = target(pool.token0, pool.token1);
    if (price === undefined) continue;
    const current = Number(slots[index]![0]) / 2 ** 96;
    const band = pool.fee / 1_000_000;
    if (Math.abs((current * current) / price - 1) <= band) continue;
    const { numerator, denominator } = priceFraction(price, 15);
    const limit = encodeSqrtPriceX96(numerator, denominator);
    // Selling token0 lowers its price in token1.
    const zeroForOne = current * current > price;
    const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    // The price limit ends the swap at the target; the amount only caps it.
    const amountIn = spend(tokenIn, (available.get(tokenIn.toLowerCase()) ?? 0n) / 4n);
    if (amountIn === 0n) continue;
    const data = encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'exactInputSingle',
      args: [{ tokenIn, tokenOut, fee: pool.fee, recipient: deployer, deadline, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: limit }],
    });
    hashes.push(await session.send({ from: deployer, to: manifest.v3.swapRouter, data, gas: gas.v3Swap }));
  }
  return hashes;
}
