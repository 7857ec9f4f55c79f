import { createPrisma } from '@wallet-api/core/db';
import { eventually, testConfig, uniqueName } from '@wallet-api/core/testing';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { startMetadataServer, type MetadataServer } from '../../../devnet/src/metadata-server/index.js';
import type { NftsManifest } from '../../../devnet/src/protocols/nfts/manifest.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { nftHoldings } from '../../../devnet/src/truth/nfts.js';
import { readUniswapV3Positions } from '../../../devnet/src/truth/uniswap.js';
import { startNftHarness, type NftHarness } from '../../nft/test/setup-nft.js';
import { createWalletApiClient, type WalletApiClient } from '../../../clients/typescript/src/index.js';
import { createOrganizationKey } from '../src/auth/api-keys.js';

// The NFT endpoints end to end: the test world indexed into the nft service, read through the
// gateway over HTTP with an API key, and held against the chain (ownerOf, balanceOf, the V3
// position manager's enumeration) for the wallet holding the most NFTs on ethereum.

const chainId = 'ethereum';
let harness: NftHarness;
let metadataServer: MetadataServer | undefined;
let chain: ChainWorld;
let client: PublicClient;
let wallet: Address;
let truth: string[];
// The typed client (@wallet-api/client), for the calls the served OpenAPI document must describe.
let api: WalletApiClient;
const prisma = createPrisma(testConfig().DATABASE_URL);

/** Every NFT the chain gives a wallet at the head: the world's collections and its V3 liquidity positions. */
async function chainHoldings(address: Address, head: bigint): Promise<string[]> {
  const uniswap = chain.protocols.uniswap as UniswapManifest;
  const collections = (await nftHoldings(client, chain.protocols.nfts as NftsManifest, address, head)).map(
    (holding) => `${holding.contract.toLowerCase()}:${holding.tokenId}=${holding.amount}`,
  );
  const liquidity = (await readUniswapV3Positions(client, uniswap, address, head)).map(
    (position) => `${uniswap.v3.positionManager.toLowerCase()}:${position.tokenId}=1`,
  );
  return [...collections, ...liquidity].sort();
}

const held = (positions: { attributes: { nft_info: { contract_address: string; token_id: string }; amount: string } }[]) =>
  positions.map((position) => `${position.attributes.nft_info.contract_address}:${position.attributes.nft_info.token_id}=${position.attributes.amount}`).sort();
const positionsPath = (query = '') => `/v1/wallets/${wallet}/nft-positions/?filter[chain_ids]=${chainId}${query}`;
/** The page[after] cursor a links.next carries, if any. */
const cursorOf = (next?: string | null) => (next ? (new URL(next).searchParams.get('page[after]') ?? undefined) : undefined);

beforeAll(async () => {
  const manifest = await readManifest();
  chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
  client = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 500 } }), cacheTime: 0 });
  const head = await client.getBlockNumber();
  let most = -1;
  for (const candidate of chain.wallets.map((entry) => entry.address as Address)) {
    const holdings = await chainHoldings(candidate, head);
    if (holdings.length > most) [wallet, truth, most] = [candidate, holdings, holdings.length];
  }
  harness = await startNftHarness();
  await harness.pipeline.resetCheckpoints([chainId]);
  harness.pipeline.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  metadataServer = await startMetadataServer({ port: 18600 }).catch(() => undefined);
  // The harness's gateway has no address of its own to give: the client's requests (with a key of
  // this test's organization, sent by the client) travel to it through the harness's fetch.
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('wallet-nfts'), roles: [], addons: [] });
  api = createWalletApiClient({
    baseUrl: 'http://gateway.invalid',
    apiKey: key,
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      const { status, body } = await harness.pipeline.get(url.pathname + url.search, { authorization: request.headers.get('authorization')! });
      return Response.json(body, { status });
    },
  });
}, 180_000);

afterAll(async () => {
  await harness?.close();
  await metadataServer?.close();
  await prisma.$disconnect();
});

