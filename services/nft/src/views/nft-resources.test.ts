import type { NftCollection, NftToken } from '@wallet-api/core/proto/nft';
import type { NftMetadata } from '../metadata/nft-metadata.js';
import type { Sale } from '../store/market-store.js';
import type { CollectionRow, KnownToken, TokenKey } from '../store/token-store.js';
import { floorOf, nftId, parseNftId, toCollectionMessage, toNftMessage, weiValue, type MarketFacts } from './nft-resources.js';

const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const maxUint256 = (2n ** 256n - 1n).toString();
const ether = 10n ** 18n;

const facts = (overrides: Partial<{ floors: [string, bigint][]; lastSales: [string, Sale][]; nativePrices: [string, number][] }> = {}): MarketFacts => ({
  floors: new Map(overrides.floors ?? []),
  lastSales: new Map(overrides.lastSales ?? []),
  nativePrices: new Map(overrides.nativePrices ?? []),
});

describe('parseNftId', () => {
  it.each<{ id: string; expected: TokenKey }>([
    { id: `1:${contract}:42`, expected: { chainId: '1', contract, tokenId: '42' } },
    { id: `devnet:${contract}:0`, expected: { chainId: 'devnet', contract, tokenId: '0' } },
    { id: `base-sepolia:${contract}:7`, expected: { chainId: 'base-sepolia', contract, tokenId: '7' } },
    { id: `1:${contract}:${maxUint256}`, expected: { chainId: '1', contract, tokenId: maxUint256 } },
    { id: `${'a'.repeat(32)}:${contract}:1`, expected: { chainId: 'a'.repeat(32), contract, tokenId: '1' } },
  ])('reads $id', ({ id, expected }) => {
    expect(parseNftId(id)).toEqual(expected);
  });

  it.each([
    { name: 'an uppercase address', id: `1:${contract.toUpperCase().replace('0X', '0x')}:42` },
    { name: 'a checksummed address', id: '1:0x5FbDB2315678afecb367f032d93F642f64180aa3:42' },
    { name: 'an uppercase 0X prefix', id: `1:0X${contract.slice(2)}:42` },
    { name: 'a short address', id: `1:${contract.slice(0, -2)}:42` },
    { name: 'a long address', id: `1:${contract}00:42` },
    { name: 'an address without 0x', id: `1:${contract.slice(2)}:42` },
    { name: 'a leading-zero token id', id: `1:${contract}:042` },
    { name: 'a token id of 00', id: `1:${contract}:00` },
    { name: 'a token id with 79 digits', id: `1:${contract}:1${'0'.repeat(78)}` },
    { name: 'a hex token id', id: `1:${contract}:0x2a` },
    { name: 'a negative token id', id: `1:${contract}:-1` },
    { name: 'a fractional token id', id: `1:${contract}:1.5` },
    { name: 'an uppercase chain id', id: `Devnet:${contract}:1` },
    { name: 'a chain id over 32 characters', id: `${'a'.repeat(33)}:${contract}:1` },
    { name: 'an empty text', id: '' },
    { name: 'a missing chain id', id: `:${contract}:1` },
    { name: 'only contract and token', id: `${contract}:1` },
    { name: 'a missing contract', id: '1::1' },
    { name: 'a missing token id', id: `1:${contract}:` },
    { name: 'no token id part', id: `1:${contract}` },
    { name: 'an extra part', id: `1:${contract}:1:2` },
    { name: 'surrounding whitespace', id: ` 1:${contract}:1 ` },
    { name: 'a trailing newline', id: `1:${contract}:1\n` },
  ])('is undefined for $name', ({ id }) => {
    expect(parseNftId(id)).toBeUndefined();
  });

  it.each<TokenKey>([
    { chainId: '1', contract, tokenId: '0' },
    { chainId: 'devnet', contract, tokenId: '123456789' },
    { chainId: 'base-sepolia', contract: '0x0000000000000000000000000000000000000000', tokenId: maxUint256 },
  ])('round-trips nftId %j', (key) => {
    const id = nftId(key);
    expect(id).toBe(`${key.chainId}:${key.contract}:${key.tokenId}`);
    expect(parseNftId(id)).toEqual(key);
  });
});

