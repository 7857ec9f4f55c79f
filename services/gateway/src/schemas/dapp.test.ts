import { dappsQuery } from './dapp.js';

const detail = (query: Record<string, string>) => {
  const result = dappsQuery.safeParse(query);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
};

describe('dappsQuery', () => {
  test('defaults: pages of 100 from the start, every dapp', () => {
    expect(dappsQuery.parse({})).toEqual({ 'page[size]': 100 });
  });

  test('bounds and lists at their limits', () => {
    expect(dappsQuery.parse({ 'page[size]': '1' })['page[size]']).toBe(1);
    expect(dappsQuery.parse({ 'page[size]': '100', 'page[after]': 'ZGFwcDp3ZXRo' })).toEqual({ 'page[size]': 100, 'page[after]': 'ZGFwcDp3ZXRo' });
    const ids = Array.from({ length: 25 }, (_, index) => `${index}`.padStart(32, 'd'));
    expect(dappsQuery.parse({ 'filter[dapp_ids]': ids.join(',') })['filter[dapp_ids]']).toEqual(ids);
  });

  test.each([
    [{ 'page[size]': '0' }, 'page[size]: must be an integer from 1 to 100'],
    [{ 'page[size]': '101' }, 'page[size]: must be an integer from 1 to 100'],
    [{ 'page[size]': '1.5' }, 'page[size]: must be an integer from 1 to 100'],
    [{ 'page[after]': '' }, 'page[after]: must not be empty (follow links.next, which carries it)'],
    [{ 'filter[dapp_ids]': Array.from({ length: 26 }, (_, index) => `d${index}`).join(',') }, 'filter[dapp_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[dapp_ids]': 'x'.repeat(33) }, `filter[dapp_ids]: each dapp id must be 1 to 32 characters (got "${'x'.repeat(33)}")`],
  ])('%j is refused: %s', (query, expected) => {
    expect(detail(query)).toBe(expected);
  });
});