test('a wallet never seen answers 202 with empty data, then 200; pages of 2 through links.next give every NFT once, as the chain has them', async () => {
  const first = await harness.pipeline.get(positionsPath());
  expect(first).toEqual({ status: 202, body: { links: { self: expect.stringContaining('/nft-positions/') }, data: [] } });
  await eventually(async () => {
    const { data: body, response } = await api.GET('/v1/wallets/{address}/nft-positions/', {
      params: { path: { address: wallet }, query: { 'filter[chain_ids]': chainId, 'page[size]': '500' } },
    });
    expect({ status: response.status, held: held(body?.data ?? []) }).toEqual({ status: 200, held: truth });
  }, 120_000);
  const paged = await harness.pipeline.getAll(positionsPath('&page[size]=2'));
  expect(held(paged)).toEqual(truth);
  expect(new Set(paged.map((position) => position.id)).size).toBe(truth.length);
  expect(truth.length).toBeGreaterThan(4);
}, 180_000);

test('include=nfts,nft_collections,wallet_nft_collections: every relationship is included, counts add up, interfaces are lowercase', async () => {
  const { status, body } = await harness.pipeline.get(positionsPath('&page[size]=500&include=nfts,nft_collections,wallet_nft_collections'));
  expect(status).toBe(200);
  const included = (type: string) =>
    new Map<string, any>(body.included.filter((resource: any) => resource.type === type).map((resource: any) => [String(resource.id), resource]));
  const [nfts, collections, holdings] = [included('nfts'), included('nft_collections'), included('wallet_nft_collections')];
  const counted = new Map<string, bigint>();
  for (const position of body.data) {
    const nft = nfts.get(position.relationships.nft.data.id);
    const collectionId = position.relationships.nft_collection.data.id;
    expect(typeof collectionId).toBe('number');
    expect(nft.attributes).toMatchObject({ contract_address: position.attributes.nft_info.contract_address, token_id: position.attributes.nft_info.token_id });
    expect(['erc721', 'erc1155']).toContain(position.attributes.nft_info.interface);
    expect(nft.attributes.interface).toBe(position.attributes.nft_info.interface);
    expect(collections.get(String(collectionId)).attributes.implementations).toEqual([
      { chain_id: chainId, address: position.attributes.nft_info.contract_address },
    ]);
    counted.set(String(collectionId), (counted.get(String(collectionId)) ?? 0n) + BigInt(position.attributes.amount));
  }
  expect(holdings.size).toBe(counted.size);
  for (const holding of holdings.values()) {
    expect(holding.attributes.nfts_count).toBe(counted.get(String(holding.relationships.nft_collection.data.id))!.toString());
  }
}, 60_000);

test('sort by floor price both ways (unpriced last), the collection filter, and the collections and portfolio endpoints add up the positions', async () => {
  for (const [sort, ordered] of [
    ['-floor_price', (a: number, b: number) => a >= b],
    ['floor_price', (a: number, b: number) => a <= b],
  ] as const) {
    const { body } = await harness.pipeline.get(positionsPath(`&page[size]=500&sort=${sort}`));
    const prices = body.data.map((position: any) => position.attributes.price as number | null);
    const priced = prices.filter((price: number | null) => price !== null) as number[];
    expect(prices.slice(0, priced.length)).toEqual(priced);
    for (let index = 1; index < priced.length; index++) expect(ordered(priced[index - 1]!, priced[index]!)).toBe(true);
  }
  const { body: all } = await harness.pipeline.get(positionsPath('&page[size]=500'));
  const collectionId = all.data[0].relationships.nft_collection.data.id;
  const { body: filtered } = await harness.pipeline.get(positionsPath(`&page[size]=500&filter[collections_ids]=${collectionId}`));
  expect(filtered.data.length).toBe(all.data.filter((position: any) => position.relationships.nft_collection.data.id === collectionId).length);
  expect(filtered.data.every((position: any) => position.relationships.nft_collection.data.id === collectionId)).toBe(true);

  const value = all.data.reduce((sum: number, position: any) => sum + (position.attributes.value ?? 0), 0);
  const { response, data: portfolio } = await api.GET('/v1/wallets/{address}/nft-portfolio', {
    params: { path: { address: wallet }, query: { 'filter[chain_ids]': chainId } },
  });
  expect(response.status).toBe(200);
  expect(portfolio!.data).toMatchObject({
    type: 'wallet_nft_portfolio',
    attributes: { positions_distribution_by_chain: { [chainId]: expect.closeTo(value, 6) } },
  });
  // Every page of one collection, through the typed client with the cursor each links.next carries.
  const collections = [];
  for (let after: string | undefined, more = true; more; ) {
    const page = await api.GET('/v1/wallets/{address}/nft-collections/', {
      params: { path: { address: wallet }, query: { 'filter[chain_ids]': chainId, 'page[size]': '1', ...(after ? { 'page[after]': after } : {}) } },
    });
    expect(page.response.status).toBe(200);
    collections.push(...page.data!.data);
    after = cursorOf(page.data!.links.next);
    more = after !== undefined;
  }
  const total = collections.reduce((sum, holding) => sum + BigInt(holding.attributes.nfts_count), 0n);
  expect(total).toBe(all.data.reduce((sum: bigint, position: any) => sum + BigInt(position.attributes.amount), 0n));
  const floors = collections.map((holding) => holding.attributes.total_floor_price as number);
  expect(floors).toEqual([...floors].sort((a, b) => b - a));
}, 60_000);

