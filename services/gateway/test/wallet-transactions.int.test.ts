import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { sql } from '@wallet-api/core/clickhouse';
import { createPrisma } from '@wallet-api/core/db';
import { Network } from '@wallet-api/core/proto/common';
import { Fungible, type Chain, type GetFungiblesRequest, type PriceQuery } from '@wallet-api/core/proto/reference_data';
import { startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { eventually, setupClickHouse, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { AssetKind } from '@wallet-api/core/proto/events';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { walletRows } from '../../indexer/src/consume/wallet-rows.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { startPipeline, type Pipeline } from '../../indexer/test/setup-pipeline.js';
import { blockRef, erc20, erc721, native, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { expectedPrices, readPools, relativeError, type Routing, type TestPool } from '../../reference-data/test/price-expectations.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import { loadFungibleTruth, type FungibleTruth } from './fungible-truth.js';

const json = (response: Response): Promise<any> => response.json();
const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);
const devnetRegistryFile = new URL('../../../.data/devnet/registry.json', import.meta.url);
const publicUrl = 'https://api.wallet.test';

describe('GET /v1/wallets/{address}/transactions/ through the gateway, the indexer and ClickHouse', () => {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const clickhouse = setupClickHouse();
  const wallet = randomAddress();
  const friend = randomAddress();
  const router = randomAddress();
  const usdc = randomAddress();
  const spamToken = randomAddress();
  const collection = randomAddress();
  const items = randomAddress();
  const untracked = randomAddress();
  const base = 1_700_100_000;
  let referenceData: RunningReferenceData;
  let grpc: GrpcServer;
  let backends: Backends;
  let server: Server;
  let baseUrl: string;
  let key: string;
  let pendingKey: string;
  let classifiedKey: string;
  const store = createWalletHistoryStore(clickhouse);
  const facts = {
    lookup: (_chainId: string, address: string) =>
      address === spamToken ? { verified: false, isSpam: true } : address === usdc || address === '' ? { verified: true, isSpam: false } : undefined,
  };
  const write = async (tx: ReturnType<typeof transaction>) => store.writeTransaction(tx, walletRows(tx, facts));

  const swap = transaction(blockRef('ethereum', 500, base + 50), 3, {
    from: wallet,
    to: router,
    actType: 'trade',
    contract: router,
    methodId: '0x38ed1739',
    methodName: 'swapExactTokensForTokens',
    transfers: [
      { asset: native, amount: '1500000000000000000', sender: wallet, recipient: router },
      { asset: erc20(usdc), amount: '2500000', sender: router, recipient: wallet },
    ],
  });
  const nftReceive = transaction(blockRef('base', 400, base + 40), 0, {
    from: friend,
    to: collection,
    transfers: [
      { asset: erc721(collection, '7'), amount: '1', sender: friend, recipient: wallet },
      { asset: { kind: AssetKind.ASSET_KIND_ERC1155, address: items, tokenId: '42' }, amount: '3', sender: friend, recipient: wallet },
    ],
  });
  const spam = transaction(blockRef('ethereum', 450, base + 45), 1, {
    from: friend,
    to: spamToken,
    transfers: [{ asset: erc20(spamToken), amount: '1', sender: friend, recipient: wallet }],
  });
  const plain = Array.from({ length: 4 }, (_, index) =>
    transaction(blockRef('ethereum', 300 + index, base + index), 0, {
      from: wallet,
      to: friend,
      transfers: [{ asset: native, amount: '1000', sender: wallet, recipient: friend }],
    }),
  );
  // More fungibles than one GetPrices request may ask for.
  const airdropped = randomAddress();
  const airdropTokens = Array.from({ length: 1_001 }, () => randomAddress());
  const airdrop = transaction(blockRef('ethereum', 600, base + 60), 0, {
    from: friend,
    to: router,
    transfers: airdropTokens.map((address) => ({ asset: erc20(address), amount: '3', sender: friend, recipient: airdropped })),
  });
  const testnetTx = transaction(blockRef('sepolia', 10, base + 5), 0, {
    from: wallet,
    to: friend,
    transfers: [{ asset: native, amount: '5', sender: wallet, recipient: friend }],
  });

  // What GetFungibles knows: Ether and USDC on ethereum and base (USDC at another address there),
  // USDC classified for organizations with the add-on; the spam and airdropped tokens are unknown to it.
  const usdcOnBase = randomAddress();
  const catalog = (classified: boolean) => [
    Fungible.fromPartial({
      id: 'eth',
      name: 'Ether',
      symbol: 'ETH',
      iconUrl: 'https://icons.test/eth.png',
      verified: true,
      implementations: [
        { chainId: 'ethereum', address: '', decimals: 18 },
        { chainId: 'base', address: '', decimals: 18 },
      ],
      marketData: { price: 3120, changes: { percent1d: 1.5, percent30d: -3 } },
    }),
    Fungible.fromPartial({
      id: 'usdc',
      name: 'USD Coin',
      symbol: 'USDC',
      verified: true,
      description: 'A dollar stablecoin.',
      implementations: [
        { chainId: 'ethereum', address: usdc, decimals: 6 },
        { chainId: 'base', address: usdcOnBase, decimals: 6 },
      ],
      marketData: {
        price: 0.9995,
        totalSupply: 3_000_000,
        circulatingSupply: 2_000_000,
        fullyDilutedValuation: 2_998_500,
        marketCap: 1_999_000,
        changes: { percent1d: 0.01, percent30d: -0.02, percent90d: 0.03, percent365d: 0 },
        volume1d: 42_000,
      },
      assetClass: classified ? 'stablecoin' : '',
    }),
  ];
  const fixtureFungibles = (request: GetFungiblesRequest): Fungible[] =>
    catalog(request.context?.addons.includes('classification') ?? false).filter((fungible) =>
      fungible.implementations.some((implementation) =>
        request.implementations.some((ref) => ref.chainId === implementation.chainId && ref.address === implementation.address),
      ),
    );
  const nullMarket = {
    price: null,
    total_supply: null,
    circulating_supply: null,
    fully_diluted_valuation: null,
    market_cap: null,
    changes: { percent_1d: null, percent_30d: null, percent_90d: null, percent_365d: null },
    trading_volumes: { volume_1d: null },
  };
  const etherInfo = {
    name: 'Ether',
    symbol: 'ETH',
    icon: { url: 'https://icons.test/eth.png' },
    flags: { verified: true },
    implementations: [
      { chain_id: 'ethereum', decimals: 18, address: null },
      { chain_id: 'base', decimals: 18, address: null },
    ],
    id: 'eth',
    description: '',
    market_data: { ...nullMarket, price: 3120, changes: { ...nullMarket.changes, percent_1d: 1.5, percent_30d: -3 } },
  };
  const usdcInfo = {
    name: 'USD Coin',
    symbol: 'USDC',
    icon: null,
    flags: { verified: true },
    implementations: [
      { chain_id: 'ethereum', decimals: 6, address: usdc },
      { chain_id: 'base', decimals: 6, address: usdcOnBase },
    ],
    id: 'usdc',
    description: 'A dollar stablecoin.',
    market_data: {
      price: 0.9995,
      total_supply: 3_000_000,
      circulating_supply: 2_000_000,
      fully_diluted_valuation: 2_998_500,
      market_cap: 1_999_000,
      changes: { percent_1d: 0.01, percent_30d: -0.02, percent_90d: 0.03, percent_365d: 0 },
      trading_volumes: { volume_1d: 42_000 },
    },
  };

  /** Ether on ethereum moves a dollar a second from 3000; USDC is worth 1 at the swap only; EUR is 0.9 USD. */
  const fixturePrice = (query: PriceQuery, currency: string): number | undefined => {
    const rate = { usd: 1, eur: 0.9 }[currency];
    if (rate === undefined || query.token?.chainId !== 'ethereum') return undefined;
    if (query.token.address === '') return (3000 + Number(query.timestamp) - base) * rate;
    if (query.token.address === usdc && query.timestamp === String(base + 50)) return rate;
    if (airdropTokens.includes(query.token.address)) return 0.5 * rate;
    return undefined;
  };

  const auth = (apiKey: string) => ({ Authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { headers: { ...auth(key), ...headers } });
  const path = (query = '', address = wallet) => `/v1/wallets/${address}/transactions/${query}`;
  const hashesOf = (body: any) => body.data.map((item: any) => item.attributes.hash);

  beforeAll(async () => {
    const registry = createChainRegistry(await loadChainsConfig(chainsFile.pathname, {}));
    const ethereum = registry.get(Network.NETWORK_MAINNET, 'ethereum')!;
    // A chain the shipped configuration lacks: one without transaction history (Solana's are shipped).
    const extraChains: Chain[] = [{ ...ethereum, id: 'legacy', flags: { ...ethereum.flags!, supportsTransactions: false } }];
    referenceData = await startReferenceDataFixture({
      chains: { list: (network) => [...registry.list(network), ...(network === Network.NETWORK_MAINNET ? extraChains : [])] },
      tokens: [
        token('ethereum', '', {
          interface: 1,
          name: 'Ether',
          symbol: 'ETH',
          decimals: 18,
          fungibleId: 'eth',
          verified: true,
          iconUrl: 'https://icons.test/eth.png',
        }),
        token('ethereum', usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6, fungibleId: 'usdc', verified: true }),
        token('base', collection, { interface: 3, name: 'Punks', symbol: 'PNK', decimals: 0 }),
        token('base', items, { interface: 4, name: 'Game Items', symbol: '', decimals: 0 }),
      ],
      dapps: [
        {
          chainId: 'ethereum',
          address: router,
          dapp: {
            id: 'swapper',
            name: 'Swapper',
            description: '',
            iconUrl: 'https://icons.test/swapper.png',
            url: '',
            managePositionsUrl: '',
            externalLinks: [],
          },
        },
      ],
      untracked: { [untracked]: 'address is a burn address and is not tracked' },
      price: fixturePrice,
      fungibles: fixtureFungibles,
    });
    grpc = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [indexerService({ clickhouse, referenceData: referenceData.client })],
      logger: testLogger,
    });
    backends = createBackends({ referenceData: referenceData.address, indexer: `127.0.0.1:${grpc.port}`, positions: `127.0.0.1:${grpc.port}` });
    const app = createApp({
      lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
      redis,
      backends,
      publicUrl,
      rateLimits: { perSecond: 1000, burst: 1000 },
      logger: testLogger,
      checkResponses: true,
    });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ key } = await createOrganizationKey(prisma, { org: uniqueName('org'), roles: [], addons: [] }));
    ({ key: pendingKey } = await createOrganizationKey(prisma, { org: uniqueName('pending'), roles: ['pending-orders'], addons: [] }));
    ({ key: classifiedKey } = await createOrganizationKey(prisma, { org: uniqueName('classified'), roles: [], addons: ['classification'] }));
    for (const tx of [swap, nftReceive, spam, ...plain, testnetTx, airdrop]) await write(tx);
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    backends.close();
    await grpc.shutdown(1_000);
    await referenceData.stop();
    await clickhouse.close();
    redis.disconnect();
    await prisma.$disconnect();
  });

  test('every attribute of a trade: transfers with quantities and token facts, fee, acts, dapp, relationships', async () => {
    const response = await get(path(`?filter[search_query]=${swap.hash}`));
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.links.self).toBe(`${publicUrl}${path(`?filter[search_query]=${swap.hash}`)}`);
    expect(body.links.next).toBeUndefined();
    expect(body.data).toHaveLength(1);
    const [item] = body.data;
    expect(item.type).toBe('transactions');
    expect(item.id).toBe('ethereum:500:3');
    expect(item.attributes).toEqual({
      operation_type: 'trade',
      hash: swap.hash,
      mined_at_block: 500,
      mined_at: new Date((base + 50) * 1000).toISOString(),
      sent_from: wallet,
      sent_to: router,
      status: 'confirmed',
      nonce: 3,
      fee: {
        fungible_info: etherInfo,
        quantity: { int: '21000000000000', decimals: 18, float: 0.000021, numeric: '0.000021' },
        price: 3050,
        value: 0.000021 * 3050,
      },
      transfers: [
        expect.objectContaining({
          direction: 'out',
          sender: wallet,
          recipient: router,
          act_id: '1',
          price: 3050,
          value: 1.5 * 3050,
          nft_info: null,
          quantity: { int: '1500000000000000000', decimals: 18, float: 1.5, numeric: '1.5' },
          fungible_info: etherInfo,
        }),
        {
          direction: 'in',
          sender: router,
          recipient: wallet,
          act_id: '1',
          price: 1,
          value: 2.5,
          nft_info: null,
          quantity: { int: '2500000', decimals: 6, float: 2.5, numeric: '2.5' },
          fungible_info: usdcInfo,
        },
      ],
      approvals: [],
      address: wallet,
      collection_approvals: [],
      delegations: [],
      application_metadata: {
        contract_address: router,
        name: 'Swapper',
        icon: { url: 'https://icons.test/swapper.png' },
        method: { id: '0x38ed1739', name: 'swapExactTokensForTokens' },
      },
      flags: { is_trash: false },
      acts: [
        {
          id: '1',
          type: 'trade',
          sent_from: wallet,
          application_metadata: { contract_address: router, name: 'Swapper', icon: { url: 'https://icons.test/swapper.png' } },
        },
      ],
      paymaster: null,
    });
    expect(item.relationships).toEqual({
      chain: { links: { related: `${publicUrl}/v1/chains/ethereum` }, data: { type: 'chains', id: 'ethereum' } },
      dapp: { data: { type: 'dapps', id: 'swapper' } },
    });
  });

  test('newest first across chains, trash hidden by default; NFT transfers carry nft_info', async () => {
    const body = await json(await get(path()));
    expect(hashesOf(body)).toEqual([swap, nftReceive, ...[...plain].reverse()].map((tx) => tx.hash));
    const nft = body.data[1];
    expect(nft.relationships.chain.data.id).toBe('base');
    expect(nft.attributes.transfers[0]).toEqual(
      expect.objectContaining({
        direction: 'in',
        fungible_info: null,
        price: null,
        value: null,
        quantity: { int: '1', decimals: 0, float: 1, numeric: '1' },
        nft_info: { contract_address: collection, token_id: '7', name: 'Punks', interface: 'erc721', flags: { is_spam: false }, content: {} },
      }),
    );
    // decisions.md "NFTs": the interface is written lowercase, as the incumbent writes it.
    expect(nft.attributes.transfers[1]).toEqual(
      expect.objectContaining({
        direction: 'in',
        quantity: { int: '3', decimals: 0, float: 3, numeric: '3' },
        nft_info: { contract_address: items, token_id: '42', name: 'Game Items', interface: 'erc1155', flags: { is_spam: false }, content: {} },
      }),
    );
    expect(nft.attributes.application_metadata).toBeNull();
    expect(nft.relationships.dapp).toBeUndefined();

    expect(hashesOf(await json(await get(path('?filter[trash]=only_trash'))))).toEqual([spam.hash]);
    expect(hashesOf(await json(await get(path('?filter[trash]=no_filter'))))).toHaveLength(7);
  });

  test('filters: chains, operation types, asset types, mined_at range, search by address and symbol', async () => {
    expect(hashesOf(await json(await get(path('?filter[chain_ids]=base'))))).toEqual([nftReceive.hash]);
    expect(hashesOf(await json(await get(path('?filter[operation_types]=trade,receive'))))).toEqual([swap.hash, nftReceive.hash]);
    expect(hashesOf(await json(await get(path('?filter[asset_types]=nft'))))).toEqual([nftReceive.hash]);
    expect(hashesOf(await json(await get(path(`?filter[min_mined_at]=${(base + 1) * 1000}&filter[max_mined_at]=${(base + 3) * 1000}`))))).toEqual(
      [plain[3]!, plain[2]!, plain[1]!].map((tx) => tx.hash),
    );
    expect(hashesOf(await json(await get(path(`?filter[search_query]=${router.toUpperCase().replace('0X', '0x')}`))))).toEqual([swap.hash]);
    expect(hashesOf(await json(await get(path('?filter[search_query]=USDC'))))).toEqual([swap.hash]);
    expect(hashesOf(await json(await get(path(`?filter[search_query]=${friend}&filter[chain_ids]=ethereum`))))).toEqual(
      [...plain].reverse().map((tx) => tx.hash),
    );
  });

  test('prices and values in the requested currency at each transaction time, from one GetPrices call per page', async () => {
    const before = referenceData.getPricesRequests.length;
    const body = await json(await get(path('?currency=eur&filter[trash]=no_filter')));
    expect(referenceData.getPricesRequests.slice(before)).toHaveLength(1);
    const [request] = referenceData.getPricesRequests.slice(before);
    expect(request!.currency).toBe('eur');
    const asked = request!.queries.map((query) => `${query.token!.chainId}:${query.token!.address}:${query.timestamp}`);
    expect(asked).toHaveLength(new Set(asked).size);
    const valued: { price: number | null; value: number | null }[] = [];
    for (const { attributes, relationships } of body.data) {
      const at = String(Date.parse(attributes.mined_at) / 1000);
      const chainId: string = relationships.chain.data.id;
      for (const entry of [attributes.fee, ...attributes.transfers]) {
        const expected = entry.nft_info
          ? undefined
          : fixturePrice({ token: { chainId, address: entry.fungible_info.implementations[0].address ?? '' }, timestamp: at }, 'eur');
        expect({ hash: attributes.hash, price: entry.price, value: entry.value }).toEqual({
          hash: attributes.hash,
          price: expected ?? null,
          value: expected === undefined ? null : entry.quantity.float * expected,
        });
        valued.push(entry);
      }
    }
    // The page holds priced and unpriced entries both.
    expect(valued.some((entry) => entry.price !== null)).toBe(true);
    expect(valued.some((entry) => entry.price === null)).toBe(true);
  });

  test("fungible_info from one GetFungibles call per page, in the request's currency and organization; tokens it does not know keep their metadata", async () => {
    const before = referenceData.getFungiblesRequests.length;
    const body = await json(await get(path('?currency=eur&filter[trash]=no_filter')));
    const requests = referenceData.getFungiblesRequests.slice(before);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect([request!.currency, request!.fungibleIds, request!.context?.addons]).toEqual(['eur', [], []]);
    // Each fungible the page shows, once; never an NFT.
    expect(request!.implementations.map((ref) => `${ref.chainId}:${ref.address}`).sort()).toEqual(
      ['ethereum:', 'base:', `ethereum:${usdc}`, `ethereum:${spamToken}`].sort(),
    );
    const infos = body.data.flatMap((item: any) => [item.attributes.fee, ...item.attributes.transfers].map((entry: any) => entry.fungible_info));
    expect(infos.filter((info: any) => info?.id === 'eth')).toEqual(infos.filter((info: any) => info?.symbol === 'ETH').map(() => etherInfo));
    expect(infos.filter((info: any) => info?.id === 'usdc')).toEqual([usdcInfo]);
    const spamTransfer = body.data.find((item: any) => item.attributes.hash === spam.hash).attributes.transfers[0];
    expect(spamTransfer.fungible_info).toEqual({
      name: '',
      symbol: '',
      icon: null,
      flags: { verified: false },
      implementations: [{ chain_id: 'ethereum', decimals: 0, address: spamToken }],
      id: '',
      description: '',
      market_data: nullMarket,
    });
  });

  test('asset_class only for an organization with the classification add-on', async () => {
    const before = referenceData.getFungiblesRequests.length;
    const classified = await json(await get(path(`?filter[search_query]=${swap.hash}`), auth(classifiedKey)));
    expect(referenceData.getFungiblesRequests.slice(before).map((request) => request.context?.addons)).toEqual([['classification']]);
    const [fee, ...transfers] = [classified.data[0].attributes.fee, ...classified.data[0].attributes.transfers].map((entry: any) => entry.fungible_info);
    expect(transfers).toEqual([etherInfo, { ...usdcInfo, asset_class: 'stablecoin' }]);
    expect(fee).toEqual(etherInfo);
    expect('asset_class' in fee).toBe(false);
    const plain = await json(await get(path(`?filter[search_query]=${swap.hash}`)));
    expect(plain.data[0].attributes.transfers[1].fungible_info).toEqual(usdcInfo);
    expect('asset_class' in plain.data[0].attributes.transfers[1].fungible_info).toBe(false);
  });

  test('a page moving more fungibles than one GetPrices or GetFungibles request may ask for asks in several', async () => {
    const before = referenceData.getPricesRequests.length;
    const fungiblesBefore = referenceData.getFungiblesRequests.length;
    const response = await get(path('?filter[trash]=no_filter', airdropped));
    expect(response.status).toBe(200);
    const [item] = (await json(response)).data;
    expect(
      referenceData.getPricesRequests
        .slice(before)
        .map((request) => request.queries.length)
        .sort((a, b) => a - b),
    ).toEqual([2, 1_000]);
    expect(
      referenceData.getFungiblesRequests
        .slice(fungiblesBefore)
        .map((request) => request.implementations.length)
        .sort((a, b) => a - b),
    ).toEqual([2, 1_000]);
    expect(item.attributes.transfers).toHaveLength(1_001);
    for (const transfer of item.attributes.transfers)
      expect({ price: transfer.price, value: transfer.value }).toEqual({ price: 0.5, value: transfer.quantity.float * 0.5 });
    expect(item.attributes.fee.price).toBe(3060);
  });

  test('X-Env: testnet reads testnet chains only', async () => {
    const body = await json(await get(path(), { 'X-Env': 'testnet' }));
    expect(hashesOf(body)).toEqual([testnetTx.hash]);
    const mainnetChain = await get(path('?filter[chain_ids]=ethereum'), { 'X-Env': 'testnet' });
    expect(mainnetChain.status).toBe(400);
  });

  test('links.next pages through every item once while newer transactions arrive', async () => {
    const seen: string[] = [];
    let next: string | undefined = `${baseUrl}${path('?page[size]=2&currency=eur')}`;
    let pages = 0;
    while (next) {
      const response = await fetch(next.replace(publicUrl, baseUrl), { headers: auth(key) });
      expect(response.status).toBe(200);
      const body = await json(response);
      seen.push(...hashesOf(body));
      next = body.links.next;
      pages += 1;
      if (next) {
        const url = new URL(next);
        expect(url.searchParams.get('page[size]')).toBe('2');
        expect(url.searchParams.get('currency')).toBe('eur');
        expect(url.searchParams.get('page[lastTimestamp]')).toMatch(/^\d+000$/);
        await write(
          transaction(blockRef('ethereum', 900 + pages, base + 900 + pages), 0, {
            from: wallet,
            to: friend,
            transfers: [{ asset: native, amount: '1', sender: wallet, recipient: friend }],
          }),
        );
      }
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([swap, nftReceive, ...[...plain].reverse()].map((tx) => tx.hash));
  });

  test('filter[include_pending]: empty meta arrays for the pending-orders role, 403 without it', async () => {
    const withRole = await get(path('?filter[include_pending]=true&page[size]=1'), auth(pendingKey));
    expect(withRole.status).toBe(200);
    expect((await json(withRole)).meta).toEqual({ pending: [], unsigned: [] });
    expect((await json(await get(path('?page[size]=1')))).meta).toBeUndefined();
    const withoutRole = await get(path('?filter[include_pending]=true'));
    expect(withoutRole.status).toBe(403);
  });

  test.each([
    ['/v1/wallets/0x123/transactions/', 'path parameter address'],
    ['/v1/wallets/not-an-address/transactions/', 'path parameter address'],
    [path('?currency=doge'), 'parameter currency'],
    [path('?filter[chain_ids]=bad$chain'), 'parameter filter[chain_ids]'],
    [path('?filter[chain_ids]=unknown-chain'), 'parameter filter[chain_ids]: chain unknown-chain is not supported'],
    [path(`?filter[chain_ids]=${Array.from({ length: 26 }, () => 'ethereum').join(',')}`), 'parameter filter[chain_ids]'],
    [path('?filter[operation_types]=swap'), 'parameter filter[operation_types]'],
    [path('?filter[trash]=maybe'), 'parameter filter[trash]'],
    [path('?filter[min_mined_at]=yesterday'), 'parameter filter[min_mined_at]'],
    [path('?filter[min_mined_at]=2000&filter[max_mined_at]=1000'), 'parameter filter[min_mined_at]: must not be later than filter[max_mined_at]'],
    [path('?filter[asset_types]=erc20'), 'parameter filter[asset_types]'],
    [path('?filter[search_query]='), 'parameter filter[search_query]'],
    [path('?page[size]=101'), 'parameter page[size]'],
    [path('?page[size]=0'), 'parameter page[size]'],
    [path('?page[size]=ten'), 'parameter page[size]'],
    [path('?page[lastId]=ethereum:1:0'), 'parameter page[lastId]'],
    [path('?page[lastId]=garbage&page[lastTimestamp]=1000'), 'parameter page[lastId]'],
    [path('?page[lastId]=ethereum:1:0&page[lastTimestamp]=soon'), 'parameter page[lastTimestamp]'],
    [path('?filter[include_pending]=yes'), 'parameter filter[include_pending]'],
    [path('', untracked), 'address is a burn address and is not tracked'],
  ])('400 for %s', async (url, detail) => {
    const response = await get(url);
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body).toEqual({ errors: [{ title: 'Parameter is malformed', detail: expect.stringContaining(detail) }] });
  });

  test('400 naming the chain that does not support transactions or the address type', async () => {
    const malformed = { title: 'Parameter is malformed' };
    const disabled = await get(path('?filter[chain_ids]=ethereum,legacy'));
    expect(disabled.status).toBe(400);
    expect(await json(disabled)).toEqual({ errors: [{ ...malformed, detail: 'chain legacy does not support transactions' }] });
    const solanaChain = await get(path('?filter[chain_ids]=solana'));
    expect(solanaChain.status).toBe(400);
    expect(await json(solanaChain)).toEqual({ errors: [{ ...malformed, detail: 'chain solana does not support this wallet address type' }] });
  });

  test('a Solana address reads the Solana chains, keeping its case', async () => {
    const solanaWallet = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
    const response = await get(path('', solanaWallet));
    expect(response.status).toBe(200);
    expect((await json(response)).data).toEqual([]);
    const evmChain = await get(path('?filter[chain_ids]=ethereum', solanaWallet));
    expect((await json(evmChain)).errors[0].detail).toBe('chain ethereum does not support this wallet address type');
  });
});

