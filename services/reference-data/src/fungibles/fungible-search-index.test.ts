import { createFungibleSearchIndex, MatchTier, type IndexedFungible } from './fungible-search-index.js';

const fungible = (id: string, symbol: string, name: string, verified = true, address = `0x${id.padStart(40, '0')}`): IndexedFungible => ({
  id,
  name,
  symbol,
  verified,
  native: false,
  implementations: [{ chainId: 'ethereum', address }],
  assetClass: undefined,
});

const index = createFungibleSearchIndex([
  fungible('1', 'USDC', 'USD Coin'),
  fungible('2', 'USDT', 'Tether USD'),
  fungible('3', 'US', 'United Stable'),
  fungible('4', 'FROG', 'Frog Coin'),
  fungible('5', 'xUSD', 'Wrapped usd thing', false),
  fungible('6', 'ABC', 'Plain Name', false, '0xAbCdEf0000000000000000000000000000000006'),
]);

const tiers = (query: string) => Object.fromEntries(index.search(query).map((match) => [match.fungible.symbol, match.tier]));

describe('fungible search index', () => {
  test.each([
    ['us', { US: MatchTier.ExactSymbol, USDC: MatchTier.SymbolPrefix, USDT: MatchTier.SymbolPrefix, xUSD: MatchTier.WordOrSubstring }],
    ['USD', { USDC: MatchTier.SymbolPrefix, USDT: MatchTier.SymbolPrefix, xUSD: MatchTier.WordOrSubstring }],
    ['usd coin', { USDC: MatchTier.NamePrefix }],
    ['coin', { USDC: MatchTier.WordOrSubstring, FROG: MatchTier.WordOrSubstring }],
    ['Frog', { FROG: MatchTier.ExactSymbol }],
    ['ether', { USDT: MatchTier.WordOrSubstring }],
    ['o', {}],
    ['sd', {}],
    ['sdc', { USDC: MatchTier.WordOrSubstring }],
    ['ited st', { US: MatchTier.WordOrSubstring }],
    ['zzz', {}],
    ['   ', {}],
  ])('%j: every match once, at its best tier; substrings from three characters', (query, expected) => {
    expect(tiers(query)).toEqual(expected);
  });

  test('a query never matches across the symbol and the name', () => {
    expect(tiers('cusd')).toEqual({});
  });

  test('lookups by id, implementation (EVM case-insensitive) and address on any chain', () => {
    expect(index.byId('4')?.symbol).toBe('FROG');
    expect(index.byImplementation('ethereum', '0xABCDEF0000000000000000000000000000000006')?.id).toBe('6');
    expect(index.byImplementation('base', '0xabcdef0000000000000000000000000000000006')).toBeUndefined();
    expect(index.byAddress('0xABCDEF0000000000000000000000000000000006').map((entry) => entry.id)).toEqual(['6']);
  });
});
