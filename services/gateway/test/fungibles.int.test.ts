import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { marketAssets, networksOf, priceMoments } from './one-price-truth.js';
import { startFungiblesGateway, type FungiblesGateway } from './setup-fungibles-gateway.js';

// Spec 4.11 fungibles endpoints over the real stack: reference-data's domain with prices folded
// from the test world's chains, the gateway in front. What is served is held against the registry
// files, the chains configuration and the chains themselves (viem), never against earlier answers.

const testnets = new Set(['sepolia']);
let gateway: FungiblesGateway;
const clients = new Map<string, PublicClient>();

beforeAll(async () => {
  gateway = await startFungiblesGateway();
  for (const chain of gateway.manifest.chains)
    clients.set(chain.id, createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 50 } }), cacheTime: 0 }) as PublicClient);
}, 600_000);

afterAll(async () => {
  await gateway?.close();
});

const mainnetChains = () => new Set(gateway.chains.filter((chain) => chain.network === 'mainnet').map((chain) => chain.id));
/** The registry's tokens with an implementation on a mainnet chain whose contract exists there (the devnet's). */
const registryTokens = () => gateway.registry.tokens.filter((token) => token.implementations.some((ref) => mainnetChains().has(ref.chain_id)));
/** The world's ERC-20s on a chain, as the devnet deployed them. */
const worldTokens = (chainIndex: number) => (gateway.manifest.chains[chainIndex]!.protocols.tokens as { tokens: { symbol: string; address: string }[] }).tokens;
const spamAddresses = () =>
  new Set(Object.entries(gateway.registry.spam_tokens).flatMap(([chainId, addresses]) => addresses.map((address) => `${chainId}:${address.toLowerCase()}`)));

/** Every page of `path` from the first, following links.next. */
async function walk(path: string): Promise<any[]> {
  const resources: any[] = [];
  let next: string | undefined = path;
  for (let pages = 0; next !== undefined; pages++) {
    expect(pages).toBeLessThan(500);
    const { status, body } = await gateway.get(next);
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    resources.push(...body.data);
    next = body.links.next === undefined ? undefined : new URL(body.links.next).pathname + new URL(body.links.next).search;
  }
  return resources;
}

describe('GET /v1/fungibles/ search', () => {
  test('every registry token is found by a prefix of its symbol in any case; spam is never served; an exact symbol comes first', async () => {
    const spam = spamAddresses();
    expect(registryTokens().length).toBeGreaterThan(5);
    for (const token of registryTokens()) {
      const prefix = token.symbol.slice(0, 2);
      for (const query of [prefix.toLowerCase(), prefix.toUpperCase()]) {
        const { status, body } = await gateway.get(`/v1/fungibles/?filter[search_query]=${encodeURIComponent(query)}`);
        expect(status).toBe(200);
        expect(body.data.map((resource: any) => resource.id)).toContain(token.fungible_id);
        for (const resource of body.data) {
          for (const implementation of resource.attributes.implementations)
            expect(spam.has(`${implementation.chain_id}:${implementation.address.toLowerCase()}`)).toBe(false);
        }
        expect(body.data[0].attributes.flags.verified).toBe(true);
      }
      const exact = await gateway.get(`/v1/fungibles/?filter[search_query]=${encodeURIComponent(token.symbol.toLowerCase())}`);
      expect(exact.body.data[0].attributes.symbol.toLowerCase()).toBe(token.symbol.toLowerCase());
    }
  });
});

