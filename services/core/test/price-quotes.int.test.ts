import { Network } from '@wallet-api/core/proto/common';
import { createPriceQuotes } from '@wallet-api/core/reference-data';
import { testLogger } from '@wallet-api/core/testing';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';

// The price quotes positions are valued with (the positions service's and the gateway's) over
// gRPC against a reference-data fixture: each token's price now is 10 plus its index, a day ago
// its index; what is asked, and what concurrent callers share.

const context = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };
const token = (index: number) => ({ chainId: 'ethereum', address: `0x${String(index).padStart(40, '0')}` });
const indexOf = (address: string) => Number(BigInt(address));

let referenceData: RunningReferenceData;
let unpriced: RunningReferenceData;

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({
    tokens: [],
    dapps: [],
    price: (query) => (query.timestamp === '0' ? 10 + indexOf(query.token!.address) : indexOf(query.token!.address)),
  });
  unpriced = await startReferenceDataFixture({ tokens: [], dapps: [] });
});

afterAll(async () => {
  await referenceData.stop();
  await unpriced.stop();
});

/** The (token index, now or day ago) pairs each GetPrices request since `before` asked for. */
const askedSince = (before: number) =>
  referenceData.getPricesRequests
    .slice(before)
    .map((request) => request.queries.map((query) => `${indexOf(query.token!.address)}${query.timestamp === '0' ? ' now' : ' day ago'}`));

test('callers at once under one generation share the calls asking a price; later ones find it kept', async () => {
  const quotes = createPriceQuotes(referenceData.client, testLogger);
  const before = referenceData.getPricesRequests.length;
  // As every answer after a price move asks at once: the second waits for the first's prices of token 2.
  const [first, second] = await Promise.all([
    quotes.quotes([token(1), token(2)], 'usd', context, 'one'),
    quotes.quotes([token(2), token(3), token(2)], 'usd', context, 'one'),
  ]);
  expect(Object.fromEntries(first)).toEqual({
    [`ethereum:${token(1).address}`]: { now: 11, dayAgo: 1 },
    [`ethereum:${token(2).address}`]: { now: 12, dayAgo: 2 },
  });
  expect(Object.fromEntries(second)).toEqual({
    [`ethereum:${token(2).address}`]: { now: 12, dayAgo: 2 },
    [`ethereum:${token(3).address}`]: { now: 13, dayAgo: 3 },
  });
  expect(askedSince(before)).toEqual([
    ['1 now', '1 day ago', '2 now', '2 day ago'],
    ['3 now', '3 day ago'],
  ]);
  expect((await quotes.quotes([token(3)], 'usd', context, 'one')).get(`ethereum:${token(3).address}`)).toEqual({ now: 13, dayAgo: 3 });
  expect(askedSince(before)).toHaveLength(2);
});

test('another generation or currency asks again; without a generation every call asks and nothing is kept', async () => {
  const quotes = createPriceQuotes(referenceData.client, testLogger);
  const before = referenceData.getPricesRequests.length;
  await quotes.quotes([token(1)], 'usd', context, 'one');
  await Promise.all([quotes.quotes([token(1)], 'usd', context, 'two'), quotes.quotes([token(1)], 'eur', context, 'two')]);
  expect(askedSince(before)).toHaveLength(3);
  await Promise.all([quotes.quotes([token(1)], 'usd', context, undefined), quotes.quotes([token(1)], 'usd', context, undefined)]);
  expect(askedSince(before)).toHaveLength(5);
  await quotes.quotes([token(1)], 'usd', context, 'two');
  expect(askedSince(before)).toHaveLength(5);
});

test('a reference-data without prices leaves every asset unpriced, for the callers waiting on its call too', async () => {
  const quotes = createPriceQuotes(unpriced.client, testLogger);
  const answers = await Promise.all([quotes.quotes([token(1)], 'usd', context, 'one'), quotes.quotes([token(1)], 'usd', context, 'one')]);
  for (const answer of answers) expect(answer.get(`ethereum:${token(1).address}`)).toEqual({ now: undefined, dayAgo: undefined });
});
