// Protocol arithmetic in bigint, giving the same integers as the contracts, shared by the positions
// service (amounts a wallet would get out) and the devnet (building the world and reading its truth).
export {
  Q96,
  Q128,
  addOwed,
  alignTick,
  amountsForBurn,
  encodeSqrtPriceX96,
  feeGrowthInside,
  feesEarned,
  getAmount0Delta,
  getAmount1Delta,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  maxSqrtRatio,
  maxTick,
  minSqrtRatio,
  minTick,
  sqrt,
  tickSpacingByFee,
  usableTickRange,
  type FeeGrowth,
  type TokenAmounts,
} from './uniswap-v3.js';
export { protocolFeeLiquidity, v2BurnAmounts, type V2BurnInput } from './uniswap-v2.js';
