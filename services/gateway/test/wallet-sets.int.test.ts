import { createSolanaRpc } from '@solana/kit';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { consumerGroupCaughtUp, eventually, setupKafka } from '@wallet-api/core/testing';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { SolanaWorldManifest } from '../../../devnet/src/solana/world-manifest.js';
import { readWalletTruth, solanaLamports, solanaTokenHoldings } from '../../../devnet/src/truth/index.js';
import { walletHoldings } from '../../positions/test/chain-truth.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { createWalletApiClient, type WalletApiClient } from '../../../clients/typescript/src/index.js';
import { publicUrl, startIndexedGateway, type IndexedGateway } from './setup-indexed-gateway.js';

// The wallet-set endpoints (decisions.md, "Wallet sets") over an EVM wallet of the test world's
// ethereum chain and a Solana wallet of its solana chain, both indexed from the shared chains
// (only read) into the positions service and the indexer's ClickHouse history. The set's answers
// are held against the wallet endpoints' answers fetched at the same moment and against the
// chains' balances read with viem and Solana RPC when compared.

let ethereum: ChainWorld;
let solana: SolanaWorldManifest;
let client: PublicClient;
let rpc: ReturnType<typeof createSolanaRpc>;
let harness: PositionsHarness;
let gateway: IndexedGateway;
let baseUrl: string;
let authorization: string;
// The typed client (@wallet-api/client), for the calls the served OpenAPI document must describe.
let api: WalletApiClient;
let evmWallet: string;
let solanaWallet: string;
const kafka = setupKafka('wallet-sets-test');

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
  return { status: response.status, body: await response.json() };
}

/** The typed client's 200 body; anything else fails with its status and errors. */
async function served<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request;
  if (response.status !== 200 || data === undefined) throw new Error(`GET ${response.url}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

async function ok(path: string): Promise<any> {
  const { status, body } = await get(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Every page through links.next, each asked through the typed client with the page[after] cursor
 * the previous page's links.next carries: the pages' items in order, and each page's length.
 */
async function walk<Item>(page: (after?: string) => Promise<{ data: Item[]; links: { next?: string | null } }>): Promise<{ items: Item[]; sizes: number[] }> {
  const items: Item[] = [];
  const sizes: number[] = [];
  for (let after: string | undefined, more = true; more; ) {
    const body = await page(after);
    items.push(...body.data);
    sizes.push(body.data.length);
    after = body.links.next ? (new URL(body.links.next).searchParams.get('page[after]') ?? undefined) : undefined;
    more = after !== undefined;
  }
  return { items, sizes };
}

/** The asset a position holds on its own chain: the token's address there, '' for the native coin. */
const assetOf = (resource: any): string => {
  const chainId = resource.relationships.chain.data.id;
  return resource.attributes.fungible_info.implementations.find((entry: any) => entry.chain_id === chainId)?.address ?? '';
};

/** What the chains hold now: the EVM wallet's outright balances on ethereum (viem), the Solana wallet's lamports and mints (RPC). */
async function chainHoldings(): Promise<Map<string, bigint>> {
  const head = await client.getBlockNumber();
  const held = new Map<string, bigint>();
  for (const [asset, amount] of walletHoldings(await readWalletTruth(client, ethereum, evmWallet as Address, head))) held.set(`ethereum:${asset}`, amount);
  const lamports = await solanaLamports(rpc, solanaWallet);
  if (lamports > 0n) held.set('solana:', lamports);
  for (const holding of await solanaTokenHoldings(rpc, solanaWallet)) if (holding.amount > 0n) held.set(`solana:${holding.mint}`, holding.amount);
  return held;
}

/** Equal up to float summation order: within a billionth of the magnitude. */
const near = (value: number) => expect.closeTo(value, 9 - Math.ceil(Math.log10(Math.max(1, Math.abs(value)))));

const sumRecords = (records: Record<string, number>[]) => {
  const sum: Record<string, number> = {};
  for (const record of records) for (const [key, value] of Object.entries(record)) sum[key] = (sum[key] ?? 0) + value;
  return Object.fromEntries(Object.entries(sum).map(([key, value]) => [key, near(value)]));
};

beforeAll(async () => {
  const manifest = await readManifest();
  ethereum = manifest.chains.find((chain) => chain.id === 'ethereum')!;
  solana = manifest.solana!.find((world) => world.id === 'solana')!;
  client = createPublicClient({ transport: http(ethereum.rpcUrl), cacheTime: 0 });
  rpc = createSolanaRpc(solana.rpcUrl);
  evmWallet = ethereum.wallets[0]!.address.toLowerCase();
  solanaWallet = solana.wallets[0]!.address;

  harness = await startPositionsHarness({ rpcUrls: { solana: solana.rpcUrl } });
  harness.index({ chainId: 'ethereum', rpcUrl: ethereum.rpcUrl, finalityDepth: 12 });
  harness.index({ chainId: 'solana', rpcUrl: solana.rpcUrl, family: 'solana' });
  await harness.startConsumers();
  const positions = await harness.startService();
  gateway = await startIndexedGateway(harness, { kafka, positionsAddress: positions.address, name: 'wallet-sets' });
  ({ baseUrl, authorization } = gateway);
  api = createWalletApiClient({ baseUrl, apiKey: gateway.key });

  // Both chains indexed up to their world's end, and the balance changes folded.
  await eventually(async () => {
    const tip = async (chainId: string) =>
      (await harness.database.prisma.indexedBlock.findMany({ where: { chainId }, orderBy: { number: 'desc' }, take: 1 }))[0]?.number ?? -1n;
    expect(Number(await tip('ethereum'))).toBeGreaterThanOrEqual(ethereum.endBlock);
    expect(Number(await tip('solana'))).toBeGreaterThanOrEqual(solana.endSlot);
  }, 240_000);
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.balance-changes`, harness.topics.balanceChanges.name), 120_000);
}, 600_000);

