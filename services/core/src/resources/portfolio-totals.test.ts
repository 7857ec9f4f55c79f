import type { Position } from '../generated/proto/positions.js';
import { portfolioOf } from './portfolio-totals.js';

function valued(positionType: string, chainId: string, value: number | undefined, change?: number): Position {
  return {
    id: `${positionType}-${chainId}-${value}`,
    chainId,
    name: '',
    positionType,
    amount: '1',
    token: undefined,
    value,
    changeAbsolute1d: change,
    protocol: '',
    protocolModule: '',
    poolAddress: '',
    groupId: '',
    parentId: '',
    dapp: undefined,
    isTrash: false,
    displayable: true,
    updatedAt: '0',
    updatedAtBlock: '0',
  };
}

test('buckets by type, nets loans out of chains and the total, and keeps every bucket and chain', () => {
  const portfolio = portfolioOf(
    [
      valued('wallet', 'ethereum', 100, 10),
      valued('deposit', 'ethereum', 50, 5),
      valued('reward', 'ethereum', 2, 0),
      valued('investment', 'base', 8, 0),
      valued('loan', 'ethereum', 30, 3),
      valued('staked', 'base', 20, -2),
      valued('locked', 'base', 10, 0),
      valued('wallet', 'base', undefined),
    ],
    ['ethereum', 'base', 'sepolia'],
  );
  expect(portfolio.byType).toEqual({ wallet: 100, deposited: 60, borrowed: 30, locked: 10, staked: 20 });
  expect(portfolio.byChain).toEqual({ ethereum: 122, base: 38, sepolia: 0 });
  expect(portfolio.total).toBe(160);
  // Changes: 10 + 5 + 0 + 0 - 3 - 2 + 0 = 10, against 150 a day ago.
  expect(portfolio.changeAbsolute1d).toBe(10);
  expect(portfolio.changePercent1d).toBeCloseTo((10 / 150) * 100, 12);
});

test('an empty wallet has zeros everywhere', () => {
  expect(portfolioOf([], ['ethereum'])).toEqual({
    byType: { wallet: 0, deposited: 0, borrowed: 0, locked: 0, staked: 0 },
    byChain: { ethereum: 0 },
    total: 0,
    changeAbsolute1d: 0,
    changePercent1d: 0,
  });
});
