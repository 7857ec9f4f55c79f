import { normalizeAddress, readSearchQuery } from './indexer-service.js';

describe('readSearchQuery', () => {
  const evmHash = `0x${'Ab'.repeat(32)}`;
  const evmAddress = `0x${'Cd'.repeat(20)}`;
  const solanaSignature = '5'.repeat(43) + 'K'.repeat(44);
  test.each([
    [evmHash, { kind: 'hash', value: evmHash.toLowerCase() }],
    [evmAddress, { kind: 'address', value: evmAddress.toLowerCase() }],
    [` ${evmAddress} `, { kind: 'address', value: evmAddress.toLowerCase() }],
    ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', { kind: 'address', value: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }],
    [solanaSignature, { kind: 'hash', value: solanaSignature }],
    ['USDC', { kind: 'symbol', value: 'USDC' }],
    ['0x1234', { kind: 'symbol', value: '0x1234' }],
  ])('%s', (query, expected) => {
    expect(readSearchQuery(query)).toEqual(expected);
  });
});

describe('normalizeAddress', () => {
  test('lowercases EVM addresses and keeps Solana ones as given', () => {
    expect(normalizeAddress(`0x${'AB'.repeat(20)}`)).toBe(`0x${'ab'.repeat(20)}`);
    expect(normalizeAddress('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV');
  });
});
