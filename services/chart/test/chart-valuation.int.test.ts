import { createGrpcClient } from '@wallet-api/core/grpc';
import { Network, RequestContext } from '@wallet-api/core/proto/common';
import { ReferenceDataClient, TokenInfo, TokenInterface, type PriceQuery } from '@wallet-api/core/proto/reference_data';
import { createPointPriceCache, createTokenDirectory } from '@wallet-api/core/reference-data';
import { setupChangeVersions } from '@wallet-api/core/testing';
import fc from 'fast-check';
import { formatUnits } from 'viem';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { createChartValuation } from '../src/prices/chart-valuation.js';
import type { ChartAsset } from '../src/series/bucketed-changes.js';

// A chart's points valued against a reference-data fixture over gRPC, with prices kept under real
// change tokens in Redis: every point equals its balances times their fungibles' prices then,
// summed in the series' order, and each fungible's price at a time is asked once.

const token = (chainId: string, address: string, decimals: number, extra: Partial<TokenInfo> = {}) =>
  TokenInfo.fromPartial({
    chainId,
    address,
    decimals,
    interface: address === '' ? TokenInterface.TOKEN_INTERFACE_NATIVE : TokenInterface.TOKEN_INTERFACE_ERC20,
    ...extra,
  });
const tokens = [
  // Ether on two chains and a dollar on two chains: one fungible each, one price each.
  token('ethereum', '', 18, { fungibleId: 'eth' }),
  token('base', '', 18, { fungibleId: 'eth' }),
  token('ethereum', '0x00000000000000000000000000000000000000a1', 6, { fungibleId: 'usd-coin' }),
  token('base', '0x00000000000000000000000000000000000000b1', 6, { fungibleId: 'usd-coin' }),
  // A token without a fungible id: priced as its implementation.
  token('ethereum', '0x00000000000000000000000000000000000000c1', 9),
  token('ethereum', '0x00000000000000000000000000000000000000d1', 18, { fungibleId: 'spam', isSpam: true }),
  token('ethereum', '0x00000000000000000000000000000000000000e1', 0, { interface: TokenInterface.TOKEN_INTERFACE_UNKNOWN }),
];
const assets: ChartAsset[] = tokens.map(({ chainId, address }) => ({ chainId, asset: address }));
const infoOf = (asset: ChartAsset) => tokens.find((info) => info.chainId === asset.chainId && info.address === asset.asset)!;
const seriesOf = (info: TokenInfo) => info.fungibleId || `${info.chainId}:${info.address}`;

/** The market: one price per fungible and time, none for the dollar at every fifth time. */
let level = 1;
function marketPrice(series: string, timestamp: number): number | undefined {
  if (series === 'usd-coin' && timestamp % 5 === 0) return undefined;
  return level * (series.length + (timestamp % 97) / 7);
}
const answer = (query: PriceQuery) => marketPrice(seriesOf(infoOf({ chainId: query.token!.chainId, asset: query.token!.address })), Number(query.timestamp));

const context = RequestContext.fromPartial({ network: Network.NETWORK_MAINNET });
const changes = setupChangeVersions();
let referenceData: RunningReferenceData;
let client: ReferenceDataClient;

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({ tokens, dapps: [], price: answer });
  client = createGrpcClient(ReferenceDataClient, referenceData.address);
});

afterAll(async () => {
  client.close();
  changes.close();
  await referenceData.stop();
});

/** What every point must be: its non-trash balances, in the series' order, times their prices then. */
function modelValues(
  times: readonly number[],
  held: readonly { asset: ChartAsset; balances: readonly bigint[] }[],
  only: readonly string[],
  excluded: readonly string[],
): number[] {
  return times.map((timestamp, point) => {
    let value = 0;
    for (const { asset, balances } of held) {
      const info = infoOf(asset);
      if (info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN || balances[point] === 0n) continue;
      if ((only.length > 0 && !only.includes(info.fungibleId)) || excluded.includes(info.fungibleId)) continue;
      const price = marketPrice(seriesOf(info), timestamp);
      if (price !== undefined) value += Number(formatUnits(balances[point]!, info.decimals)) * price;
    }
    return value;
  });
}

/** The (series, time) pairs each GetPrices request since `before` asked. */
const askedSince = (before: number) =>
  referenceData.getPricesRequests
    .slice(before)
    .flatMap((request) =>
      request.queries.map((query) => `${seriesOf(infoOf({ chainId: query.token!.chainId, asset: query.token!.address }))}@${query.timestamp}`),
    );

const balance = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 24n }));
/** Balances that mostly hold for a few points, as a wallet's do. */
const balancesOf = (points: number) =>
  fc.array(fc.tuple(balance, fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: points }).map((runs) =>
    runs
      .flatMap(([amount, length]) => Array<bigint>(length).fill(amount))
      .concat(Array<bigint>(points).fill(0n))
      .slice(0, points),
  );
const fungibleIds = fc.subarray(['eth', 'usd-coin', 'spam', 'missing']);

test('every point equals its balances times their prices then; each price is asked once, and kept prices not again', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }).chain((points) =>
        fc
          .record({
            start: fc.integer({ min: 1_600_000_000, max: 1_700_000_000 }),
            step: fc.integer({ min: 1, max: 3_600 }),
            held: fc
              .uniqueArray(fc.integer({ min: 0, max: assets.length - 1 }), { minLength: 1, maxLength: assets.length })
              .chain((picked) => fc.tuple(...picked.map((index) => balancesOf(points).map((balances) => ({ asset: assets[index]!, balances }))))),
            filter: fc.oneof(
              fc.constant({ only: [] as string[], excluded: [] as string[] }),
              fungibleIds.map((only) => ({ only, excluded: [] })),
              fungibleIds.map((excluded) => ({ only: [], excluded })),
            ),
            level: fc.integer({ min: 1, max: 5 }),
          })
          .map((run) => ({ ...run, times: Array.from({ length: points }, (_, point) => run.start + point * run.step) })),
      ),
      async ({ times, held, filter, level: runLevel }) => {
        level = runLevel;
        // Every time is long settled: each price asked may be kept.
        const cache = createPointPriceCache({ versions: changes.versions, settleSeconds: 600, maxEntries: 100_000, now: () => (times.at(-1)! + 3_600) * 1000 });
        const valuation = createChartValuation({ referenceData: client, tokens: createTokenDirectory(client), cache });
        const request = { context, currency: 'usd', fungibleIds: filter.only, excludeFungibleIds: filter.excluded };
        const expected = modelValues(times, held, filter.only, filter.excluded);

        const before = referenceData.getPricesRequests.length;
        expect(await valuation.values(request, times, held)).toEqual(expected);
        const asked = askedSince(before);
        expect(new Set(asked).size).toBe(asked.length);

        const again = referenceData.getPricesRequests.length;
        expect(await valuation.values(request, times, held)).toEqual(expected);
        expect(askedSince(again)).toEqual([]);
      },
    ),
    { numRuns: 60 },
  );
});