afterAll(async () => {
  await gateway?.stop();
  await harness?.close();
});

const set = () => `${evmWallet},${solanaWallet}`;

describe('wallet sets of an EVM and a Solana wallet', () => {
  test("portfolio: the set's is the sum of both wallets' (fetched at the same moment), the 1-day percent of the sums; id is both addresses", async () => {
    await eventually(async () => {
      const [both, evm, sol] = await Promise.all([
        served(api.GET('/v1/wallet-sets/portfolio', { params: { query: { addresses: set() } } })),
        served(api.GET('/v1/wallets/{address}/portfolio', { params: { path: { address: evmWallet } } })),
        ok(`/v1/wallets/${solanaWallet}/portfolio`),
      ]);
      const parts = [evm.data.attributes, sol.data.attributes];
      const total = parts.reduce((sum, part) => sum + part.total.positions, 0);
      const change = parts.reduce((sum, part) => sum + part.changes.absolute_1d, 0);
      expect(both).toEqual({
        // self echoes the query as sent: the typed client encodes the comma between the addresses.
        links: { self: `${publicUrl}/v1/wallet-sets/portfolio?addresses=${encodeURIComponent(set())}` },
        data: {
          type: 'portfolio',
          id: set(),
          attributes: {
            positions_distribution_by_type: sumRecords(parts.map((part) => part.positions_distribution_by_type)),
            positions_distribution_by_chain: sumRecords(parts.map((part) => part.positions_distribution_by_chain)),
            total: { positions: near(total) },
            changes: { absolute_1d: near(change), percent_1d: near(total === change ? 0 : (change / (total - change)) * 100) },
          },
        },
      });
      // Both wallets hold something valued, so the sum is not one wallet's answer.
      expect(parts.map((part) => part.total.positions > 0)).toEqual([true, true]);
    }, 120_000);
  }, 180_000);

  test("positions: the set's are both wallets' with their own ids, sorted by value, and each quantity equals the chain's balance", async () => {
    const query = 'filter[trash]=no_filter';
    await eventually(async () => {
      const [both, evm, sol] = await Promise.all([
        served(api.GET('/v1/wallet-sets/positions/', { params: { query: { addresses: set(), 'filter[trash]': 'no_filter' } } })),
        served(api.GET('/v1/wallets/{address}/positions/', { params: { path: { address: evmWallet }, query: { 'filter[trash]': 'no_filter' } } })),
        ok(`/v1/wallets/${solanaWallet}/positions/?${query}`),
      ]);
      const ids = (list: { id: string }[]) => list.map((resource) => resource.id).sort();
      expect(ids(both.data)).toEqual(ids([...evm.data, ...sol.data]));
      const values = both.data.map((resource) => resource.attributes.value ?? -Infinity);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const quantities = new Map<string, bigint>(
        both.data.map((resource) => [`${resource.relationships.chain.data.id}:${assetOf(resource)}`, BigInt(resource.attributes.quantity.int)]),
      );
      expect(quantities).toEqual(await chainHoldings());
      expect(new Set(both.data.map((resource) => resource.relationships.chain.data.id))).toEqual(new Set(['ethereum', 'solana']));
    }, 180_000);
    // sort=-value: smallest first, rows without a value last, as the wallet endpoint sorts.
    const ascending = await ok(`/v1/wallet-sets/positions/?addresses=${set()}&${query}&sort=-value`);
    const valued = ascending.data.filter((resource: any) => resource.attributes.value !== null).map((resource: any) => resource.attributes.value);
    expect(valued).toEqual([...valued].sort((a: number, b: number) => a - b));
    expect(ascending.data.slice(valued.length).every((resource: any) => resource.attributes.value === null)).toBe(true);
  }, 240_000);

  test("positions: filter[chain_ids] applies per wallet by family; a chain no address of the set can read is the wallet endpoint's 400", async () => {
    const [onEthereum, evmOnly] = await Promise.all([
      ok(`/v1/wallet-sets/positions/?addresses=${set()}&filter[chain_ids]=ethereum`),
      ok(`/v1/wallets/${evmWallet}/positions/?filter[chain_ids]=ethereum`),
    ]);
    expect(onEthereum.data.map((resource: any) => resource.id)).toEqual(evmOnly.data.map((resource: any) => resource.id));
    const onSolana = await ok(`/v1/wallet-sets/positions/?addresses=${set()}&filter[chain_ids]=solana`);
    expect(onSolana.data.length).toBeGreaterThan(0);
    expect(onSolana.data.every((resource: any) => resource.relationships.chain.data.id === 'solana')).toBe(true);
    expect(await get(`/v1/wallet-sets/positions/?addresses=${evmWallet}&filter[chain_ids]=solana`)).toEqual({
      status: 400,
      body: { errors: [{ title: 'Parameter is malformed', detail: 'chain solana does not support this wallet address type' }] },
    });
  }, 60_000);

  test("transactions: the pages walked to the end are the union of both wallets' histories, newest first, each once, every page full but the last", async () => {
    await eventually(async () => {
      const [both, evm, sol] = await Promise.all([
        walk((after) =>
          served(
            api.GET('/v1/wallet-sets/transactions/', {
              params: { query: { addresses: set(), 'page[size]': '7', ...(after ? { 'page[after]': after } : {}) } },
            }),
          ),
        ),
        walk((after) =>
          served(
            api.GET('/v1/wallets/{address}/transactions/', {
              params: { path: { address: evmWallet }, query: { 'page[size]': '100', ...(after ? { 'page[after]': after } : {}) } },
            }),
          ),
        ),
        walk((after) =>
          served(
            api.GET('/v1/wallets/{address}/transactions/', {
              params: { path: { address: solanaWallet }, query: { 'page[size]': '100', ...(after ? { 'page[after]': after } : {}) } },
            }),
          ),
        ),
      ]);
      expect(evm.items.length).toBeGreaterThan(0);
      expect(sol.items.length).toBeGreaterThan(0);
      const ids = both.items.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...evm.items, ...sol.items].map((item) => item.id).sort());
      const times = both.items.map((item) => Date.parse(item.attributes.mined_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      // Each wallet's transactions keep the wallet endpoint's order and body.
      expect(both.items.filter((item) => item.attributes.address === evmWallet)).toEqual(evm.items);
      expect(both.items.filter((item) => item.attributes.address === solanaWallet)).toEqual(sol.items);
      expect(both.sizes.slice(0, -1).every((size) => size === 7)).toBe(true);
      // The walk crosses pages: the cursor carries both wallets' places more than once.
      expect(both.sizes.length).toBeGreaterThan(2);
    }, 120_000);
  }, 180_000);
});

