import { encodePacked, keccak256, zeroAddress, type Address, type PublicClient } from 'viem';
import { erc20Abi, positionManagerAbi, v2FactoryAbi, v2PairAbi, v3FactoryAbi, v3PoolAbi } from '../protocols/uniswap/abi.js';
import type { UniswapManifest } from '../protocols/uniswap/manifest.js';
import { protocolFeeLiquidity, v2BurnAmounts } from '../protocols/uniswap/v2-math.js';
import { addOwed, amountsForBurn, feeGrowthInside, feesEarned } from '@wallet-api/core/protocol-math';

/*
 * What a wallet holds in Uniswap at a block, read straight from the chain (plain eth_calls at that
 * block) and computed with the contracts' own integer arithmetic, so every amount is what the
 * contracts would pay if the wallet withdrew everything at that block.
 */

type ReadClient = Pick<PublicClient, 'readContract'>;

export interface UniswapV2Share {
  pair: Address;
  token0: Address;
  token1: Address;
  /** LP tokens the wallet holds. */
  balance: bigint;
  totalSupply: bigint;
  reserve0: bigint;
  reserve1: bigint;
  /** What burning the whole balance pays: balance * pair's token balance / totalSupply, rounded down. */
  amount0: bigint;
  amount1: bigint;
}

/** The wallet's share of every V2 pair of the manifest where it holds LP tokens. */
export async function readUniswapV2Shares(client: ReadClient, manifest: UniswapManifest, wallet: Address, blockNumber: bigint): Promise<UniswapV2Share[]> {
  const read = { blockNumber } as const;
  const balances = await Promise.all(
    manifest.v2.pairs.map((pair) => client.readContract({ ...read, address: pair.address, abi: v2PairAbi, functionName: 'balanceOf', args: [wallet] })),
  );
  const held = manifest.v2.pairs.map((pair, index) => ({ pair, balance: balances[index]! })).filter((entry) => entry.balance > 0n);
  if (held.length === 0) return [];
  const feeTo = await client.readContract({ ...read, address: manifest.v2.factory, abi: v2FactoryAbi, functionName: 'feeTo' });
  return Promise.all(
    held.map(async ({ pair, balance }) => {
      const [totalSupply, [reserve0, reserve1], balance0, balance1, kLast] = await Promise.all([
        client.readContract({ ...read, address: pair.address, abi: v2PairAbi, functionName: 'totalSupply' }),
        client.readContract({ ...read, address: pair.address, abi: v2PairAbi, functionName: 'getReserves' }),
        client.readContract({ ...read, address: pair.token0, abi: erc20Abi, functionName: 'balanceOf', args: [pair.address] }),
        client.readContract({ ...read, address: pair.token1, abi: erc20Abi, functionName: 'balanceOf', args: [pair.address] }),
        client.readContract({ ...read, address: pair.address, abi: v2PairAbi, functionName: 'kLast' }),
      ]);
      // burn first mints the protocol's fee share (only while feeTo is set), diluting every holder.
      const feeLiquidity = protocolFeeLiquidity(feeTo !== zeroAddress, kLast, reserve0, reserve1, totalSupply);
      const { amount0, amount1 } = v2BurnAmounts({ liquidity: balance, totalSupply, balance0, balance1, feeLiquidity });
      return { pair: pair.address, token0: pair.token0, token1: pair.token1, balance, totalSupply, reserve0, reserve1, amount0, amount1 };
    }),
  );
}

export interface UniswapV3Position {
  tokenId: bigint;
  pool: Address;
  token0: Address;
  token1: Address;
  fee: number;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
  /** The pool's price and tick at the block. */
  sqrtPriceX96: bigint;
  tick: number;
  inRange: boolean;
  /** Principal: what decreaseLiquidity of all the liquidity pays at the block (rounded down, as the pool does). */
  amount0: bigint;
  amount1: bigint;
  /** Stored in the position manager: fees up to its last update plus principal already withdrawn but not collected. */
  tokensOwed0: bigint;
  tokensOwed1: bigint;
  /** Fees earned since the position manager's last update, from the pool's fee growth inside the range. */
  pendingFees0: bigint;
  pendingFees1: bigint;
  /** What collect() pays at the block: tokensOwed + pendingFees, capped by what the pool holds for the range. */
  uncollected0: bigint;
  uncollected1: bigint;
}

