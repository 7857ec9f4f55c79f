// Price series against the real ClickHouse and Redis: a series' step at any second of its span is
// what a price lookup at that second answers, through day marks that switch at different times on
// two chains, lost prices, the one-price fold across chains and the currencies that divide by
// ether's price.
import { readFileSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import type { ChangeVersions } from '@wallet-api/core/cache';
import { priceAtStep } from '@wallet-api/core/reference-data';
import { setupChangeVersions, setupClickHouseDatabase, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { parseChainsConfig } from '../src/chains/chain-config.js';
import { fxTableSchema } from '../src/prices/currencies.js';
import { createPriceHistory } from '../src/prices/price-history.js';
import { createPriceOracle, type PriceOracle, type PriceQuery } from '../src/prices/price-oracle.js';
import { parseRegistryConfig } from '../src/registry/registry-config.js';
import { createRegistry } from '../src/registry/registry.js';
import { createPriceStore, type PriceStore } from '../src/store/price-store.js';

const chains = parseChainsConfig(JSON.parse(readFileSync(new URL('../config/chains.json', import.meta.url), 'utf8')));
const fx = fxTableSchema.parse(JSON.parse(readFileSync(new URL('../config/fx-rates.json', import.meta.url), 'utf8')));

const tokens = {
  ethereum: {
    usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    gov: '0x31149fa789dbf4da89356bd966d716b5c7d12497',
  },
  base: {
    usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    weth: '0x4200000000000000000000000000000000000006',
    gov: '0x2b187d58bbd15bc6bd274097863f043d4ae13df6',
  },
};
const unlisted = '0x00000000000000000000000000000000000000b7';
const registry = createRegistry(
  parseRegistryConfig(
    {
      tokens: [
        {
          fungible_id: 'usdc',
          symbol: 'USDC',
          name: 'USD Coin',
          implementations: [
            { chain_id: 'ethereum', address: tokens.ethereum.usdc },
            { chain_id: 'base', address: tokens.base.usdc },
          ],
        },
        {
          fungible_id: 'weth',
          symbol: 'WETH',
          name: 'Wrapped Ether',
          implementations: [
            { chain_id: 'ethereum', address: tokens.ethereum.weth },
            { chain_id: 'base', address: tokens.base.weth },
          ],
        },
        {
          fungible_id: 'gov',
          symbol: 'GOV',
          name: 'Governance',
          implementations: [
            { chain_id: 'ethereum', address: tokens.ethereum.gov },
            { chain_id: 'base', address: tokens.base.gov },
          ],
        },
      ],
      pricing: {
        ethereum: { usd_stablecoins: [tokens.ethereum.usdc], wrapped_native: tokens.ethereum.weth, min_liquidity_usd: 1, max_deviation: 0.5 },
        base: { usd_stablecoins: [tokens.base.usdc], wrapped_native: tokens.base.weth, min_liquidity_usd: 1, max_deviation: 0.5 },
      },
    },
    'test',
  ),
  new Map(chains.map((chain) => [chain.id, chain.family])),
);

const daySeconds = 86_400;
const firstDay = 20_100;
const dayStart = (day: number) => day * daySeconds;
/** Rows fall within this many seconds of each day's start: the spans below cross two day boundaries. */
const reach = 1_500;

/** A small seeded generator (mulberry32): the same rows every run, spread as a random history would be. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('price series', () => {
  let database: ClickHouseDatabase;
  let versions: ChangeVersions;
  let closeVersions: () => void;
  let oracle: PriceOracle;

  beforeAll(async () => {
    database = await setupClickHouseDatabase(uniqueName('price_series'));
    ({ versions, close: closeVersions } = setupChangeVersions());
    const store = createPriceStore(database.clickhouse);
    const random = seeded(37);
    let block = 0;
    for (const chainId of ['ethereum', 'base'] as const) {
      for (let day = firstDay; day <= firstDay + 2; day++) {
        // Each chain marks its days at a time of its own: the day a lookup reads switches twice.
        const markAt = dayStart(day) + Math.floor(random() * 60) + (chainId === 'base' ? 90 : 0);
        const rows = [tokens[chainId].weth, tokens[chainId].gov].flatMap((token, which) =>
          Array.from({ length: 40 }, () => {
            const timestamp = day === firstDay ? markAt + Math.floor(random() * reach) : dayStart(day) + Math.floor((random() - 0.5) * 2 * reach);
            // Now and then a token loses its price for a while.
            const price = random() < 0.1 ? undefined : (which === 0 ? 3_000 : 2) * (0.8 + random() * 0.4);
            return { token, day: Math.floor(timestamp / daySeconds), timestamp, price, depthUsd: 10_000 + random() * 1_000_000 };
          }),
        );
        // The mark's block prices ether alone: GOV's answer changes at the mark without a row of its own there.
        rows.push({ token: tokens[chainId].weth, day, timestamp: markAt, price: 3_000, depthUsd: 50_000 });
        for (const row of rows.sort((a, b) => a.timestamp - b.timestamp)) {
          block += 1;
          const blockHash = `0x${block.toString(16).padStart(64, '0')}`;
          const marks = row.timestamp === markAt;
          await store.write(chainId, {
            prices: [{ ...row, blockNumber: BigInt(block), blockHash }],
            days: marks ? [{ day, timestamp: markAt, blockNumber: BigInt(block), blockHash }] : [],
            volumes: [],
          });
        }
      }
    }
    await versions.pricesChanged();
    oracle = oracleOver(store);
  }, 120_000);
  afterAll(async () => {
    closeVersions();
    await database.drop();
  });

  /** An oracle over a history of its own (nothing kept yet) reading `store`. */
  function oracleOver(store: Pick<PriceStore, 'dayMarks' | 'dayPrices'>): PriceOracle {
    return createPriceOracle({
      registry,
      networks: new Map(chains.map((chain) => [chain.id, chain.network])),
      chains: new Map(chains.map((chain) => [chain.id, { family: chain.family, nativeFungibleId: chain.native_fungible_id }])),
      history: createPriceHistory({ store, versions, chainIds: ['ethereum', 'base'] }),
      fx,
      derived: new Map(),
      clocks: new Map(),
      decimals: async () => new Map(),
      currencyChainId: 'ethereum',
      tokens: () => versions.everythingAndPrices(),
    });
  }

  const asked = [
    { chainId: 'ethereum', address: tokens.ethereum.gov },
    { chainId: 'base', address: tokens.base.weth },
    // The native asset is its wrapped token; a stablecoin is fixed; an unlisted token has no price.
    { chainId: 'ethereum', address: '' },
    { chainId: 'base', address: tokens.base.usdc },
    { chainId: 'ethereum', address: unlisted },
  ];

  test.each(['usd', 'eth', 'eur'] as const)(
    'in %s, every second of a span crossing two day boundaries answers as a lookup at it does',
    async (currency) => {
      const from = dayStart(firstDay + 1) - reach - 10;
      const to = dayStart(firstDay + 2) + reach + 10;
      const series = await oracle.series(
        currency,
        asked.map((token) => ({ ...token, from, to })),
      );
      // Every second near the boundaries (where the rows are) and a sample of the quiet hours between.
      const seconds = [
        ...Array.from({ length: 2 * reach + 200 }, (_, offset) => dayStart(firstDay + 1) - reach - 10 + offset),
        ...Array.from({ length: 500 }, (_, offset) => dayStart(firstDay + 1) + reach + offset * 160),
        ...Array.from({ length: 2 * reach + 21 }, (_, offset) => dayStart(firstDay + 2) - reach - 10 + offset),
      ].filter((time) => time >= from && time <= to);
      for (const [index, token] of asked.entries()) {
        const steps = series[index]!;
        expect(steps.times[0]).toBe(from);
        const looked = await oracle.prices(
          currency,
          seconds.map((timestamp): PriceQuery => ({ ...token, timestamp })),
        );
        expect(seconds.map((time) => priceAtStep(steps, time))).toEqual(looked);
      }
      // The market tokens change often; the stablecoin in usd and the unlisted token not at all.
      expect(series[0]!.times.length).toBeGreaterThan(50);
      if (currency === 'usd') expect(series[3]).toEqual({ times: [from], prices: [1] });
      expect(series[4]).toEqual({ times: [from], prices: [undefined] });
    },
    60_000,
  );

  test('a span starting before any day mark has no price until the first', async () => {
    const from = dayStart(firstDay) - 100;
    const [steps] = await oracle.series('usd', [{ chainId: 'ethereum', address: tokens.ethereum.gov, from, to: dayStart(firstDay) + reach }]);
    expect(steps!.times[0]).toBe(from);
    expect(steps!.prices[0]).toBeUndefined();
    const firstPriced = steps!.times[1]!;
    const [before, at] = await oracle.prices(
      'usd',
      [firstPriced - 1, firstPriced].map((timestamp) => ({ chainId: 'ethereum', address: tokens.ethereum.gov, timestamp })),
    );
    expect([before, at]).toEqual([undefined, steps!.prices[1]]);
    expect(at).toBeDefined();
  });

  test('a span holding more steps than asked for has no series; one within them has', async () => {
    const query = { chainId: 'ethereum', address: tokens.ethereum.gov, from: dayStart(firstDay + 1) - reach, to: dayStart(firstDay + 1) + reach };
    const [whole] = await oracle.series('usd', [query]);
    const steps = whole!.times.length;
    expect(steps).toBeGreaterThan(10);
    expect(await oracle.series('usd', [{ ...query, maxSteps: 10 }])).toEqual([undefined]);
    // Times the price did not change at are counted too: a bound at the changes found is met.
    const [bounded] = await oracle.series('usd', [{ ...query, maxSteps: 200 }]);
    expect(bounded).toEqual(whole);

    // A span of more day marks than steps asked for reads no row: its legs are asked one by one.
    let rowReads = 0;
    const store = createPriceStore(database.clickhouse);
    const counting = oracleOver({ dayMarks: (chainIds) => store.dayMarks(chainIds), dayPrices: (days) => ((rowReads += 1), store.dayPrices(days)) });
    const threeDays = { ...query, from: dayStart(firstDay), to: dayStart(firstDay + 2) + reach };
    expect(await counting.series('usd', [{ ...threeDays, maxSteps: 4 }])).toEqual([undefined]);
    expect(rowReads).toBe(0);
    expect((await counting.series('usd', [threeDays]))[0]!.times.length).toBeGreaterThan(100);
    expect(rowReads).toBe(1);
  });

  test('a span that is not 0 < from <= to, or on an unknown chain, is refused naming it', async () => {
    const refused = (query: { chainId: string; from: number; to: number }) => oracle.series('usd', [{ address: tokens.ethereum.gov, ...query }]);
    await expect(refused({ chainId: 'ethereum', from: 0, to: 10 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: expect.stringContaining('from 0 to 10'),
    });
    await expect(refused({ chainId: 'ethereum', from: 20, to: 10 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: expect.stringContaining('from 20 to 10'),
    });
    await expect(refused({ chainId: 'no-such-chain', from: 1, to: 10 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: expect.stringContaining('no-such-chain'),
    });
  });
});
