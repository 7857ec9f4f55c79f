import type { Portfolio } from '@wallet-api/core/proto/positions';
import { portfolioOf } from '@wallet-api/core/resources';
import { mergePortfolios } from './wallet-set-portfolio.js';

const portfolio = (byChain: Record<string, number>, total: number, changeAbsolute1d: number, changePercent1d: number, wallet = total): Portfolio => ({
  byType: { wallet, deposited: total - wallet, borrowed: 0, locked: 0, staked: 0 },
  byChain,
  total,
  changeAbsolute1d,
  changePercent1d,
});

describe('mergePortfolios', () => {
  test('sums every distribution and total; the percent is of the sums a day ago, not the mean of the percents', () => {
    // 100 now after +10 (was 90: +11.1%) and 300 now after -30 (was 330: -9.09%): 400 after -20, was 420.
    const merged = mergePortfolios([portfolio({ ethereum: 60, base: 40 }, 100, 10, 100 / 9, 70), portfolio({ solana: 300 }, 300, -30, -100 / 11)]);
    expect(merged).toEqual({
      byType: { wallet: 370, deposited: 30, borrowed: 0, locked: 0, staked: 0 },
      byChain: { ethereum: 60, base: 40, solana: 300 },
      total: 400,
      changeAbsolute1d: -20,
      changePercent1d: expect.closeTo((-20 / 420) * 100, 12),
    });
  });

  test('one wallet is itself; chains of both are summed; nothing a day ago is 0 %', () => {
    const one = portfolio({ ethereum: 50 }, 50, 5, (5 / 45) * 100);
    expect(mergePortfolios([one])).toEqual({ ...one, changePercent1d: expect.closeTo(one.changePercent1d, 12) });
    expect(mergePortfolios([portfolio({ ethereum: 7 }, 7, 7, 0), portfolioOf([], ['ethereum', 'solana'])])).toEqual({
      byType: { wallet: 7, deposited: 0, borrowed: 0, locked: 0, staked: 0 },
      byChain: { ethereum: 7, solana: 0 },
      total: 7,
      changeAbsolute1d: 7,
      changePercent1d: 0,
    });
  });
});
