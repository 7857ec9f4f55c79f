import { positionsQuery } from './position.js';

const detail = (query: Record<string, string>) => {
  const result = positionsQuery.safeParse(query);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
};
const list = (count: number, item: (index: number) => string) => Array.from({ length: count }, (_, index) => item(index)).join(',');

describe('positionsQuery', () => {
  test('defaults: only_simple, usd, only_non_trash, largest value first, no sync; page[size] ignored', () => {
    expect(positionsQuery.parse({ 'page[size]': '5' })).toEqual({
      'filter[positions]': 'only_simple',
      currency: 'usd',
      'filter[trash]': 'only_non_trash',
      sort: 'value',
      sync: 'false',
    });
  });

  test('lists split on commas, trimmed, up to their limits', () => {
    const parsed = positionsQuery.parse({
      'filter[position_types]': 'wallet, deposit,wallet,loan,locked,staked,reward,investment',
      'filter[chain_ids]': list(25, (index) => `chain-${index}`),
      'filter[fungible_ids]': `${'f'.repeat(44)},usdc`,
      'filter[dapp_ids]': list(25, () => 'd'.repeat(32)),
    });
    expect(parsed['filter[position_types]']).toEqual(['wallet', 'deposit', 'wallet', 'loan', 'locked', 'staked', 'reward', 'investment']);
    expect(parsed['filter[chain_ids]']).toHaveLength(25);
    expect(parsed['filter[fungible_ids]']).toEqual(['f'.repeat(44), 'usdc']);
    expect(parsed['filter[dapp_ids]']).toHaveLength(25);
  });

  test.each([
    [{ 'filter[positions]': 'all' }, 'filter[positions]: must be only_simple, only_complex or no_filter'],
    [{ 'filter[position_types]': list(9, () => 'wallet') }, 'filter[position_types]: must name at most 8 values (got 9)'],
    [
      { 'filter[position_types]': 'wallet,farm' },
      'filter[position_types]: each value must be one of deposit, loan, locked, staked, reward, wallet, investment (got "farm")',
    ],
    [{ 'filter[chain_ids]': list(26, () => 'ethereum') }, 'filter[chain_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[fungible_ids]': list(26, (index) => `f${index}`) }, 'filter[fungible_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[fungible_ids]': 'f'.repeat(45) }, `filter[fungible_ids]: each fungible id must be at most 44 characters (got "${'f'.repeat(45)}")`],
    [{ 'filter[dapp_ids]': list(26, (index) => `d${index}`) }, 'filter[dapp_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[dapp_ids]': 'd'.repeat(33) }, `filter[dapp_ids]: each dapp id must be 1 to 32 characters (got "${'d'.repeat(33)}")`],
    [{ 'filter[dapp_ids]': 'uniswap,,aave' }, 'filter[dapp_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [{ 'filter[fungible_ids]': '' }, 'filter[fungible_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [{ 'filter[trash]': 'all' }, 'filter[trash]: must be only_trash, only_non_trash or no_filter'],
    [{ sort: 'value_desc' }, 'sort: must be value (largest value first) or -value (smallest first)'],
    [{ sync: '1' }, 'sync: must be true or false'],
    [{ currency: 'USD' }, 'currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
  ])('%j is refused: %s', (query, expected) => {
    expect(detail(query)).toBe(expected);
  });
});