describe('weiValue', () => {
  it.each<{ name: string; wei: bigint; chainId: string; prices: [string, number][]; expected: number | undefined }>([
    { name: '1.5 ether at 2000', wei: 15n * 10n ** 17n, chainId: '1', prices: [['1', 2000]], expected: 3000 },
    { name: '1 ether at 1', wei: ether, chainId: '1', prices: [['1', 1]], expected: 1 },
    { name: 'nothing at 2000', wei: 0n, chainId: '1', prices: [['1', 2000]], expected: 0 },
    { name: '1 wei at 1e18', wei: 1n, chainId: '1', prices: [['1', 1e18]], expected: 1 },
    { name: 'at a price of 0', wei: ether, chainId: '1', prices: [['1', 0]], expected: 0 },
    { name: 'without a price', wei: 15n * 10n ** 17n, chainId: '1', prices: [], expected: undefined },
    { name: 'with a price of another chain only', wei: ether, chainId: '1', prices: [['10', 2000]], expected: undefined },
  ])('$name', ({ wei, chainId, prices, expected }) => {
    const value = weiValue(wei, chainId, facts({ nativePrices: prices }));
    if (expected === undefined) expect(value).toBeUndefined();
    else expect(value).toBeCloseTo(expected, 9);
  });
});

describe('floorOf', () => {
  it.each<{ name: string; market: MarketFacts; expected: number | undefined }>([
    { name: 'a floor with a price', market: facts({ floors: [[`1:${contract}`, 2n * ether]], nativePrices: [['1', 1500]] }), expected: 3000 },
    { name: 'a floor without a price', market: facts({ floors: [[`1:${contract}`, 2n * ether]] }), expected: undefined },
    { name: 'no floor', market: facts({ nativePrices: [['1', 1500]] }), expected: undefined },
    {
      name: "another chain's floor",
      market: facts({
        floors: [[`10:${contract}`, 2n * ether]],
        nativePrices: [
          ['1', 1500],
          ['10', 1500],
        ],
      }),
      expected: undefined,
    },
  ])('$name', ({ market, expected }) => {
    expect(floorOf({ chainId: '1', contract }, market)).toEqual(expected);
  });
});

const metadata: NftMetadata = {
  name: 'Punk #42',
  description: 'A punk',
  tags: ['art'],
  content: { preview: { url: 'https://example.com/42.png', contentType: 'image/png' } },
  attributes: [{ key: 'hat', value: 'cap' }],
  externalLinks: [{ url: 'https://example.com/42', type: 'website', name: 'Home' }],
};

const collection: CollectionRow = {
  id: 7,
  chainId: '1',
  contract,
  standard: 'erc721',
  name: 'Punks',
  symbol: 'PUNK',
  description: 'Some punks',
  iconUrl: '',
  bannerUrl: '',
};

const token = (overrides: Partial<KnownToken> = {}): KnownToken => ({ chainId: '1', contract, tokenId: '42', standard: 'erc721', ...overrides });
const id = `1:${contract}:42`;
const sale: Sale = { price: 15n * 10n ** 17n, quantity: 1n, soldAt: 1_700_000_000n };

const emptyMetadata = { name: '', description: '', tags: [], content: {}, attributes: [] };
const baseMessage: NftToken = {
  id,
  ref: { chainId: '1', contractAddress: contract, tokenId: '42' },
  interface: 'erc721',
  metadata: emptyMetadata,
  externalLinks: [],
  isSpam: false,
  collectionId: '7',
};

