import { portfolioResourceSchema } from '../schemas/portfolio.js';
import { portfolioOf } from '@wallet-api/core/resources';
import { toPortfolioResource } from './portfolio-resource.js';

describe('toPortfolioResource', () => {
  test('decisions.md layout: the five groups, chains, total and 1-day change', () => {
    const resource = toPortfolioResource('0xabc', {
      byType: { wallet: 100.5, deposited: 20, borrowed: 5, locked: 0, staked: 7 },
      byChain: { ethereum: 120, base: 2.5 },
      total: 122.5,
      changeAbsolute1d: 2.5,
      changePercent1d: 2.0833,
    });
    expect(resource).toEqual({
      type: 'portfolio',
      id: '0xabc',
      attributes: {
        positions_distribution_by_type: { wallet: 100.5, deposited: 20, borrowed: 5, locked: 0, staked: 7 },
        positions_distribution_by_chain: { ethereum: 120, base: 2.5 },
        total: { positions: 122.5 },
        changes: { absolute_1d: 2.5, percent_1d: 2.0833 },
      },
    });
    expect(portfolioResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('a wallet with nothing to value: zeros, every chain listed', () => {
    const resource = toPortfolioResource('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', portfolioOf([], ['solana']));
    expect(resource.attributes).toEqual({
      positions_distribution_by_type: { wallet: 0, deposited: 0, borrowed: 0, locked: 0, staked: 0 },
      positions_distribution_by_chain: { solana: 0 },
      total: { positions: 0 },
      changes: { absolute_1d: 0, percent_1d: 0 },
    });
  });
});