/** Every V3 position NFT the wallet owns at the block, valued at the pool's price then. */
export async function readUniswapV3Positions(
  client: ReadClient,
  manifest: UniswapManifest,
  wallet: Address,
  blockNumber: bigint,
): Promise<UniswapV3Position[]> {
  const read = { blockNumber } as const;
  const positionManager = manifest.v3.positionManager;
  const count = await client.readContract({ ...read, address: positionManager, abi: positionManagerAbi, functionName: 'balanceOf', args: [wallet] });
  const tokenIds = await Promise.all(
    Array.from({ length: Number(count) }, (_, index) =>
      client.readContract({ ...read, address: positionManager, abi: positionManagerAbi, functionName: 'tokenOfOwnerByIndex', args: [wallet, BigInt(index)] }),
    ),
  );
  return Promise.all(
    tokenIds.map(async (tokenId): Promise<UniswapV3Position> => {
      const [, , token0, token1, fee, tickLower, tickUpper, liquidity, insideLast0, insideLast1, tokensOwed0, tokensOwed1] = await client.readContract({
        ...read,
        address: positionManager,
        abi: positionManagerAbi,
        functionName: 'positions',
        args: [tokenId],
      });
      const pool = await client.readContract({
        ...read,
        address: manifest.v3.factory,
        abi: v3FactoryAbi,
        functionName: 'getPool',
        args: [token0, token1, fee],
      });
      // The pool keeps one position per (owner, range): the position manager's aggregate of all its NFTs there.
      const poolPositionKey = keccak256(encodePacked(['address', 'int24', 'int24'], [positionManager, tickLower, tickUpper]));
      const [[sqrtPriceX96, tick], global0, global1, lower, upper, poolPosition] = await Promise.all([
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'slot0' }),
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'feeGrowthGlobal0X128' }),
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'feeGrowthGlobal1X128' }),
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'ticks', args: [tickLower] }),
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'ticks', args: [tickUpper] }),
        client.readContract({ ...read, address: pool, abi: v3PoolAbi, functionName: 'positions', args: [poolPositionKey] }),
      ]);
      const inside = feeGrowthInside(
        tick,
        tickLower,
        tickUpper,
        { feeGrowth0X128: global0, feeGrowth1X128: global1 },
        { feeGrowth0X128: lower[2], feeGrowth1X128: lower[3] },
        { feeGrowth0X128: upper[2], feeGrowth1X128: upper[3] },
      );
      const pendingFees0 = feesEarned(inside.feeGrowth0X128, insideLast0, liquidity);
      const pendingFees1 = feesEarned(inside.feeGrowth1X128, insideLast1, liquidity);
      // collect() only pokes the pool (burn of 0) when the NFT has liquidity; the pool then pays at
      // most what it owes the whole range, which rounding can leave a few wei below the NFT's share.
      const [poolLiquidity, poolInsideLast0, poolInsideLast1, poolOwed0, poolOwed1] = poolPosition;
      const poolCap0 = liquidity > 0n ? addOwed(poolOwed0, feesEarned(inside.feeGrowth0X128, poolInsideLast0, poolLiquidity)) : poolOwed0;
      const poolCap1 = liquidity > 0n ? addOwed(poolOwed1, feesEarned(inside.feeGrowth1X128, poolInsideLast1, poolLiquidity)) : poolOwed1;
      const owed0 = addOwed(tokensOwed0, pendingFees0);
      const owed1 = addOwed(tokensOwed1, pendingFees1);
      const { amount0, amount1 } = amountsForBurn(sqrtPriceX96, tick, tickLower, tickUpper, liquidity);
      return {
        tokenId,
        pool,
        token0,
        token1,
        fee,
        tickLower,
        tickUpper,
        liquidity,
        sqrtPriceX96,
        tick,
        inRange: tick >= tickLower && tick < tickUpper,
        amount0,
        amount1,
        tokensOwed0,
        tokensOwed1,
        pendingFees0,
        pendingFees1,
        uncollected0: owed0 < poolCap0 ? owed0 : poolCap0,
        uncollected1: owed1 < poolCap1 ? owed1 : poolCap1,
      };
    }),
  );
}