test('GET /v1/nfts/ by references and GET /v1/nfts/{id}: the same NFTs the positions name; unknown ids 404', async () => {
  const { body: all } = await harness.pipeline.get(positionsPath('&page[size]=500'));
  const refs = all.data
    .slice(0, 5)
    .map((position: any) => `${chainId}:${position.attributes.nft_info.contract_address}:${position.attributes.nft_info.token_id}`);
  const { response, data: body } = await api.GET('/v1/nfts/', { params: { query: { 'filter[references]': refs.join(','), include: 'nft_collections' } } });
  expect(response.status).toBe(200);
  if (!body) throw new Error('no nfts body');
  expect(body.data.map((nft) => `${chainId}:${nft.attributes.contract_address}:${nft.attributes.token_id}`)).toEqual(refs);
  expect(body.included!.every((resource) => resource.type === 'nft_collections')).toBe(true);
  const one = await api.GET('/v1/nfts/{nft_id}', { params: { path: { nft_id: body.data[0]!.id } } });
  expect({ status: one.response.status, body: one.data }).toMatchObject({ status: 200, body: { data: { id: body.data[0]!.id, type: 'nfts' } } });
  expect((await harness.pipeline.get(`/v1/nfts/${chainId}:0x0000000000000000000000000000000000000001:1`)).status).toBe(404);
}, 60_000);

test.each([
  ['a Solana address', '/v1/wallets/DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy/nft-positions/', /EVM addresses only/],
  ['an unknown chain', '/v1/wallets/0x00000000000000000000000000000000000a11ce/nft-positions/?filter[chain_ids]=nope', /nope/],
  ['an unknown include', '/v1/wallets/0x00000000000000000000000000000000000a11ce/nft-positions/?include=tokens', /include/],
  ['an unknown sort', '/v1/wallets/0x00000000000000000000000000000000000a11ce/nft-positions/?sort=value', /sort/],
  ['page[size] 501', '/v1/wallets/0x00000000000000000000000000000000000a11ce/nft-positions/?page[size]=501', /page\[size\]/],
  ['a cursor not issued', '/v1/wallets/0x00000000000000000000000000000000000a11ce/nft-collections/?page[after]=bm90YWN1cnNvcg', /page\[after\]/],
  ['no references', '/v1/nfts/', /filter\[references\]/],
  ['a malformed reference', '/v1/nfts/?filter[references]=ethereum:0x12:1', /ethereum:0x12:1/],
])('%s answers 400 naming the problem', async (_, path, detail) => {
  const { status, body } = await harness.pipeline.get(path);
  expect(status).toBe(400);
  expect(body.errors[0]).toEqual({ title: 'Parameter is malformed', detail: expect.stringMatching(detail) });
});