describe('GET /v1/fungibles/ market data', () => {
  test("each market asset's price is the one price of the market within 2%; stables are 1; each implementation carries its own 24 h volume summing to the fungible's", async () => {
    const [mainnet] = networksOf(gateway.manifest, testnets);
    const [head] = await priceMoments(mainnet!, 0);
    const { body } = await gateway.get('/v1/fungibles/?page[size]=100');
    const assets = marketAssets(mainnet!);
    expect(assets.length).toBeGreaterThan(0);
    let checked = 0;
    for (const asset of assets) {
      const resource = body.data.find((entry: any) =>
        entry.attributes.implementations.some((implementation: any) =>
          asset.implementations.some((ref) => ref.chainId === implementation.chain_id && ref.address === implementation.address.toLowerCase()),
        ),
      );
      expect({ asset: asset.symbol, found: resource !== undefined }).toEqual({ asset: asset.symbol, found: true });
      const { market_data: market, implementations } = resource.attributes;
      const reference = asset.reference(head!.marketTime);
      expect({ asset: asset.symbol, near: Math.abs(market.price / reference - 1) < 0.02 }).toEqual({ asset: asset.symbol, near: true });
      if (asset.reference(0) === 1) expect(Math.abs(market.price - 1)).toBeLessThan(0.01);
      const volumes = implementations.map((implementation: any) => implementation.market_data.trading_volumes.volume_1d);
      expect(volumes.every((volume: unknown) => typeof volume === 'number')).toBe(true);
      expect(volumes.reduce((sum: number, volume: number) => sum + volume, 0)).toBeCloseTo(market.trading_volumes.volume_1d ?? 0, 6);
      checked++;
    }
    expect(checked).toBe(assets.length);
  });

  test('deployment_date is the block time of the first block with code at the implementation (read with viem); native assets have none', async () => {
    const resources = await walk('/v1/fungibles/?filter[implementation_chain_id]=ethereum&page[size]=100');
    const client = clients.get('ethereum')!;
    let contracts = 0;
    for (const resource of resources) {
      for (const implementation of resource.attributes.implementations.filter((entry: any) => entry.chain_id === 'ethereum')) {
        if (implementation.address === '') {
          expect(implementation.deployment_date).toBeNull();
          continue;
        }
        const head = await client.getBlockNumber();
        let block = 0n;
        while (block <= head && ((await client.getCode({ address: implementation.address as Address, blockNumber: block })) ?? '0x') === '0x') block++;
        const { timestamp } = await client.getBlock({ blockNumber: block });
        expect({ address: implementation.address, date: implementation.deployment_date }).toEqual({
          address: implementation.address,
          date: new Date(Number(timestamp) * 1000).toISOString(),
        });
        contracts++;
      }
    }
    expect(contracts).toBeGreaterThan(3);
  });
});