describe('a one-address set is its wallet', () => {
  test.each([
    [
      'portfolio',
      (address: string) => `/v1/wallets/${address}/portfolio?currency=eur`,
      (address: string) => `/v1/wallet-sets/portfolio?addresses=${address}&currency=eur`,
    ],
    [
      'positions',
      (address: string) => `/v1/wallets/${address}/positions/?filter[trash]=no_filter`,
      (address: string) => `/v1/wallet-sets/positions/?addresses=${address}&filter[trash]=no_filter`,
    ],
    [
      'transactions',
      (address: string) => `/v1/wallets/${address}/transactions/?page[size]=5`,
      (address: string) => `/v1/wallet-sets/transactions/?addresses=${address}&page[size]=5`,
    ],
  ])(
    '%s: the same body as the wallet endpoint apart from links',
    async (_name, walletPath, setPath) => {
      for (const address of [evmWallet, solanaWallet]) {
        await eventually(async () => {
          const [wallet, one] = await Promise.all([ok(walletPath(address)), ok(setPath(address))]);
          expect(one.data).toEqual(wallet.data);
          expect(one.links.self).toBe(`${publicUrl}${setPath(address)}`);
          expect(one.links.next === undefined).toBe(wallet.links.next === undefined);
        }, 60_000);
      }
    },
    150_000,
  );
});

