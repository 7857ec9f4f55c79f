import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import { marketAbi, marketEvent, type MarketEvent, type MarketLog } from './market-logs.js';

const market = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const nft = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const seller = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const buyer = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const blockHash = `0x${'ab'.repeat(32)}`;
const blockTimestamp = 1_700_000_000n;

const listedLog = (overrides: Partial<MarketLog> = {}): MarketLog => ({
  address: market,
  topics: encodeEventTopics({ abi: marketAbi, eventName: 'Listed', args: { listingId: 3n, seller, nft } }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [42n, 10n ** 18n]),
  blockHash,
  blockNumber: '0x10',
  logIndex: '0x1a',
  ...overrides,
});

const soldLog = (overrides: Partial<MarketLog> = {}): MarketLog => ({
  address: market,
  topics: encodeEventTopics({ abi: marketAbi, eventName: 'Sold', args: { listingId: 3n, buyer, seller } }) as Hex[],
  data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }], [nft, 42n, 15n * 10n ** 17n]),
  blockHash,
  blockNumber: 17n,
  logIndex: 2,
  ...overrides,
});

const listed: MarketEvent = {
  chainId: 'devnet',
  blockHash,
  logIndex: 26,
  blockNumber: 16n,
  blockTimestamp,
  market: market.toLowerCase(),
  kind: 'listed',
  listingId: 3n,
  contract: nft.toLowerCase(),
  tokenId: '42',
  price: 10n ** 18n,
  seller: seller.toLowerCase(),
  buyer: '',
};

const sold: MarketEvent = {
  chainId: 'devnet',
  blockHash,
  logIndex: 2,
  blockNumber: 17n,
  blockTimestamp,
  market: market.toLowerCase(),
  kind: 'sold',
  listingId: 3n,
  contract: nft.toLowerCase(),
  tokenId: '42',
  price: 15n * 10n ** 17n,
  seller: seller.toLowerCase(),
  buyer: buyer.toLowerCase(),
};

const otherAbi = parseAbi([
  'event Cancelled(uint256 indexed listingId)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  // Listed's name with another signature: a different selector.
  'event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId)',
]);

describe('marketEvent', () => {
  it.each<{ name: string; log: MarketLog; expected: MarketEvent | undefined }>([
    { name: 'a Listed log', log: listedLog(), expected: listed },
    { name: 'a Sold log', log: soldLog(), expected: sold },
    { name: 'a Listed log with a numeric log index and bigint block number', log: listedLog({ logIndex: 26, blockNumber: 16n }), expected: listed },
    { name: 'a Sold log with a hex log index and block number', log: soldLog({ logIndex: '0x2', blockNumber: '0x11' }), expected: sold },
    { name: 'a log index of 0', log: listedLog({ logIndex: '0x0' }), expected: { ...listed, logIndex: 0 } },
    { name: 'an already lowercase market address', log: listedLog({ address: market.toLowerCase() }), expected: listed },
    {
      name: 'a Listed log of the largest token id and price',
      log: listedLog({ data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [2n ** 256n - 1n, 2n ** 256n - 1n]) }),
      expected: { ...listed, tokenId: (2n ** 256n - 1n).toString(), price: 2n ** 256n - 1n },
    },
    {
      name: 'another event at the market (Cancelled)',
      log: listedLog({ topics: encodeEventTopics({ abi: otherAbi, eventName: 'Cancelled', args: { listingId: 3n } }) as Hex[], data: '0x' }),
      expected: undefined,
    },
    {
      name: 'another event at the market (an ERC-721 Transfer)',
      log: listedLog({
        topics: encodeEventTopics({ abi: otherAbi, eventName: 'Transfer', args: { from: seller, to: buyer, tokenId: 42n } }) as Hex[],
        data: '0x',
      }),
      expected: undefined,
    },
    {
      name: 'an event named Listed with another signature',
      log: listedLog({
        topics: encodeEventTopics({ abi: otherAbi, eventName: 'Listed', args: { listingId: 3n, seller, nft } }) as Hex[],
        data: encodeAbiParameters([{ type: 'uint256' }], [42n]),
      }),
      expected: undefined,
    },
    { name: 'a log without topics', log: listedLog({ topics: [] }), expected: undefined },
    { name: 'a Listed log with a topic missing', log: listedLog({ topics: listedLog().topics.slice(0, 3) }), expected: undefined },
    { name: 'a Listed log with empty data', log: listedLog({ data: '0x' }), expected: undefined },
    { name: 'a Listed log with truncated data', log: listedLog({ data: listedLog().data.slice(0, 66) as Hex }), expected: undefined },
    { name: 'a Sold log with empty data', log: soldLog({ data: '0x' }), expected: undefined },
    { name: 'a pending log (null block hash)', log: listedLog({ blockHash: null }), expected: undefined },
    { name: 'a pending log (null block number)', log: soldLog({ blockNumber: null }), expected: undefined },
    { name: 'a pending log (null log index)', log: soldLog({ logIndex: null }), expected: undefined },
  ])('$name', ({ log, expected }) => {
    expect(marketEvent('devnet', log, blockTimestamp)).toEqual(expected);
  });

  it.each([
    { name: 'Listed', log: listedLog() },
    { name: 'Sold', log: soldLog() },
  ])('lowercases every address of a $name event', ({ log }) => {
    const event = marketEvent('devnet', log, blockTimestamp);
    expect(event).toBeDefined();
    for (const address of [event!.market, event!.contract, event!.seller, event!.buyer]) expect(address).toBe(address.toLowerCase());
  });
});