describe('GET /v1/fungibles/ pages and sorts', () => {
  test('pages of 3 walk the whole list without repeats: the same fungibles as one page of 100', async () => {
    const small = await walk('/v1/fungibles/?page[size]=3');
    const ids = small.map((resource) => resource.id);
    expect(new Set(ids).size).toBe(ids.length);
    const whole = await gateway.get('/v1/fungibles/?page[size]=100');
    expect(whole.body.links.next).toBeUndefined();
    expect([...ids].sort()).toEqual(whole.body.data.map((resource: any) => resource.id).sort());
    expect(ids.length).toBeGreaterThan(5);
  });

  test.each([
    ['-market_data.market_cap', (resource: any) => resource.attributes.market_data.market_cap, -1],
    ['market_data.market_cap', (resource: any) => resource.attributes.market_data.market_cap, 1],
    ['-market_data.price.last', (resource: any) => resource.attributes.market_data.price, -1],
    ['market_data.price.last', (resource: any) => resource.attributes.market_data.price, 1],
    ['-market_data.trading_volumes.volume_1d', (resource: any) => resource.attributes.market_data.trading_volumes.volume_1d, -1],
    ['market_data.trading_volumes.volume_1d', (resource: any) => resource.attributes.market_data.trading_volumes.volume_1d, 1],
  ] as const)('sort=%s orders by the value, fungibles without one last', async (sort, value, direction) => {
    const { status, body } = await gateway.get(`/v1/fungibles/?sort=${sort}`);
    expect(status).toBe(200);
    const values: (number | null)[] = body.data.map(value);
    const known = values.filter((entry): entry is number => entry !== null);
    expect(known.length).toBeGreaterThan(1);
    // Market data moves between the ranking's snapshot and the page's answer only with new blocks; the world's chains are at rest.
    expect(values).toEqual([...[...known].sort((a, b) => direction * (a - b)), ...values.filter((entry) => entry === null)]);
  });

  test('the default is market cap descending; filters narrow by id, implementation, address and chain', async () => {
    const byDefault = await gateway.get('/v1/fungibles/');
    const byCap = await gateway.get('/v1/fungibles/?sort=-market_data.market_cap');
    expect(byDefault.body.data.map((resource: any) => resource.id)).toEqual(byCap.body.data.map((resource: any) => resource.id));
    const usdc = gateway.registry.tokens.find((token) => token.fungible_id === 'usdc')!;
    const onEthereum = usdc.implementations.find(
      (ref) => ref.chain_id === 'ethereum' && worldTokens(0).some((token) => token.address.toLowerCase() === ref.address.toLowerCase()),
    )!;
    for (const query of [
      `filter[fungible_ids]=usdc,weth`,
      `filter[fungible_implementations]=ethereum:${onEthereum.address.toUpperCase().replace('0X', '0x')}`,
      `filter[implementation_address]=${onEthereum.address}`,
    ]) {
      const { status, body } = await gateway.get(`/v1/fungibles/?${query}`);
      expect(status).toBe(200);
      expect(body.data.map((resource: any) => resource.id).sort()).toEqual(query.includes('weth') ? ['usdc', 'weth'] : ['usdc']);
    }
    const onBase = await walk('/v1/fungibles/?filter[implementation_chain_id]=base');
    expect(onBase.every((resource) => resource.attributes.implementations.some((implementation: any) => implementation.chain_id === 'base'))).toBe(true);
    expect(onBase.find((resource) => resource.id === 'usdc')).toBeDefined();
    // Unknown filter keys are ignored.
    const ignored = await gateway.get('/v1/fungibles/?filter[color]=blue&filter[fungible_ids]=usdc');
    expect({ status: ignored.status, ids: ignored.body.data.map((resource: any) => resource.id) }).toEqual({ status: 200, ids: ['usdc'] });
  });

  test('asset-class filters with the classification add-on: only classified fungibles, carrying asset_class', async () => {
    const classified = gateway.registry.tokens.filter((token) => token.asset_class && token.implementations.some((ref) => mainnetChains().has(ref.chain_id)));
    const { status, body } = await gateway.get('/v1/fungibles/?filter[has_asset_class]=true', { classified: true });
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThan(0);
    for (const resource of body.data) expect(resource.attributes.asset_class).toBe(classified.find((token) => token.fungible_id === resource.id)?.asset_class);
    const stable = await gateway.get('/v1/fungibles/?filter[asset_class]=stablecoin', { classified: true });
    expect(stable.body.data.map((resource: any) => resource.id).sort()).toEqual(
      body.data
        .filter((resource: any) => resource.attributes.asset_class === 'stablecoin')
        .map((resource: any) => resource.id)
        .sort(),
    );
  });
});