describe('every 400 of the wallet-set endpoints names addresses and the rule it broke', () => {
  const evm = '0x52908400098527886e0f7030069857d2e4169ee7';
  const sol = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const shape = 'one or two comma-separated addresses, at most one EVM and one Solana';
  const cases: [string, string][] = [
    [`${evm},0x8617e340b3d01fa5f11f306f4090fd50e238070d`, 'parameter addresses: must name at most one EVM address (got two)'],
    [`${sol},9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin`, 'parameter addresses: must name at most one Solana address (got two)'],
    [`${evm},${sol},${evm}`, `parameter addresses: must name ${shape} (got 3)`],
    ['', `parameter addresses: must not contain an empty value (${shape})`],
    [`${evm},0x12345`, 'parameter addresses: each address must be an EVM address (0x and 40 hex digits) or a Solana address (got "0x12345")'],
  ];
  test.each(['portfolio', 'positions/', 'transactions/'])('%s', async (endpoint) => {
    for (const [addresses, detail] of cases) {
      expect({ addresses, ...(await get(`/v1/wallet-sets/${endpoint}?addresses=${addresses}`)) }).toEqual({
        addresses,
        status: 400,
        body: { errors: [{ title: 'Parameter is malformed', detail }] },
      });
    }
    expect(await get(`/v1/wallet-sets/${endpoint}`)).toEqual({
      status: 400,
      body: { errors: [{ title: 'Parameter is malformed', detail: `parameter addresses: must be ${shape}` }] },
    });
  });

  test('a page[after] this endpoint did not hand out', async () => {
    const foreign = Buffer.from(JSON.stringify([null])).toString('base64url');
    expect(await get(`/v1/wallet-sets/transactions/?addresses=${evm},${sol}&page[after]=${foreign}`)).toEqual({
      status: 400,
      body: { errors: [{ title: 'Parameter is malformed', detail: 'parameter page[after]: is not a cursor this endpoint returned for these addresses' }] },
    });
  });
});
