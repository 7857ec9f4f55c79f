import type { Portfolio } from '@wallet-api/core/proto/positions';
import type { portfolioTypes, PortfolioResource } from '../schemas/portfolio.js';

/** decisions.md "Portfolio": type `portfolio`, id = the address, the five groups always present. */
export function toPortfolioResource(address: string, portfolio: Portfolio): PortfolioResource {
  const byType = (type: (typeof portfolioTypes)[number]) => portfolio.byType[type] ?? 0;
  return {
    type: 'portfolio',
    id: address,
    attributes: {
      positions_distribution_by_type: {
        wallet: byType('wallet'),
        deposited: byType('deposited'),
        borrowed: byType('borrowed'),
        locked: byType('locked'),
        staked: byType('staked'),
      },
      positions_distribution_by_chain: { ...portfolio.byChain },
      total: { positions: portfolio.total },
      changes: { absolute_1d: portfolio.changeAbsolute1d, percent_1d: portfolio.changePercent1d },
    },
  };
}