describe('GET /v1/fungibles/{fungible_id} and by-implementation', () => {
  test("a chain's native asset by the chain id alone, on mainnet and with X-Env: testnet", async () => {
    for (const [chainId, headers] of [
      ['ethereum', {}],
      ['sepolia', { 'X-Env': 'testnet' }],
    ] as const) {
      const chain = gateway.chains.find((entry) => entry.id === chainId)!;
      const { status, body } = await gateway.get(`/v1/fungibles/by-implementation?implementation=${chainId}`, { headers });
      expect(status).toBe(200);
      expect(body.data.id).toBe(chain.native_fungible_id);
      expect(body.data.attributes.symbol).toBe(chain.native.symbol);
      expect(body.data.attributes.implementations).toContainEqual({
        chain_id: chainId,
        decimals: chain.native.decimals,
        address: '',
        market_data: { trading_volumes: { volume_1d: null } },
        deployment_date: null,
      });
    }
  });

  test('a token by implementation and by id: the same fungible, with chart links', async () => {
    const usdc = worldTokens(0).find((token) => token.symbol === 'USDC')!;
    const byImplementation = await gateway.get(`/v1/fungibles/by-implementation?implementation=ethereum:${usdc.address}`);
    const byId = await gateway.get('/v1/fungibles/usdc');
    expect(byImplementation.status).toBe(200);
    expect(byImplementation.body.data.id).toBe('usdc');
    expect(byId.body.data.attributes.implementations).toEqual(byImplementation.body.data.attributes.implementations);
    expect(byId.body.data.relationships.chart_day).toEqual({ links: { related: 'https://api.wallet.test/v1/fungibles/usdc/charts/day' } });
  });

  test.each([
    ['/v1/fungibles/not-a-fungible', 404, 'not-a-fungible'],
    ['/v1/fungibles/by-implementation?implementation=ethereum:0x00000000000000000000000000000000000000ff', 404, '0x00000000000000000000000000000000000000ff'],
    ['/v1/fungibles/by-implementation', 400, 'implementation'],
    ['/v1/fungibles/by-implementation?implementation=', 400, 'implementation'],
    ['/v1/fungibles/by-implementation?implementation=ethereum:0x12', 400, 'implementation'],
    ['/v1/fungibles/by-implementation?implementation=ethereum:0x00000000000000000000000000000000000000ff:1', 400, 'implementation'],
    ['/v1/fungibles/by-implementation?implementation=atlantis', 400, 'implementation'],
    ['/v1/fungibles/by-implementation?implementation=sepolia', 400, 'implementation'],
  ])('%s answers %s naming %s', async (path, status, named) => {
    const answer = await gateway.get(path);
    expect(answer.status).toBe(status);
    expect(answer.body.errors[0].detail).toContain(named);
  });
});

describe('GET /v1/fungibles/ errors', () => {
  test.each([
    ['filter[search_query]='],
    ['filter[implementation_chain_id]='],
    ['filter[implementation_chain_id]=atlantis'],
    ['filter[implementation_address]='],
    ['filter[implementation_address]=0x1234'],
    ['filter[fungible_implementations]='],
    ['filter[fungible_implementations]=ethereum'],
    ['filter[fungible_ids]='],
    ['filter[fungible_ids]=usdc,'],
    ['filter[asset_class]='],
    ['filter[has_asset_class]=false'],
    ['sort='],
    ['sort=name'],
    ['page[size]=0'],
    ['page[size]=101'],
    ['page[after]=garbage'],
    ['currency=doge'],
  ])('%s gives 400 naming the parameter', async (query) => {
    const { status, body } = await gateway.get(`/v1/fungibles/?${query}`, { classified: true });
    expect({ status, title: body.errors[0].title }).toEqual({ status: 400, title: 'Parameter is malformed' });
    expect(body.errors[0].detail).toContain(query.slice(0, query.indexOf('=')));
  });

  test('the asset-class filters need the classification add-on (403), and go with no lookup filter (400)', async () => {
    for (const query of ['filter[has_asset_class]=true', 'filter[asset_class]=stablecoin']) {
      const refused = await gateway.get(`/v1/fungibles/?${query}`);
      expect({ status: refused.status, detail: refused.body.errors[0].detail }).toEqual({ status: 403, detail: expect.stringContaining('classification') });
      for (const lookup of [
        'filter[search_query]=us',
        'filter[fungible_ids]=usdc',
        'filter[implementation_address]=0x00000000000000000000000000000000000000ff',
        'filter[fungible_implementations]=ethereum:0x00000000000000000000000000000000000000ff',
      ]) {
        const both = await gateway.get(`/v1/fungibles/?${query}&${lookup}`, { classified: true });
        expect({ status: both.status, detail: both.body.errors[0].detail }).toEqual({
          status: 400,
          detail: expect.stringContaining(lookup.slice(0, lookup.indexOf('='))),
        });
      }
    }
    // With the chain filter, which is no lookup, an asset-class filter is fine.
    expect((await gateway.get('/v1/fungibles/?filter[has_asset_class]=true&filter[implementation_chain_id]=ethereum', { classified: true })).status).toBe(200);
  });
});
