import { byImplementationChartQuery, fungibleChartParams, implementationProblem } from './fungible-chart.js';

const evm = '0x31149fa789dbf4da89356bd966d716b5c7d12497';
const solana = 'GNojwQQc29ecLn6uQ3FeU93vpL56Cx5EHwkm3upUYHns';

describe('implementation', () => {
  it.each([
    [`ethereum:${evm}`, { chainId: 'ethereum', address: evm }],
    [`ethereum:${evm.toUpperCase().replace('0X', '0x')}`, { chainId: 'ethereum', address: evm.toUpperCase().replace('0X', '0x') }],
    [`solana:${solana}`, { chainId: 'solana', address: solana }],
    ['base', { chainId: 'base', address: '' }],
  ])('%s is accepted', (value, expected) => {
    expect(implementationProblem(value)).toBeUndefined();
    expect(byImplementationChartQuery.parse({ implementation: value }).implementation).toEqual(expected);
  });

  it.each([[''], [':'], [`:${evm}`], ['ethereum:'], ['ethereum:0x1234'], ['ethereum:not an address'], ['eth ereum'], [`ethereum:${evm}:1`]])(
    '%j is refused',
    (value) => {
      expect(implementationProblem(value)).toBeDefined();
      expect(byImplementationChartQuery.safeParse({ implementation: value }).success).toBe(false);
    },
  );

  it('is required; currency defaults to usd and must be known', () => {
    expect(byImplementationChartQuery.safeParse({}).success).toBe(false);
    expect(byImplementationChartQuery.parse({ implementation: 'ethereum' }).currency).toBe('usd');
    expect(byImplementationChartQuery.safeParse({ implementation: 'ethereum', currency: 'xau' }).success).toBe(false);
  });
});

describe('fungible chart path', () => {
  it('takes spec 4.1 periods and fungible ids of at most 44 characters', () => {
    expect(fungibleChartParams.safeParse({ fungible_id: 'eth', chart_period: 'max' }).success).toBe(true);
    expect(fungibleChartParams.safeParse({ fungible_id: 'eth', chart_period: '2days' }).success).toBe(false);
    expect(fungibleChartParams.safeParse({ fungible_id: 'x'.repeat(44), chart_period: 'day' }).success).toBe(true);
    expect(fungibleChartParams.safeParse({ fungible_id: 'x'.repeat(45), chart_period: 'day' }).success).toBe(false);
  });
});
