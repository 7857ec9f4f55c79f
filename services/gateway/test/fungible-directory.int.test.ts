import { randomBytes } from 'node:crypto';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import { Fungible, ReferenceDataClient, type GetFungiblesRequest } from '@wallet-api/core/proto/reference_data';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { createFungibleDirectory } from '@wallet-api/core/resources';

// The gateway's GetFungibles lookups over gRPC against a reference-data fixture that knows USDC on
// two chains: what is asked, how often, and what a short reuse window saves.

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const usdcEthereum = randomAddress();
const usdcBase = randomAddress();
const stranger = randomAddress();
const context = (addons: string[] = []): RequestContext => ({ organizationId: 'org', roles: [], addons, network: Network.NETWORK_MAINNET });

/** USDC priced by the request's currency, classified for the add-on, so a reused answer shows where it came from. */
const answer = (request: GetFungiblesRequest): Fungible[] => {
  const usdc = Fungible.fromPartial({
    id: 'usdc',
    implementations: [
      { chainId: 'ethereum', address: usdcEthereum, decimals: 6 },
      { chainId: 'base', address: usdcBase, decimals: 6 },
    ],
    marketData: { price: request.currency === 'eur' ? 0.9 : 1 },
    assetClass: request.context?.addons.includes('classification') ? 'stablecoin' : '',
  });
  return request.implementations.some((ref) =>
    usdc.implementations.some((implementation) => implementation.chainId === ref.chainId && implementation.address === ref.address),
  )
    ? [usdc]
    : [];
};

let referenceData: RunningReferenceData;
let client: ReferenceDataClient;

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({ tokens: [], dapps: [], fungibles: answer });
  client = createGrpcClient(ReferenceDataClient, referenceData.address);
});

afterAll(async () => {
  client.close();
  await referenceData.stop();
});

/** The implementations each GetFungibles request since `before` asked for. */
const askedSince = (before: number) =>
  referenceData.getFungiblesRequests.slice(before).map((request) => request.implementations.map((ref) => `${ref.chainId}:${ref.address}`));