describe('prices and values of the test world on ethereum, from chain to API', () => {
  // The shared chain is only read; the pipeline indexes it into topics and tables of its own.
  const chainId = 'ethereum';
  const lower = (address: string) => address.toLowerCase();
  let pipeline: Pipeline;
  let chain: ChainWorld;
  let client: PublicClient;
  let routing: Routing;
  let usdc: string;
  let trustedPools: TestPool[];
  let truth: FungibleTruth;
  /** Every fungible amount (fees included) of every manifest wallet's history, as the API shows it. */
  let entries: {
    wallet: string;
    hash: string;
    block: bigint;
    timestamp: string;
    address: string;
    float: number;
    price: number | null;
    value: number | null;
    info: any;
  }[];

  beforeAll(async () => {
    const manifest = await readManifest();
    truth = await loadFungibleTruth(manifest);
    chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
    client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    const uniswap = chain.protocols.uniswap as UniswapManifest;
    const pricing = JSON.parse(await readFile(devnetRegistryFile, 'utf8')).pricing[chainId] as {
      usd_stablecoins: string[];
      wrapped_native: string;
      min_liquidity_usd: number;
    };
    routing = {
      stablecoins: new Set(pricing.usd_stablecoins),
      weth: pricing.wrapped_native,
      minLiquidityUsd: pricing.min_liquidity_usd,
      decimals: new Map(uniswap.tokens.map((token) => [lower(token.address), token.decimals])),
    };
    usdc = lower(uniswap.tokens.find((token) => token.symbol === 'USDC')!.address);
    trustedPools = [
      ...uniswap.v2.pairs.map((pair) => ({ kind: 'v2' as const, address: lower(pair.address), token0: lower(pair.token0), token1: lower(pair.token1) })),
      ...uniswap.v3.pools.map((pool) => ({ kind: 'v3' as const, address: lower(pool.address), token0: lower(pool.token0), token1: lower(pool.token1) })),
    ];
    const poolLogs = await client.getLogs({ address: trustedPools.map((pool) => pool.address as Address), fromBlock: 0n, toBlock: BigInt(chain.endBlock) });
    const lastPoolBlock = poolLogs.reduce((max, log) => (log.blockNumber > max ? log.blockNumber : max), 0n);
    let transactionCount = 0;
    for (let number = 0n; number <= BigInt(chain.endBlock); number++) transactionCount += await client.getBlockTransactionCount({ blockNumber: number });

    pipeline = await startPipeline();
    await pipeline.resetCheckpoints([chainId]);
    pipeline.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
    await eventually(async () => {
      const [written] = await pipeline.database.clickhouse.query<{ count: string }>(
        sql`SELECT uniqExact(block_hash, transaction_index) AS count FROM wallet_transactions WHERE chain_id = ${chainId}`,
      );
      const [folded] = await pipeline.database.clickhouse.query<{ height: string }>(
        sql`SELECT max(block_number) AS height FROM pool_events WHERE chain_id = ${chainId}`,
      );
      expect({ transactions: Number(written!.count), poolEventsThrough: BigInt(folded?.height ?? 0) >= lastPoolBlock }).toEqual({
        transactions: transactionCount,
        poolEventsThrough: true,
      });
    }, 180_000);

    entries = [];
    for (const { address } of chain.wallets) {
      const wallet = lower(address);
      const items = await pipeline.getAll(`/v1/wallets/${wallet}/transactions/?filter[chain_ids]=${chainId}&filter[trash]=no_filter&page[size]=100`);
      for (const { attributes } of items) {
        for (const entry of [attributes.fee, ...attributes.transfers]) {
          if (!entry.fungible_info) continue;
          entries.push({
            wallet,
            hash: attributes.hash,
            block: BigInt(attributes.mined_at_block),
            timestamp: String(Date.parse(attributes.mined_at) / 1000),
            address: entry.fungible_info.implementations.find((implementation: any) => implementation.chain_id === chainId).address ?? '',
            float: entry.quantity.float,
            price: entry.price,
            value: entry.value,
            info: entry.fungible_info,
          });
        }
      }
    }
  }, 300_000);

  afterAll(async () => {
    await pipeline?.close();
  });

  test('every transfer and fee is worth its quantity times the price GetPrices gives for its token at the transaction time', async () => {
    const keys = [...new Set(entries.map((entry) => `${entry.address}|${entry.timestamp}`))];
    const served = new Map<string, number | undefined>();
    for (let start = 0; start < keys.length; start += 500) {
      const batch = keys.slice(start, start + 500);
      const queries = batch.map((key) => ({ token: { chainId, address: key.split('|')[0]! }, timestamp: key.split('|')[1]! }));
      const response = await unary(pipeline.referenceData, pipeline.referenceData.getPrices, { context: undefined, currency: 'usd', queries });
      batch.forEach((key, index) => served.set(key, response.prices[index]!.price));
    }
    for (const entry of entries) {
      const price = served.get(`${entry.address}|${entry.timestamp}`);
      const at = { hash: entry.hash, token: entry.address };
      expect({ ...at, price: entry.price, value: entry.value }).toEqual({
        ...at,
        price: price ?? null,
        value: price === undefined ? null : entry.float * price,
      });
    }
    expect(entries.filter((entry) => entry.price !== null).length).toBeGreaterThan(0);
  });

  test("Ether, WETH and USDC are priced at what the chain's pools say at the transaction's block", async () => {
    const checked = entries.filter((entry) => entry.address === '' || entry.address === routing.weth || entry.address === usdc);
    const expectedByBlock = new Map<bigint, Map<string, number>>();
    for (const block of new Set(checked.map((entry) => entry.block)))
      expectedByBlock.set(block, expectedPrices(await readPools(client, trustedPools, block), routing));
    for (const entry of checked) {
      const expected = expectedByBlock.get(entry.block)!.get(entry.address === '' ? routing.weth : entry.address);
      const at = { hash: entry.hash, token: entry.address, block: entry.block };
      if (expected === undefined) {
        expect({ ...at, price: entry.price }).toEqual({ ...at, price: null });
        continue;
      }
      expect({ ...at, close: entry.price !== null && relativeError(entry.price, expected) <= 1e-9 }).toEqual({ ...at, close: true });
    }
    expect(checked.filter((entry) => entry.address === '' && entry.price !== null).length).toBeGreaterThan(0);
    expect(checked.filter((entry) => entry.address === routing.weth && entry.price !== null).length).toBeGreaterThan(0);
    expect(checked.filter((entry) => entry.address === usdc && entry.price === 1).length).toBeGreaterThan(0);
  });

  test("fungible_info of every fee and transfer: the registry's tokens on ethereum and base with the addresses and decimals the chains answer, verified from the registry, price from GetPrices now, total supply from totalSupply()", async () => {
    const tokens = [...new Set(entries.map((entry) => entry.address))];
    const expected = new Map(await Promise.all(tokens.map(async (address) => [address, await truth.expected(chainId, address)] as const)));
    const implementations = [...expected.values()].flatMap((fungible) => fungible.implementations);
    const { prices } = await unary(pipeline.referenceData, pipeline.referenceData.getPrices, {
      context: undefined,
      currency: 'usd',
      queries: implementations.map((implementation) => ({
        token: { chainId: implementation.chain_id, address: implementation.address ?? '' },
        timestamp: '0',
      })),
    });
    const priceOf = new Map(
      implementations.map((implementation, index) => [`${implementation.chain_id}:${implementation.address ?? ''}`, prices[index]!.price]),
    );
    const near = (value: number) => expect.closeTo(value, 9 - Math.ceil(Math.log10(Math.max(1, Math.abs(value)))));
    for (const entry of entries) {
      const fungible = expected.get(entry.address)!;
      const price =
        fungible.implementations
          .map((implementation) => priceOf.get(`${implementation.chain_id}:${implementation.address ?? ''}`))
          .find((value) => value !== undefined) ?? null;
      const at = { hash: entry.hash, token: entry.address };
      expect({
        ...at,
        implementations: entry.info.implementations,
        verified: entry.info.flags.verified,
        asset_class: entry.info.asset_class,
        price: entry.info.market_data.price,
      }).toEqual({
        ...at,
        implementations: fungible.implementations,
        verified: fungible.verified,
        asset_class: undefined,
        price,
      });
      if (fungible.id !== undefined) expect({ ...at, id: entry.info.id }).toEqual({ ...at, id: fungible.id });
      expect({ ...at, total: entry.info.market_data.total_supply }).toEqual({
        ...at,
        total: fungible.totalSupply === null ? null : near(fungible.totalSupply),
      });
    }
    const seen = (keep: (entry: (typeof entries)[number]) => boolean) => entries.some(keep);
    expect({
      multiChain: seen((entry) => entry.info.implementations.length > 1 && entry.address !== ''),
      native: seen((entry) => entry.address === ''),
      spam: seen((entry) => expected.get(entry.address)!.spam && !entry.info.flags.verified),
      priced: seen((entry) => entry.info.market_data.price !== null),
    }).toEqual({ multiChain: true, native: true, spam: true, priced: true });
  });

  test("asset_class appears for an organization with the classification add-on, on the registry's classified tokens only", async () => {
    const prisma = createPrisma(testConfig().DATABASE_URL);
    try {
      const { key } = await createOrganizationKey(prisma, { org: uniqueName('classified'), roles: [], addons: ['classification'] });
      const authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
      let classified = 0;
      for (const wallet of new Set(entries.map((entry) => entry.wallet))) {
        const { status, body } = await pipeline.get(`/v1/wallets/${wallet}/transactions/?filter[chain_ids]=${chainId}&filter[trash]=no_filter&page[size]=100`, {
          authorization,
        });
        expect(status).toBe(200);
        for (const { attributes } of body.data) {
          for (const entry of [attributes.fee, ...attributes.transfers, ...attributes.approvals]) {
            if (!entry.fungible_info) continue;
            const address = entry.fungible_info.implementations.find((implementation: any) => implementation.chain_id === chainId).address ?? '';
            const assetClass = truth.assetClass(chainId, address);
            expect({ token: address, asset_class: entry.fungible_info.asset_class, present: 'asset_class' in entry.fungible_info }).toEqual({
              token: address,
              asset_class: assetClass,
              present: assetClass !== undefined,
            });
            if (assetClass !== undefined) classified++;
          }
        }
      }
      expect(classified).toBeGreaterThan(0);
    } finally {
      await prisma.$disconnect();
    }
  });
});
