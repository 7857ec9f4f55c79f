import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { consumerGroupCaughtUp, eventually, setupKafka, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { createPublicClient, formatUnits, http, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import { readWalletTruth, type WalletTruth } from '../../../devnet/src/truth/index.js';
import { protocolHoldings, walletHoldings, type Holding } from '../../positions/test/chain-truth.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { createChangeVersions } from '@wallet-api/core/cache';
import { createApp } from '../src/app.js';
import { createResponseCache } from '../src/cache/response-cache.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import { loadFungibleTruth, type ExpectedFungible } from './fungible-truth.js';
import { marketAssets, networksOf, priceMoments } from './one-price-truth.js';

// The positions and portfolio endpoints over the real positions service fed by the test world
// (chain -> indexer -> Kafka -> positions consumers -> PostgreSQL -> gRPC -> gateway), held
// against the chain: every quantity equals what the devnet's truth readers read with viem at the
// same block, in the spec's Quantity form. The shared chains are only read.

const publicUrl = 'https://api.wallet.test';
/** Wallets per chain: those with the most protocol positions, so every adapter's rows pass through; and the deployer. */
const walletsPerChain = 3;
const testnets = new Set(['sepolia']);

interface SampledWallet {
  chain: ChainWorld;
  address: string;
  truth: WalletTruth;
}

let manifest: Manifest;
let harness: PositionsHarness;
let backends: Backends;
let server: Server;
let baseUrl: string;
let authorization: string;
/** A key of an organization with the classification add-on. */
let classifiedAuthorization: string;
const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
const kafka = setupKafka('positions-world-test');
const sampled: SampledWallet[] = [];
const heads = new Map<string, bigint>();

const networkHeaders = (chainId: string): Record<string, string> => (testnets.has(chainId) ? { 'X-Env': 'testnet' } : {});

async function get(path: string, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization, ...headers } });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** The wallet's positions on its chain through the gateway, with `query` parameters (and the key of `headers.authorization` if given). */
async function positionsOf(
  wallet: Pick<SampledWallet, 'chain' | 'address'>,
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<any[]> {
  const search = new URLSearchParams({ 'filter[chain_ids]': wallet.chain.id, ...query });
  const path = `/v1/wallets/${wallet.address}/positions/?${search}`;
  const body = await get(path, { ...networkHeaders(wallet.chain.id), ...headers });
  expect(body.links).toEqual({ self: `${publicUrl}${path}` });
  return body.data;
}

/** A fungible_info's implementation on `chainId`: its address there ('' for the native asset). */
const addressOn = (fungibleInfo: any, chainId: string): string =>
  fungibleInfo.implementations.find((implementation: any) => implementation.chain_id === chainId).address ?? '';
const assetAddress = (resource: any): string => addressOn(resource.attributes.fungible_info, resource.relationships.chain.data.id);
/** The fungible_infos a position shows, with the address each names on the position's chain. */
const shownFungibles = (resource: any): { address: string; info: any }[] => {
  const chainId = resource.relationships.chain.data.id;
  const receipt = resource.attributes.receipt?.fungible_info;
  return [
    { address: assetAddress(resource), info: resource.attributes.fungible_info },
    ...(receipt ? [{ address: addressOn(receipt, chainId), info: receipt }] : []),
  ];
};
const ids = (resources: readonly any[]) => resources.map((resource) => resource.id).sort();

/** A served protocol position reduced the way chain-truth reduces the chain's. */
function servedHolding(resource: any): Holding {
  const { attributes } = resource;
  const receipt = attributes.receipt;
  return {
    type: attributes.position_type,
    token: assetAddress(resource),
    amount: BigInt(attributes.quantity.int),
    receipt: receipt?.fungible_info
      ? `fungible:${addressOn(receipt.fungible_info, resource.relationships.chain.data.id)}:${receipt.quantity?.int ?? '0'}`
      : receipt?.nft_info
        ? `nft:${receipt.nft_info.contract_address}:${receipt.nft_info.token_id}`
        : '',
    pool: attributes.pool_address ?? '',
  };
}

function sortHoldings(holdings: Holding[]): Holding[] {
  const key = (holding: Holding) => `${holding.type}|${holding.token}|${holding.receipt}|${holding.pool}|${holding.amount}`;
  return holdings.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Equal up to float summation order: within a billionth of the magnitude. */
const near = (value: number) => expect.closeTo(value, 9 - Math.ceil(Math.log10(Math.max(1, Math.abs(value)))));

/** Spec 2.1, checked with viem's formatting rather than the gateway's. */
function expectQuantity(quantity: any, amount: bigint, decimals: number): void {
  const numeric = formatUnits(amount, decimals);
  expect(quantity).toEqual({ int: amount.toString(), decimals, float: Number(numeric), numeric });
}

beforeAll(async () => {
  manifest = await readManifest();
  harness = await startPositionsHarness();
  for (const chain of manifest.chains) harness.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await harness.startConsumers();
  const service = await harness.startService();
  backends = createBackends({ referenceData: harness.referenceDataAddress, indexer: harness.referenceDataAddress, positions: service.address });
  const gatewayChanges = createChangeVersions(redis, { keyPrefix: harness.changes.keyPrefix });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
    changes: gatewayChanges,
    responseCache: createResponseCache({ versions: gatewayChanges, logger: testLogger, maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000 }),
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('positions-world'), roles: [], addons: [] });
  authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  const { key: classifiedKey } = await createOrganizationKey(prisma, { org: uniqueName('positions-world-classified'), roles: [], addons: ['classification'] });
  classifiedAuthorization = `Basic ${Buffer.from(`${classifiedKey}:`).toString('base64')}`;

  for (const chain of manifest.chains) {
    const client: PublicClient = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    const head = await client.getBlockNumber();
    heads.set(chain.id, head);
    const candidates: SampledWallet[] = [];
    for (const address of [...chain.wallets.map((wallet) => wallet.address), chain.deployer]) {
      candidates.push({ chain, address: address.toLowerCase(), truth: await readWalletTruth(client, chain, address as Address, head) });
    }
    const protocolRows = (wallet: SampledWallet) => protocolHoldings(wallet.truth, chain).length;
    const ranked = candidates.sort((a, b) => protocolRows(b) - protocolRows(a)).slice(0, walletsPerChain);
    // The deployer's ether is a genesis allocation, in no transaction: it is served all the same.
    const deployer = candidates.find((wallet) => wallet.address === chain.deployer.toLowerCase())!;
    sampled.push(...ranked, ...(ranked.includes(deployer) ? [] : [deployer]));
  }

  // Prices move while the harness folds the world's pool events (a batch every few seconds): the
  // tests compare served prices with GetPrices, so they start once every block up to the heads is
  // indexed and every pool event published is folded.
  for (const [chainId, head] of heads) {
    await eventually(async () => {
      const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: head } } });
      expect(checkpoint).not.toBeNull();
    }, 240_000);
  }
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.prices.pool-events`, harness.topics.poolEvents.name), 120_000);
}, 600_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  backends?.close();
  await harness?.close();
  redis.disconnect();
  await prisma.$disconnect();
});

describe('GET /v1/wallets/{address}/positions/ over the test world', () => {
  test('simple positions: each balance equals the chain exactly, as a spec 2.1 Quantity of the token decimals (testnet through X-Env)', async () => {
    await eventually(async () => {
      for (const wallet of sampled) {
        const served = await positionsOf(wallet, { 'filter[positions]': 'only_simple', 'filter[trash]': 'no_filter' });
        const held = new Map(served.map((resource) => [assetAddress(resource), BigInt(resource.attributes.quantity.int)]));
        expect({ wallet: wallet.address, held }).toEqual({ wallet: wallet.address, held: walletHoldings(wallet.truth) });
      }
    }, 240_000);
    const decimals = (wallet: SampledWallet, address: string) =>
      address === '' ? 18 : (wallet.truth.tokens.find((token) => token.address.toLowerCase() === address)?.decimals ?? 18);
    for (const wallet of sampled) {
      for (const resource of await positionsOf(wallet, { 'filter[positions]': 'only_simple', 'filter[trash]': 'no_filter' })) {
        const { attributes, relationships } = resource;
        const address = assetAddress(resource);
        expectQuantity(attributes.quantity, BigInt(attributes.quantity.int), decimals(wallet, address));
        expect(attributes.fungible_info.implementations).toContainEqual({
          chain_id: wallet.chain.id,
          decimals: decimals(wallet, address),
          address: address === '' ? null : address,
        });
        expect([attributes.position_type, attributes.protocol, attributes.application_metadata, attributes.receipt]).toEqual([
          'wallet',
          null,
          undefined,
          undefined,
        ]);
        expect(relationships.chain).toEqual({ links: { related: `${publicUrl}/v1/chains/${wallet.chain.id}` }, data: { type: 'chains', id: wallet.chain.id } });
        expect(relationships.dapp).toBeUndefined();
        if (attributes.fungible_info.id) expect(relationships.fungible.data).toEqual({ type: 'fungibles', id: attributes.fungible_info.id });
        expect(new Date(attributes.updated_at).toISOString()).toBe(attributes.updated_at);
      }
    }
  }, 300_000);

  test('protocol positions (sync=true): LP amounts, V3 amounts and fees, vault assets, stakes, deposits and debts equal the chain, with dapp and receipt', async () => {
    let seen = 0;
    for (const wallet of sampled) {
      const served = await positionsOf(wallet, { 'filter[positions]': 'only_complex', 'filter[trash]': 'no_filter', sync: 'true' });
      expect({ wallet: wallet.address, positions: sortHoldings(served.map(servedHolding)) }).toEqual({
        wallet: wallet.address,
        positions: protocolHoldings(wallet.truth, wallet.chain),
      });
      seen += served.length;
      for (const resource of served) {
        const { attributes, relationships } = resource;
        const onChain = (info: any) => info.implementations.find((implementation: any) => implementation.chain_id === wallet.chain.id);
        expectQuantity(attributes.quantity, BigInt(attributes.quantity.int), onChain(attributes.fungible_info).decimals);
        expect(attributes.updated_at_block).toBe(Number(heads.get(wallet.chain.id)));
        expect(Object.keys(attributes.application_metadata).sort()).toEqual(['icon', 'name', 'url']);
        expect(relationships.dapp).toEqual({ data: { type: 'dapps', id: expect.any(String) } });
        if (attributes.receipt?.quantity) {
          expectQuantity(attributes.receipt.quantity, BigInt(attributes.receipt.quantity.int), onChain(attributes.receipt.fungible_info).decimals);
        }
        if (attributes.protocol_module === 'liquidity_pool' || attributes.receipt?.nft_info) {
          const group = served.filter((other) => other.attributes.group_id === attributes.group_id);
          expect(new Set(group.map((other) => other.attributes.pool_address))).toEqual(new Set([attributes.pool_address]));
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  }, 600_000);

  test('no_filter leaves out wallet rows of receipt tokens a protocol row carries; ids stable across requests; sort by value both ways', async () => {
    for (const wallet of sampled) {
      const simple = await positionsOf(wallet, { 'filter[positions]': 'only_simple' });
      const complex = await positionsOf(wallet, { 'filter[positions]': 'only_complex' });
      const all = await positionsOf(wallet, { 'filter[positions]': 'no_filter' });
      const receipts = new Set(
        complex.flatMap((resource) =>
          resource.attributes.receipt?.fungible_info ? [addressOn(resource.attributes.receipt.fungible_info, wallet.chain.id)] : [],
        ),
      );
      const expected = [...simple.filter((resource) => !receipts.has(assetAddress(resource))), ...complex];
      expect({ wallet: wallet.address, ids: ids(all) }).toEqual({ wallet: wallet.address, ids: ids(expected) });
      expect(ids(await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'page[size]': '1' }))).toEqual(ids(all));

      // Priced positions by value, unpriced ones (value null) after them, either way.
      const expectSorted = (resources: any[], direction: 1 | -1) => {
        const values: (number | null)[] = resources.map((resource) => resource.attributes.value);
        const priced = values.filter((value): value is number => value !== null);
        expect(values).toEqual([...[...priced].sort((a, b) => direction * (a - b)), ...values.filter((value) => value === null)]);
      };
      expectSorted(all, -1);
      const ascending = await positionsOf(wallet, { 'filter[positions]': 'no_filter', sort: '-value' });
      expect(ids(ascending)).toEqual(ids(all));
      expectSorted(ascending, 1);
    }
  }, 300_000);

  test("price, value and the 1-day change: quantity times reference-data's price now, and the same quantity at its price a day ago", async () => {
    let valued = 0;
    for (const wallet of sampled) {
      const served = await positionsOf(wallet, { 'filter[positions]': 'no_filter' });
      const dayAgo = Math.floor(Date.now() / 60_000) * 60 - 86_400;
      const context = { organizationId: '', roles: [], addons: [], network: testnets.has(wallet.chain.id) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET };
      const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
        context,
        currency: 'usd',
        queries: served.flatMap((resource) => [
          { token: { chainId: wallet.chain.id, address: assetAddress(resource) }, timestamp: '0' },
          { token: { chainId: wallet.chain.id, address: assetAddress(resource) }, timestamp: String(dayAgo) },
        ]),
      });
      served.forEach((resource, index) => {
        const { quantity, price, value, changes } = resource.attributes;
        const [now, before] = [prices[2 * index]!.price, prices[2 * index + 1]!.price];
        if (now === undefined) {
          expect({ id: resource.id, price, value, changes }).toEqual({ id: resource.id, price: null, value: null, changes: null });
          return;
        }
        valued++;
        expect({ id: resource.id, price, value }).toEqual({ id: resource.id, price: now, value: near(quantity.float * now) });
        if (before === undefined) {
          expect(changes).toBeNull();
          return;
        }
        const change = quantity.float * now - quantity.float * before;
        const older = quantity.float * before;
        expect(changes).toEqual({ absolute_1d: near(change), percent_1d: near(older === 0 ? 0 : (change / older) * 100) });
      });
    }
    expect(valued).toBeGreaterThan(0);
  }, 300_000);

  test('filters: position types, fungible ids, dapp ids and trash keep exactly the matching rows', async () => {
    const wallet = sampled.find((candidate) => protocolHoldings(candidate.truth, candidate.chain).length > 0)!;
    const all = await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'filter[trash]': 'no_filter' });
    const only = async (query: Record<string, string>, keep: (resource: any) => boolean) => {
      const served = await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'filter[trash]': 'no_filter', ...query });
      expect({ query, ids: ids(served) }).toEqual({ query, ids: ids(all.filter(keep)) });
      return served;
    };
    expect(
      await only({ 'filter[position_types]': 'wallet,deposit' }, (resource) => ['wallet', 'deposit'].includes(resource.attributes.position_type)),
    ).not.toHaveLength(0);
    const fungibleId = all.find((resource) => resource.attributes.fungible_info.id)!.attributes.fungible_info.id;
    expect(await only({ 'filter[fungible_ids]': fungibleId }, (resource) => resource.attributes.fungible_info.id === fungibleId)).not.toHaveLength(0);
    const dappId = all.find((resource) => resource.relationships.dapp)!.relationships.dapp.data.id;
    expect(await only({ 'filter[dapp_ids]': dappId }, (resource) => resource.relationships.dapp?.data.id === dappId)).not.toHaveLength(0);
    await only({ 'filter[trash]': 'only_trash' }, (resource) => resource.attributes.flags.is_trash);
    await only({ 'filter[trash]': 'only_non_trash' }, (resource) => !resource.attributes.flags.is_trash);
  }, 300_000);
});

describe('fungible_info (spec 2.2) of positions over the test world', () => {
  /** The sampled wallets and, per chain, one that received spam airdrops, so unverified tokens pass through. */
  const wallets = () => [
    ...sampled,
    ...manifest.chains.flatMap((chain) => {
      const spammed = chain.wallets.find((wallet) => wallet.labels.includes('tokens:spam-airdrop'));
      return spammed ? [{ chain, address: spammed.address.toLowerCase() }] : [];
    }),
  ];

  test("the registry's tokens on every chain of the network with the addresses and decimals the chains answer, verified from the registry, price from GetPrices now, supplies from totalSupply()", async () => {
    const truth = await loadFungibleTruth(manifest);
    const seen = { multiChain: 0, verified: 0, unverified: 0, spam: 0, priced: 0, native: 0 };
    for (const wallet of wallets()) {
      const context = { organizationId: '', roles: [], addons: [], network: testnets.has(wallet.chain.id) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET };
      // Prices and supplies are read from the chain as it is now, the API's answer and the chain
      // reads are compared once both are of the same state.
      const checked = await eventually(async () => {
        const shown = (await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'filter[trash]': 'no_filter' })).flatMap(shownFungibles);
        const expected = new Map<string, ExpectedFungible>();
        for (const { address } of shown) if (!expected.has(address)) expected.set(address, await truth.expected(wallet.chain.id, address));
        const implementations = [...expected.values()].flatMap((fungible) => fungible.implementations);
        const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
          context,
          currency: 'usd',
          queries: implementations.map((implementation) => ({
            token: { chainId: implementation.chain_id, address: implementation.address ?? '' },
            timestamp: '0',
          })),
        });
        const priceOf = new Map(
          implementations.map((implementation, index) => [`${implementation.chain_id}:${implementation.address ?? ''}`, prices[index]!.price]),
        );
        for (const { address, info } of shown) {
          const fungible = expected.get(address)!;
          // The fungible's price is its first implementation's that has one.
          const price =
            fungible.implementations
              .map((implementation) => priceOf.get(`${implementation.chain_id}:${implementation.address ?? ''}`))
              .find((value) => value !== undefined) ?? null;
          const market = info.market_data;
          const at = { chain: wallet.chain.id, token: address };
          expect({ ...at, implementations: info.implementations, verified: info.flags.verified, asset_class: info.asset_class, price: market.price }).toEqual({
            ...at,
            implementations: fungible.implementations,
            verified: fungible.verified,
            asset_class: undefined,
            price,
          });
          if (fungible.id !== undefined) expect({ ...at, id: info.id }).toEqual({ ...at, id: fungible.id });
          const nearOrNull = (value: number | null) => (value === null ? null : near(value));
          expect({
            ...at,
            total: market.total_supply,
            circulating: market.circulating_supply,
            fdv: market.fully_diluted_valuation,
            cap: market.market_cap,
          }).toEqual({
            ...at,
            total: nearOrNull(fungible.totalSupply),
            circulating: nearOrNull(fungible.circulatingSupply),
            fdv: fungible.totalSupply === null || price === null ? null : near(fungible.totalSupply * price),
            cap: fungible.circulatingSupply === null || price === null ? null : near(fungible.circulatingSupply * price),
          });
          expect(Object.keys(market.changes).sort()).toEqual(['percent_1d', 'percent_30d', 'percent_365d', 'percent_90d']);
        }
        return { shown, expected };
      }, 120_000);
      for (const { address, info } of checked.shown) {
        const fungible = checked.expected.get(address)!;
        if (info.implementations.length > 1) seen.multiChain++;
        if (fungible.verified) seen.verified++;
        else seen.unverified++;
        if (fungible.spam) seen.spam++;
        if (info.market_data.price !== null) seen.priced++;
        if (address === '') seen.native++;
      }
    }
    // Each kind of fungible passed through: a registry token on two chains, the native asset, spam and other unverified tokens.
    expect(Object.fromEntries(Object.entries(seen).map(([kind, count]) => [kind, count > 0]))).toEqual({
      multiChain: true,
      verified: true,
      unverified: true,
      spam: true,
      priced: true,
      native: true,
    });
  }, 600_000);

  test('asset_class only for an organization with the classification add-on, and only for classified assets', async () => {
    const truth = await loadFungibleTruth(manifest);
    let classified = 0;
    for (const wallet of wallets()) {
      const plain = (await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'filter[trash]': 'no_filter' })).flatMap(shownFungibles);
      expect(plain.filter(({ info }) => 'asset_class' in info)).toEqual([]);
      const served = (
        await positionsOf(wallet, { 'filter[positions]': 'no_filter', 'filter[trash]': 'no_filter' }, { authorization: classifiedAuthorization })
      ).flatMap(shownFungibles);
      for (const { address, info } of served) {
        const assetClass = truth.assetClass(wallet.chain.id, address);
        expect({ token: address, asset_class: info.asset_class }).toEqual({ token: address, asset_class: assetClass });
        expect('asset_class' in info).toBe(assetClass !== undefined);
        if (assetClass !== undefined) classified++;
      }
      // Nothing else differs between the two organizations' answers.
      const withoutClass = served.map(({ address, info }) => {
        const { asset_class: _, ...rest } = info;
        return { address, id: rest.id, implementations: rest.implementations, verified: rest.flags.verified };
      });
      expect(withoutClass).toEqual(
        plain.map(({ address, info }) => ({ address, id: info.id, implementations: info.implementations, verified: info.flags.verified })),
      );
    }
    expect(classified).toBeGreaterThan(0);
  }, 300_000);
});

describe('GET /v1/wallets/{address}/portfolio over the test world', () => {
  test('totals by type, by chain and overall, and the 1-day change, are the sums of the positions the positions endpoint serves, in each currency and network', async () => {
    for (const wallet of sampled) {
      const headers = networkHeaders(wallet.chain.id);
      const networkChains = manifest.chains.filter((chain) => testnets.has(chain.id) === testnets.has(wallet.chain.id)).map((chain) => chain.id);
      // Prices follow the pool events as reference-data folds them; both reads see the same ones once it has caught up.
      for (const currency of ['usd', 'eur'])
        await eventually(async () => {
          const positions = (await get(`/v1/wallets/${wallet.address}/positions/?filter[positions]=no_filter&currency=${currency}`, headers)).data as any[];
          const path = `/v1/wallets/${wallet.address}/portfolio?filter[positions]=no_filter&currency=${currency}`;
          const body = await get(path, headers);
          expect(body.links).toEqual({ self: `${publicUrl}${path}` });
          expect([body.data.type, body.data.id]).toEqual(['portfolio', wallet.address]);
          const sign = (resource: any) => (resource.attributes.position_type === 'loan' ? -1 : 1);
          const sum = (keep: (resource: any) => boolean, of: (resource: any) => number) =>
            positions.filter(keep).reduce((total, resource) => total + of(resource), 0);
          const value = (resource: any) => resource.attributes.value ?? 0;
          const ofTypes = (types: string[]) => sum((resource) => types.includes(resource.attributes.position_type), value);
          const attributes = body.data.attributes;
          expect(attributes.positions_distribution_by_type).toEqual({
            wallet: near(ofTypes(['wallet'])),
            deposited: near(ofTypes(['deposit', 'reward', 'investment'])),
            borrowed: near(ofTypes(['loan'])),
            locked: near(ofTypes(['locked'])),
            staked: near(ofTypes(['staked'])),
          });
          const total = sum(
            () => true,
            (resource) => sign(resource) * value(resource),
          );
          expect(attributes.total.positions).toEqual(near(total));
          expect(Object.keys(attributes.positions_distribution_by_chain).sort()).toEqual([...networkChains].sort());
          for (const chainId of networkChains) {
            const onChain = sum(
              (resource) => resource.relationships.chain.data.id === chainId,
              (resource) => sign(resource) * value(resource),
            );
            expect(attributes.positions_distribution_by_chain[chainId]).toEqual(near(onChain));
          }
          const change = sum(
            () => true,
            (resource) => sign(resource) * (resource.attributes.changes?.absolute_1d ?? 0),
          );
          expect(attributes.changes.absolute_1d).toEqual(near(change));
          expect(attributes.changes.percent_1d).toEqual(near(total - change === 0 ? 0 : (change / (total - change)) * 100));
        }, 120_000);
    }
  }, 300_000);
});

describe('one price per fungible over the test world', () => {
  test("each market asset has one price on every chain of its network, within 2% of the market's reference path, at the head and at 20 past times, and at every point of a 400-point series; ether is WETH; stables are 1", async () => {
    for (const chains of networksOf(manifest, testnets)) {
      const assets = marketAssets(chains);
      const moments = await priceMoments(chains, 20);
      expect(moments.length).toBe(21);
      const network = testnets.has(chains[0]!.id) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET;
      const refs = [
        ...assets.flatMap((asset) => asset.implementations.map((implementation) => ({ asset, ...implementation }))),
        ...chains.map((chain) => ({ asset: assets.find((asset) => asset.symbol === 'WETH')!, chainId: chain.id, address: '' })),
      ];
      const queries = moments.flatMap((moment) =>
        refs.map((ref) => ({ token: { chainId: ref.chainId, address: ref.address }, timestamp: String(moment.timestamp) })),
      );
      // The newest prices are those of the head once reference-data has folded every chain to it.
      await eventually(async () => {
        const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
          context: { organizationId: '', roles: [], addons: [], network },
          currency: 'usd',
          queries,
        });
        moments.forEach((moment, index) => {
          const served = prices.slice(index * refs.length, (index + 1) * refs.length).map((price) => price.price);
          for (const asset of assets) {
            const ofAsset = refs.flatMap((ref, position) => (ref.asset === asset ? [served[position]] : []));
            const reference = asset.reference(moment.marketTime);
            const far = ofAsset.filter((price) => price === undefined || Math.abs(price / ofAsset[0]! - 1) > 1e-9 || Math.abs(price / reference - 1) > 0.02);
            expect({ asset: asset.symbol, at: moment.timestamp, reference, far }).toEqual({ asset: asset.symbol, at: moment.timestamp, reference, far: [] });
            if (asset.reference(0) === 1) expect(Math.abs(ofAsset[0]! - 1)).toBeLessThan(0.01);
          }
        });
      }, 180_000);

      // A chart's worth of points (spec 4.1's `max`: about 400 over the whole history), one call
      // per asset: every point has its one price, the same on every chain.
      const start = (await priceMoments(chains, 0))[0]!.marketTime - 400 * 86_400;
      const points = Array.from({ length: 400 }, (_, index) => start + index * 86_400);
      for (const asset of assets) {
        const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
          context: { organizationId: '', roles: [], addons: [], network },
          currency: 'usd',
          queries: asset.implementations.flatMap((implementation) => points.map((time) => ({ token: implementation, timestamp: String(time) }))),
        });
        const served = prices.map((price) => price.price);
        const onFirst = served.slice(0, points.length);
        const complete = onFirst.every((price) => price !== undefined) && served.every((price, index) => price === onFirst[index % points.length]);
        expect({ asset: asset.symbol, complete }).toEqual({ asset: asset.symbol, complete: true });
      }
    }
  }, 300_000);
});
