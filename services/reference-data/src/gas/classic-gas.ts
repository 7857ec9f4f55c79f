import { gasSpeeds, speedPercentiles, type GasInfo, type GasSpeed } from './gas-snapshot.js';

/**
 * The value at `percentile` of ascending `sorted` (nearest rank, the way `eth_feeHistory` picks a
 * block's reward percentile): the smallest value at least `percentile` % of the entries do not exceed.
 */
export function nearestRank(sorted: readonly bigint[], percentile: number): bigint {
  const rank = Math.max(1, Math.ceil((percentile / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/**
 * Pre-London prices (`gas_type` classic) from the gas prices the transactions of recent blocks
 * paid, the way `eth_gasPrice` oracles read them: each speed is its percentile of them all. Blocks
 * without transactions leave nothing to read; `fallback` (the node's `eth_gasPrice`) then serves
 * every speed.
 */
export function classicFromGasPrices(paid: readonly bigint[], fallback: bigint): GasInfo {
  const sorted = [...paid].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const prices = Object.fromEntries(
    gasSpeeds.map((speed): [GasSpeed, bigint] => [speed, sorted.length === 0 ? fallback : nearestRank(sorted, speedPercentiles[speed])]),
  );
  return { type: 'classic', prices: prices as Record<GasSpeed, bigint> };
}