describe('toNftMessage', () => {
  it.each<{ name: string; token: KnownToken; isSpam: boolean; market: MarketFacts; expected: NftToken }>([
    { name: 'a token without metadata, floor or sale', token: token(), isSpam: false, market: facts(), expected: baseMessage },
    {
      name: 'a token with metadata',
      token: token({ metadata }),
      isSpam: false,
      market: facts(),
      expected: {
        ...baseMessage,
        metadata: { name: 'Punk #42', description: 'A punk', tags: ['art'], content: metadata.content, attributes: [{ key: 'hat', value: 'cap' }] },
        externalLinks: metadata.externalLinks,
      },
    },
    { name: 'an ERC-1155 token', token: token({ standard: 'erc1155' }), isSpam: false, market: facts(), expected: { ...baseMessage, interface: 'erc1155' } },
    { name: 'a spam token', token: token(), isSpam: true, market: facts(), expected: { ...baseMessage, isSpam: true } },
    {
      name: 'a floor and a last sale, priced',
      token: token(),
      isSpam: false,
      market: facts({ floors: [[`1:${contract}`, ether]], lastSales: [[id, sale]], nativePrices: [['1', 2000]] }),
      expected: { ...baseMessage, floorPrice: 2000, lastSale: { price: 3000, quantity: '1', soldAt: '1700000000' } },
    },
    {
      name: 'a floor and a last sale, unpriced',
      token: token(),
      isSpam: false,
      market: facts({ floors: [[`1:${contract}`, ether]], lastSales: [[id, sale]] }),
      expected: { ...baseMessage, lastSale: { quantity: '1', soldAt: '1700000000' } },
    },
    {
      name: 'a floor only',
      token: token(),
      isSpam: false,
      market: facts({ floors: [[`1:${contract}`, ether]], nativePrices: [['1', 2000]] }),
      expected: { ...baseMessage, floorPrice: 2000 },
    },
    {
      name: 'a last sale only, of several tokens',
      token: token({ standard: 'erc1155' }),
      isSpam: false,
      market: facts({ lastSales: [[id, { ...sale, quantity: 5n }]], nativePrices: [['1', 2000]] }),
      expected: { ...baseMessage, interface: 'erc1155', lastSale: { price: 3000, quantity: '5', soldAt: '1700000000' } },
    },
    {
      name: "another token's sale and another collection's floor",
      token: token(),
      isSpam: false,
      market: facts({
        floors: [['1:0x0000000000000000000000000000000000000001', ether]],
        lastSales: [[`1:${contract}:43`, sale]],
        nativePrices: [['1', 2000]],
      }),
      expected: baseMessage,
    },
  ])('$name', ({ token, isSpam, market, expected }) => {
    const message = toNftMessage(token, collection, isSpam, market);
    expect(message).toEqual(expected);
    if (expected.floorPrice === undefined) expect(message).not.toHaveProperty('floorPrice');
    if (expected.lastSale === undefined) expect(message).not.toHaveProperty('lastSale');
    if (expected.lastSale && expected.lastSale.price === undefined) expect(message.lastSale).not.toHaveProperty('price');
  });

  it('takes the collection id from the collection row', () => {
    expect(toNftMessage(token(), { ...collection, id: 123 }, false, facts()).collectionId).toBe('123');
  });
});

describe('toCollectionMessage', () => {
  const baseCollection: NftCollection = {
    id: '7',
    name: 'Punks',
    description: 'Some punks',
    paymentTokenSymbol: 'ETH',
    implementations: [{ chainId: '1', address: contract }],
    isSpam: false,
  };

  it.each<{ name: string; row: CollectionRow; isSpam: boolean; market: MarketFacts; expected: NftCollection }>([
    { name: 'a collection without floor or images', row: collection, isSpam: false, market: facts(), expected: baseCollection },
    { name: 'a spam collection', row: collection, isSpam: true, market: facts(), expected: { ...baseCollection, isSpam: true } },
    {
      name: 'a priced floor',
      row: collection,
      isSpam: false,
      market: facts({ floors: [[`1:${contract}`, 15n * 10n ** 17n]], nativePrices: [['1', 2000]] }),
      expected: { ...baseCollection, floorPrice: 3000 },
    },
    { name: 'an unpriced floor', row: collection, isSpam: false, market: facts({ floors: [[`1:${contract}`, ether]] }), expected: baseCollection },
    {
      name: 'an icon and a banner',
      row: { ...collection, iconUrl: 'https://example.com/icon.png', bannerUrl: 'https://example.com/banner.png' },
      isSpam: false,
      market: facts(),
      expected: {
        ...baseCollection,
        icon: { url: 'https://example.com/icon.png', contentType: '' },
        banner: { url: 'https://example.com/banner.png', contentType: '' },
      },
    },
  ])('$name', ({ row, isSpam, market, expected }) => {
    const message = toCollectionMessage(row, isSpam, 'ETH', market);
    expect(message).toEqual(expected);
    for (const field of ['floorPrice', 'icon', 'banner'] as const) if (expected[field] === undefined) expect(message).not.toHaveProperty(field);
  });
});