describe('fungible directory', () => {
  test('without reuse: one request per lookup, each implementation once whatever its case, none for no tokens', async () => {
    const directory = createFungibleDirectory(client, { ttlMs: 0 });
    const before = referenceData.getFungiblesRequests.length;
    const tokens = [
      { chainId: 'ethereum', address: usdcEthereum },
      { chainId: 'ethereum', address: usdcEthereum.toUpperCase().replace('0X', '0x') },
      { chainId: 'ethereum', address: '' },
      { chainId: 'ethereum', address: usdcEthereum },
    ];
    expect((await directory.lookup(context(), 'usd', tokens)).map((fungible) => fungible.id)).toEqual(['usdc']);
    expect(await directory.lookup(context(), 'usd', [])).toEqual([]);
    expect((await directory.lookup(context(), 'usd', tokens)).map((fungible) => fungible.id)).toEqual(['usdc']);
    expect(askedSince(before)).toEqual([
      [`ethereum:${usdcEthereum}`, 'ethereum:'],
      [`ethereum:${usdcEthereum}`, 'ethereum:'],
    ]);
  });

  test('with reuse: answers and unknown tokens are reused until they expire, per currency and entitlements; a fungible answers for its other chains', async () => {
    let clock = 1_000_000;
    const directory = createFungibleDirectory(client, { ttlMs: 15_000, now: () => clock });
    const before = referenceData.getFungiblesRequests.length;
    const lookup = async (tokens: { chainId: string; address: string }[], currency = 'usd', addons: string[] = []) =>
      (await directory.lookup(context(addons), currency, tokens)).map((fungible) => [fungible.id, fungible.marketData?.price, fungible.assetClass]);

    expect(
      await lookup([
        { chainId: 'ethereum', address: usdcEthereum },
        { chainId: 'ethereum', address: stranger },
      ]),
    ).toEqual([['usdc', 1, '']]);
    clock += 14_999;
    expect(
      await lookup([
        { chainId: 'base', address: usdcBase },
        { chainId: 'ethereum', address: stranger },
      ]),
    ).toEqual([['usdc', 1, '']]);
    expect(askedSince(before)).toEqual([[`ethereum:${usdcEthereum}`, `ethereum:${stranger}`]]);

    expect(await lookup([{ chainId: 'ethereum', address: usdcEthereum }], 'eur')).toEqual([['usdc', 0.9, '']]);
    expect(await lookup([{ chainId: 'ethereum', address: usdcEthereum }], 'usd', ['classification'])).toEqual([['usdc', 1, 'stablecoin']]);
    expect(askedSince(before).slice(1)).toEqual([[`ethereum:${usdcEthereum}`], [`ethereum:${usdcEthereum}`]]);

    // Only what is missing or expired is asked for.
    clock += 1;
    expect(
      await lookup(
        [
          { chainId: 'base', address: usdcBase },
          { chainId: 'base', address: '' },
        ],
        'eur',
      ),
    ).toEqual([['usdc', 0.9, '']]);
    expect(askedSince(before).slice(3)).toEqual([['base:']]);
    expect(await lookup([{ chainId: 'ethereum', address: stranger }])).toEqual([]);
    expect(askedSince(before).slice(4)).toEqual([[`ethereum:${stranger}`]]);
  });

  test('with a generation: a change of prices asks again before the time is up; an unreadable generation asks every time', async () => {
    let generation: string | Error = 'one';
    const directory = createFungibleDirectory(client, {
      ttlMs: 60_000,
      generation: async () => {
        if (generation instanceof Error) throw generation;
        return generation;
      },
    });
    const before = referenceData.getFungiblesRequests.length;
    const usdc = [{ chainId: 'ethereum', address: usdcEthereum }];
    for (let index = 0; index < 2; index++) await directory.lookup(context(), 'usd', usdc);
    expect(askedSince(before)).toEqual([[`ethereum:${usdcEthereum}`]]);
    generation = 'two';
    for (let index = 0; index < 2; index++) await directory.lookup(context(), 'usd', usdc);
    expect(askedSince(before)).toEqual([[`ethereum:${usdcEthereum}`], [`ethereum:${usdcEthereum}`]]);
    generation = new Error('redis is away');
    for (let index = 0; index < 2; index++) expect((await directory.lookup(context(), 'usd', usdc)).map((fungible) => fungible.id)).toEqual(['usdc']);
    expect(askedSince(before)).toHaveLength(4);

    // A generation the caller read already is used as read: a lookup under 'two' finds the answer
    // kept under it while the directory's own read would fail; another asks again.
    expect((await directory.lookup(context(), 'usd', usdc, 'two')).map((fungible) => fungible.id)).toEqual(['usdc']);
    expect(askedSince(before)).toHaveLength(4);
    await directory.lookup(context(), 'usd', usdc, 'three');
    expect(askedSince(before)).toHaveLength(5);
  });

  test('lookups at once under one generation share the call asking a token; another generation asks again; a failed call fails its waiting lookups', async () => {
    const directory = createFungibleDirectory(client, { ttlMs: 60_000 });
    const before = referenceData.getFungiblesRequests.length;
    const ids = (fungibles: Fungible[]) => fungibles.map((fungible) => fungible.id);
    // As every answer after a price move asks at once: the second and third lookups wait for the first's call.
    const [first, second, third] = await Promise.all([
      directory.lookup(
        context(),
        'usd',
        [
          { chainId: 'ethereum', address: usdcEthereum },
          { chainId: 'ethereum', address: stranger },
        ],
        'one',
      ),
      directory.lookup(
        context(),
        'usd',
        [
          { chainId: 'ethereum', address: usdcEthereum },
          { chainId: 'ethereum', address: '' },
        ],
        'one',
      ),
      directory.lookup(context(), 'usd', [{ chainId: 'ethereum', address: stranger }], 'one'),
    ]);
    expect([ids(first), ids(second), ids(third)]).toEqual([['usdc'], ['usdc'], []]);
    expect(askedSince(before)).toEqual([[`ethereum:${usdcEthereum}`, `ethereum:${stranger}`], ['ethereum:']]);
    // Under another generation nothing is shared with the calls before it.
    const [moved] = await Promise.all([
      directory.lookup(context(), 'usd', [{ chainId: 'ethereum', address: usdcEthereum }], 'two'),
      directory.lookup(context(), 'eur', [{ chainId: 'ethereum', address: usdcEthereum }], 'two'),
    ]);
    expect(ids(moved)).toEqual(['usdc']);
    expect(askedSince(before)).toHaveLength(4);

    // A call that fails fails the lookups waiting for it too.
    const broken = createGrpcClient(ReferenceDataClient, '127.0.0.1:1');
    const failing = createFungibleDirectory(broken, { ttlMs: 60_000 });
    const results = await Promise.allSettled([
      failing.lookup(context(), 'usd', [{ chainId: 'ethereum', address: usdcEthereum }], 'one'),
      failing.lookup(context(), 'usd', [{ chainId: 'ethereum', address: usdcEthereum }], 'one'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    broken.close();
  });

  test('the oldest answers go first past the size bound', async () => {
    const directory = createFungibleDirectory(client, { ttlMs: 60_000, maxEntries: 2 });
    const [a, b, c] = [randomAddress(), randomAddress(), randomAddress()];
    const before = referenceData.getFungiblesRequests.length;
    for (const address of [a, b, c, b, a]) await directory.lookup(context(), 'usd', [{ chainId: 'ethereum', address }]);
    expect(askedSince(before)).toEqual([[`ethereum:${a}`], [`ethereum:${b}`], [`ethereum:${c}`], [`ethereum:${a}`]]);
  });

  test('more implementations than one request may carry are asked in several', async () => {
    const directory = createFungibleDirectory(client, { ttlMs: 0 });
    const before = referenceData.getFungiblesRequests.length;
    const tokens = [
      { chainId: 'ethereum', address: usdcEthereum },
      ...Array.from({ length: 1_000 }, () => ({ chainId: 'ethereum', address: randomAddress() })),
    ];
    expect((await directory.lookup(context(), 'usd', tokens)).map((fungible) => fungible.id)).toEqual(['usdc']);
    expect(
      askedSince(before)
        .map((asked) => asked.length)
        .sort((x, y) => y - x),
    ).toEqual([1_000, 1]);
  });
});
