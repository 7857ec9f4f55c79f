import { sqrt } from './uniswap-v3.js';

/**
 * LP tokens UniswapV2Pair._mintFee would mint to the protocol before a burn: a sixth of the
 * growth of sqrt(k) since kLast, only while the factory's feeTo is set.
 */
export function protocolFeeLiquidity(feeOn: boolean, kLast: bigint, reserve0: bigint, reserve1: bigint, totalSupply: bigint): bigint {
  if (!feeOn || kLast === 0n) return 0n;
  const rootK = sqrt(reserve0 * reserve1);
  const rootKLast = sqrt(kLast);
  if (rootK <= rootKLast) return 0n;
  return (totalSupply * (rootK - rootKLast)) / (rootK * 5n + rootKLast);
}

export interface V2BurnInput {
  liquidity: bigint;
  totalSupply: bigint;
  /** The pair's token balances (burn pays pro rata of balances, which equal reserves after every sync). */
  balance0: bigint;
  balance1: bigint;
  /** LP minted to feeTo in the same burn, from protocolFeeLiquidity. */
  feeLiquidity: bigint;
}

/** UniswapV2Pair.burn: amount = liquidity * balance / totalSupply, rounded down, after the fee mint. */
export function v2BurnAmounts(input: V2BurnInput): { amount0: bigint; amount1: bigint } {
  const supply = input.totalSupply + input.feeLiquidity;
  return { amount0: (input.liquidity * input.balance0) / supply, amount1: (input.liquidity * input.balance1) / supply };
}
