import { byImplementationQuery, fungiblesListQuery } from './fungible.js';

describe('fungibles list query', () => {
  test('defaults: market cap descending, pages of 100, usd; unknown filter keys dropped', () => {
    expect(fungiblesListQuery.parse({ 'filter[color]': 'blue' })).toEqual({ currency: 'usd', sort: '-market_data.market_cap', 'page[size]': 100 });
  });

  test.each([
    [{ 'filter[search_query]': '  ' }, 'filter[search_query]'],
    [{ 'filter[implementation_address]': 'So1111111111111111111111111111' }, 'filter[implementation_address]'],
    [{ 'filter[fungible_implementations]': 'ethereum:0x12' }, 'filter[fungible_implementations]'],
    [{ 'filter[fungible_ids]': 'a'.repeat(45) }, 'filter[fungible_ids]'],
    [{ 'filter[asset_class]': 'gold' }, 'filter[asset_class]'],
    [{ 'filter[has_asset_class]': 'false' }, 'filter[has_asset_class]'],
    [{ sort: '' }, 'sort'],
    [{ 'page[size]': '101' }, 'page[size]'],
  ])('%j is refused on %s', (query, parameter) => {
    const result = fungiblesListQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual([parameter]);
  });

  test('lists parse into their items', () => {
    const parsed = fungiblesListQuery.parse({
      'filter[fungible_implementations]': 'ethereum:0x00000000000000000000000000000000000000ff,solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      'filter[asset_class]': 'stablecoin,commodity',
      'filter[implementation_address]': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    });
    expect(parsed['filter[fungible_implementations]']).toEqual([
      'ethereum:0x00000000000000000000000000000000000000ff',
      'solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    ]);
    expect(parsed['filter[asset_class]']).toEqual(['stablecoin', 'commodity']);
  });
});

describe('by-implementation query', () => {
  test.each(['ethereum', 'ethereum:0x00000000000000000000000000000000000000ff', 'solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'])(
    '%s is accepted',
    (implementation) => {
      expect(byImplementationQuery.safeParse({ implementation }).success).toBe(true);
    },
  );
  test.each(['', ':0x00000000000000000000000000000000000000ff', 'ethereum:', 'ethereum:0x12', 'ethereum:0x00000000000000000000000000000000000000ff:7'])(
    '%j is refused',
    (implementation) => {
      expect(byImplementationQuery.safeParse({ implementation }).success).toBe(false);
    },
  );
});
