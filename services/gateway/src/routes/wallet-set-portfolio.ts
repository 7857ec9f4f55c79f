import type { Portfolio } from '@wallet-api/core/proto/positions';

const sumInto = (target: Record<string, number>, values: Record<string, number>) => {
  for (const [key, value] of Object.entries(values)) target[key] = (target[key] ?? 0) + value;
};

/**
 * A wallet set's portfolio: every distribution, the total and the absolute 1-day change summed;
 * the percent recomputed from the sums (in percent of the set's total a day ago, as the positions
 * service computes one wallet's), since percents of different totals do not add or average.
 */
export function mergePortfolios(portfolios: readonly Portfolio[]): Portfolio {
  const byType: Record<string, number> = {};
  const byChain: Record<string, number> = {};
  let total = 0;
  let change = 0;
  for (const portfolio of portfolios) {
    sumInto(byType, portfolio.byType);
    sumInto(byChain, portfolio.byChain);
    total += portfolio.total;
    change += portfolio.changeAbsolute1d;
  }
  const before = total - change;
  return { byType, byChain, total, changeAbsolute1d: change, changePercent1d: before === 0 ? 0 : (change / before) * 100 };
}
