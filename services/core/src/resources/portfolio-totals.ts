import type { Portfolio, Position } from '../generated/proto/positions.js';

/** decisions.md's portfolio buckets of each position type. */
const bucketOf: Record<string, 'wallet' | 'deposited' | 'borrowed' | 'locked' | 'staked'> = {
  wallet: 'wallet',
  deposit: 'deposited',
  reward: 'deposited',
  investment: 'deposited',
  loan: 'borrowed',
  locked: 'locked',
  staked: 'staked',
};

/**
 * Totals of valued positions: by type (every bucket present), by chain (every requested chain
 * present) and overall, net of loans; the 1-day change likewise, in percent of the total a day ago.
 */
export function portfolioOf(positions: readonly Position[], chainIds: readonly string[]): Portfolio {
  const byType: Record<string, number> = { wallet: 0, deposited: 0, borrowed: 0, locked: 0, staked: 0 };
  const byChain: Record<string, number> = Object.fromEntries(chainIds.map((chainId) => [chainId, 0]));
  let total = 0;
  let change = 0;
  for (const position of positions) {
    const bucket = bucketOf[position.positionType];
    if (!bucket || position.value === undefined) continue;
    const sign = bucket === 'borrowed' ? -1 : 1;
    byType[bucket]! += position.value;
    byChain[position.chainId] = (byChain[position.chainId] ?? 0) + sign * position.value;
    total += sign * position.value;
    change += sign * (position.changeAbsolute1d ?? 0);
  }
  const before = total - change;
  return { byType, byChain, total, changeAbsolute1d: change, changePercent1d: before === 0 ? 0 : (change / before) * 100 };
}
