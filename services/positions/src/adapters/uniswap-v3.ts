import { addOwed, amountsForBurn, feeGrowthInside, feesEarned } from '@wallet-api/core/protocol-math';
import { encodePacked, keccak256, parseAbi, type Address } from 'viem';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ProtocolPosition } from './protocol-position.js';

const positionManagerAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
]);

const factoryAbi = parseAbi(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)']);

const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function feeGrowthGlobal0X128() view returns (uint256)',
  'function feeGrowthGlobal1X128() view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
  'function positions(bytes32 key) view returns (uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
]);

const lower = (address: string) => address.toLowerCase() as Address;
const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Uniswap V3 liquidity NFTs the wallet owns: per NFT, the principal decreaseLiquidity of all its
 * liquidity would pay at the pool's current price (a deposit per pool token), and what collect()
 * would pay on top (tokens owed plus fees earned since the last update, capped by what the pool
 * owes the range) as reward rows belonging to the deposit of the same token.
 */
export function createUniswapV3Adapter(deployment: { factory: string; positionManager: string }): ProtocolAdapter {
  const factory = lower(deployment.factory);
  const positionManager = lower(deployment.positionManager);

  return {
    async read({ reader, wallet, blockNumber }) {
      const read = { blockNumber, allowFailure: false } as const;
      const [count] = await reader.multicall({
        ...read,
        contracts: [{ address: positionManager, abi: positionManagerAbi, functionName: 'balanceOf', args: [wallet] }],
      });
      if (count === 0n) return [];
      const tokenIds = await reader.multicall({
        ...read,
        contracts: Array.from(
          { length: Number(count) },
          (_, index) =>
            ({
              address: positionManager,
              abi: positionManagerAbi,
              functionName: 'tokenOfOwnerByIndex',
              args: [wallet, BigInt(index)],
            }) as const,
        ),
      });
      const stored = await reader.multicall({
        ...read,
        contracts: tokenIds.map((tokenId) => ({ address: positionManager, abi: positionManagerAbi, functionName: 'positions', args: [tokenId] }) as const),
      });
      const nfts = tokenIds.map((tokenId, index) => {
        const [, , token0, token1, fee, tickLower, tickUpper, liquidity, insideLast0, insideLast1, tokensOwed0, tokensOwed1] = stored[index]!;
        return {
          tokenId,
          token0: lower(token0),
          token1: lower(token1),
          fee,
          tickLower,
          tickUpper,
          liquidity,
          insideLast0,
          insideLast1,
          tokensOwed0,
          tokensOwed1,
        };
      });

      const poolKeys = [...new Set(nfts.map((nft) => `${nft.token0}:${nft.token1}:${nft.fee}`))];
      const poolAddresses = await reader.multicall({
        ...read,
        contracts: poolKeys.map((key) => {
          const [token0, token1, fee] = key.split(':') as [Address, Address, string];
          return { address: factory, abi: factoryAbi, functionName: 'getPool', args: [token0, token1, Number(fee)] } as const;
        }),
      });
      const poolOf = new Map(poolKeys.map((key, index) => [key, lower(poolAddresses[index]!)]));
      const pools = [...new Set(poolOf.values())];

      const [poolStates, rangeStates] = await Promise.all([
        reader.multicall({
          ...read,
          contracts: pools.flatMap((pool) => [
            { address: pool, abi: poolAbi, functionName: 'slot0' } as const,
            { address: pool, abi: poolAbi, functionName: 'feeGrowthGlobal0X128' } as const,
            { address: pool, abi: poolAbi, functionName: 'feeGrowthGlobal1X128' } as const,
          ]),
        }),
        reader.multicall({
          ...read,
          contracts: nfts.flatMap((nft) => {
            const pool = poolOf.get(`${nft.token0}:${nft.token1}:${nft.fee}`)!;
            // The pool keeps one position per (owner, range): the position manager's aggregate of its NFTs there.
            const key = keccak256(encodePacked(['address', 'int24', 'int24'], [positionManager, nft.tickLower, nft.tickUpper]));
            return [
              { address: pool, abi: poolAbi, functionName: 'ticks', args: [nft.tickLower] } as const,
              { address: pool, abi: poolAbi, functionName: 'ticks', args: [nft.tickUpper] } as const,
              { address: pool, abi: poolAbi, functionName: 'positions', args: [key] } as const,
            ];
          }),
        }),
      ]);
      const poolState = new Map(
        pools.map((pool, index) => {
          const [slot0, global0, global1] = poolStates.slice(index * 3, index * 3 + 3) as [readonly [bigint, number, ...unknown[]], bigint, bigint];
          return [pool, { sqrtPriceX96: slot0[0], tick: slot0[1], global0, global1 }];
        }),
      );

      return nfts.flatMap((nft, index): ProtocolPosition[] => {
        const pool = poolOf.get(`${nft.token0}:${nft.token1}:${nft.fee}`)!;
        const { sqrtPriceX96, tick, global0, global1 } = poolState.get(pool)!;
        const [lowerTick, upperTick, poolPosition] = rangeStates.slice(index * 3, index * 3 + 3) as [
          readonly [bigint, bigint, bigint, bigint, ...unknown[]],
          readonly [bigint, bigint, bigint, bigint, ...unknown[]],
          readonly [bigint, bigint, bigint, bigint, bigint],
        ];
        const inside = feeGrowthInside(
          tick,
          nft.tickLower,
          nft.tickUpper,
          { feeGrowth0X128: global0, feeGrowth1X128: global1 },
          { feeGrowth0X128: lowerTick[2], feeGrowth1X128: lowerTick[3] },
          { feeGrowth0X128: upperTick[2], feeGrowth1X128: upperTick[3] },
        );
        const owed0 = addOwed(nft.tokensOwed0, feesEarned(inside.feeGrowth0X128, nft.insideLast0, nft.liquidity));
        const owed1 = addOwed(nft.tokensOwed1, feesEarned(inside.feeGrowth1X128, nft.insideLast1, nft.liquidity));
        // collect() pokes the pool only while the NFT has liquidity; the pool then pays at most what
        // it owes the whole range, which rounding can leave a few wei below the NFT's share.
        const [poolLiquidity, poolInsideLast0, poolInsideLast1, poolOwed0, poolOwed1] = poolPosition;
        const cap0 = nft.liquidity > 0n ? addOwed(poolOwed0, feesEarned(inside.feeGrowth0X128, poolInsideLast0, poolLiquidity)) : poolOwed0;
        const cap1 = nft.liquidity > 0n ? addOwed(poolOwed1, feesEarned(inside.feeGrowth1X128, poolInsideLast1, poolLiquidity)) : poolOwed1;
        const uncollected0 = smaller(owed0, cap0);
        const uncollected1 = smaller(owed1, cap1);
        if (nft.liquidity === 0n && uncollected0 === 0n && uncollected1 === 0n) return [];
        const { amount0, amount1 } = amountsForBurn(sqrtPriceX96, tick, nft.tickLower, nft.tickUpper, nft.liquidity);
        const key = `${positionManager}:${nft.tokenId}`;
        const common = {
          protocol: 'uniswap-v3',
          key,
          contract: positionManager,
          poolAddress: pool,
          group: key,
          receipt: { kind: 'nft', contract: positionManager, tokenId: nft.tokenId.toString() },
        } as const;
        const rewards: ProtocolPosition[] = [
          { ...common, type: 'reward', parentType: 'deposit', token: nft.token0, amount: uncollected0 },
          { ...common, type: 'reward', parentType: 'deposit', token: nft.token1, amount: uncollected1 },
        ];
        return [
          { ...common, type: 'deposit', parentType: '', token: nft.token0, amount: amount0 },
          { ...common, type: 'deposit', parentType: '', token: nft.token1, amount: amount1 },
          ...rewards.filter((reward) => reward.amount > 0n),
        ];
      });
    },
  };
}
