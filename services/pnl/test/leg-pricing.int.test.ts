import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { walletLegs } from '@wallet-api/core/transactions';
import type { PriceQuery } from '@wallet-api/core/proto/reference_data';
import { blockRef, erc20, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { createLegPricing, type PricingRequest } from '../src/book/leg-pricing.js';
import { implementationKey, type FungibleRef } from '../src/fifo/transaction-entries.js';

// Legs priced from price series against legs priced one by one with GetPrices, through a
// reference-data server whose prices move every few seconds and vanish for a while: every leg's
// value is the same, and the series spare the per-leg queries. A span the server gives no steps
// for (here: longer than a day) is priced leg by leg.

const [shortChain, longChain] = ['legs-short', 'legs-long'];
const wallet = randomAddress();
const pool = randomAddress();
const usdc = randomAddress();
const gov = randomAddress();
const start = 1_700_600_000;

/** GOV's price steps every 7 seconds and has none for a minute; ether's changes every second. */
function price(query: PriceQuery): number | undefined {
  const time = Number(query.timestamp);
  const address = query.token?.address;
  if (address === usdc) return 1;
  if (address === gov) return time >= start + 100 && time < start + 160 ? undefined : 150 + (Math.floor(time / 7) % 13);
  return address === '' ? 2_000 + (time % 5) : undefined;
}

let referenceData: RunningReferenceData;
beforeAll(async () => {
  referenceData = await startReferenceDataFixture({
    tokens: [shortChain, longChain].flatMap((chainId) => [
      token(chainId, '', { interface: 1, symbol: 'ETH', decimals: 18, fungibleId: 'eth' }),
      token(chainId, usdc, { symbol: 'USDC', decimals: 6, fungibleId: 'usdc' }),
      token(chainId, gov, { symbol: 'GOV', decimals: 18, fungibleId: 'gov' }),
    ]),
    dapps: [],
    price,
  });
});
afterAll(() => referenceData.stop());

// Sixty swaps three seconds apart on one chain, twenty a few hours apart on the other; the wallet pays every fee.
const swaps = [
  ...Array.from({ length: 60 }, (_, index) => ({ chainId: shortChain, number: index + 1, timestamp: start + index * 3 })),
  ...Array.from({ length: 20 }, (_, index) => ({ chainId: longChain, number: index + 1, timestamp: start + index * 9_000 })),
].map(({ chainId, number, timestamp }) =>
  walletLegs(
    transaction(blockRef(chainId, number, timestamp), 0, {
      from: wallet,
      to: pool,
      transfers: [
        { asset: erc20(number % 2 ? usdc : gov), amount: (10n ** 18n).toString(), sender: wallet, recipient: pool },
        { asset: erc20(number % 2 ? gov : usdc), amount: (10n ** 6n).toString(), sender: pool, recipient: wallet },
      ],
    }),
    wallet,
  ),
);
const request: PricingRequest = { context: { organizationId: '', roles: [], addons: [], network: 0 }, currency: 'usd', kind: 'fungible' };
const legs: { ref: FungibleRef; timestamp: number }[] = swaps.flatMap((swap) =>
  ['', usdc, gov].map((asset) => ({ ref: { chainId: swap.chainId, asset }, timestamp: Number(swap.blockTimestamp) })),
);

test('every leg priced from series is worth what it is worth priced alone, with a fraction of the queries', async () => {
  const pricedWith = async (seriesFromLegs: number) => {
    const before = referenceData.getPricesRequests.flatMap((asked) => asked.queries).length;
    const { valueAt } = await createLegPricing({
      tokens: createTokenDirectory(referenceData.client),
      referenceData: referenceData.client,
      seriesFromLegs,
    }).price(swaps, request);
    const queries = referenceData.getPricesRequests.flatMap((asked) => asked.queries).length - before;
    return { values: legs.map(({ ref, timestamp }) => [implementationKey(ref), timestamp, valueAt(ref, 10n ** 18n, timestamp)]), queries };
  };
  const alone = await pricedWith(Infinity);
  const fromSeries = await pricedWith(1);
  expect(fromSeries.values).toEqual(alone.values);
  // The prices were there to be found: moving, and missing where GOV had none.
  const govValues = alone.values.filter(([key]) => key === implementationKey({ chainId: shortChain, asset: gov })).map(([, , value]) => value);
  expect(new Set(govValues).size).toBeGreaterThan(5);
  expect(govValues).toContain(undefined);
  // Asked one by one: the long chain's legs (no steps for a span over a day) and the short chain's
  // ether, whose price changes every second: more steps than its 60 legs.
  expect(alone.queries).toBe(80 * 3);
  expect(fromSeries.queries).toBe(20 * 3 + 60);
});
