import { createPrisma } from '@wallet-api/core/db';
import { eventually, setupKafka, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { decodeFunctionData, erc20Abi, type Address, type Hash, type Hex } from 'viem';
import { createPendingPool } from '../../indexer/src/pending/pending-pool.js';
import { createPendingSnapshotSource } from '../../indexer/src/pending/pending-snapshot-source.js';
import { collectPublished, type Published } from '../../indexer/test/setup-indexing.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import type { OwnAnvil } from '../../reference-data/test/own-anvil.js';
import { startPendingFork, type PendingFork } from '../../indexer/test/pending-fork.js';
import { createOrganizationKey } from '../src/auth/api-keys.js';
import { startIndexedGateway, type IndexedGateway } from './setup-indexed-gateway.js';

// filter[include_pending] (spec 4.5) through the gateway, the indexer's ListWalletTransactions and
// its pending pool, on the test's own fork of the world's ethereum anvil with automine off: a world
// wallet's USDC transfer waits in the node's pool, shows in meta.pending of both wallets with the
// amounts its calldata says (read with viem), is never published to the mined topics, and once
// mined leaves meta.pending and appears in data, indexed from the fork's new block.

const kafka = setupKafka('pending-transactions-test');
const prisma = createPrisma(testConfig().DATABASE_URL);
const controller = new AbortController();
let fork: OwnAnvil;
let harness: PositionsHarness;
let gateway: IndexedGateway;
let published: Published & { stop(): Promise<void> };
let polling: Promise<void>;
let pendingAuth: string;
let usdc: Address;
let sender: Address;
let recipient: Address;
// Receives two mined transfers and has nothing pending: two pages of history.
let quiet: Address;

let chain: PendingFork;

const rpc = (method: string, params: unknown[] = []) => chain.rpc(method, params);
const transfer = (to: Address, amount: bigint): Promise<Hash> => chain.sendTransfer(to, amount);

async function get(path: string, authorization = pendingAuth): Promise<{ status: number; body: any }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { authorization } });
  return { status: response.status, body: await response.json() };
}
async function ok(path: string): Promise<any> {
  const { status, body } = await get(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}
const transactions = (wallet: Address, query = '') => ok(`/v1/wallets/${wallet}/transactions/?filter[include_pending]=true${query}`);
const hashes = (resources: any[]) => resources.map((resource) => resource.attributes.hash);

beforeAll(async () => {
  chain = await startPendingFork();
  ({ fork, usdc, sender } = chain);
  [recipient, quiet] = chain.others as [Address, Address];

  // Only the fork's own blocks are indexed: the world's history is other suites' business.
  const forkHead = await fork.client.getBlockNumber();
  harness = await startPositionsHarness({ rpcUrls: { ethereum: fork.rpcUrl } });
  published = await collectPublished(kafka, harness.topics, 'ethereum');
  harness.index({ chainId: 'ethereum', rpcUrl: fork.rpcUrl, startBlock: forkHead + 1n, finalityDepth: 12 });
  const pool = createPendingPool({ chainId: 'ethereum', client: fork.client, pollIntervalMs: 100, logger: testLogger });
  polling = pool.run(controller.signal);
  const positions = await harness.startService();
  gateway = await startIndexedGateway(harness, {
    kafka,
    positionsAddress: positions.address,
    name: 'pending-transactions',
    snapshots: { pending: createPendingSnapshotSource([pool], harness.referenceData) },
  });
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('pending'), roles: ['pending-orders'], addons: [] });
  pendingAuth = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

  // Two mined transfers to the quiet wallet, one block each, indexed before the tests start.
  for (const amount of [11n, 12n]) {
    await transfer(quiet, amount);
    await rpc('evm_mine');
  }
  await eventually(async () => expect((await transactions(quiet)).data).toHaveLength(2), 120_000);
}, 300_000);

afterAll(async () => {
  controller.abort();
  await polling;
  await published?.stop();
  await gateway?.stop();
  await harness?.close();
  await fork?.stop();
  await prisma.$disconnect();
});

describe("filter[include_pending] on a wallet's transactions", () => {
  test('403 without the pending-orders role; without the opt-in no meta; with it, empty arrays on every page of a wallet with none pending', async () => {
    const refused = await get(`/v1/wallets/${quiet}/transactions/?filter[include_pending]=true`, gateway.authorization);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toContain('filter[include_pending]');

    expect(await ok(`/v1/wallets/${quiet}/transactions/`)).not.toHaveProperty('meta');
    const first = await transactions(quiet, '&page[size]=1');
    expect(first.meta).toEqual({ pending: [], unsigned: [] });
    expect(first.data).toHaveLength(1);
    const second = await ok(first.links.next.replace(/^https?:\/\/[^/]+/, ''));
    expect(second.meta).toEqual({ pending: [], unsigned: [] });
    expect(hashes(second.data)).not.toEqual(hashes(first.data));
  });

  test("a transfer in the pool is in both wallets' meta.pending with their views, under every filter, never published; mined, it moves to data", async () => {
    // Asked (and, were it cached, kept) before the transfer exists.
    expect((await transactions(sender)).meta.pending).toEqual([]);
    const amount = 7_654_321n;
    const hash = (await transfer(recipient, amount)).toLowerCase();
    const onChain = (await rpc('eth_getTransactionByHash', [hash])) as { input: Hex; blockNumber: Hex | null; nonce: Hex };
    expect(onChain.blockNumber).toBeNull();
    const [to, value] = decodeFunctionData({ abi: erc20Abi, data: onChain.input }).args as [Address, bigint];

    const sent = await eventually(async () => {
      const body = await transactions(sender);
      expect(hashes(body.meta.pending)).toEqual([hash]);
      return body;
    }, 30_000);
    expect(hashes(sent.data)).not.toContain(hash);
    const item = sent.meta.pending[0];
    expect(item).toMatchObject({
      type: 'transactions',
      id: `ethereum:${hash}`,
      attributes: {
        hash,
        status: '',
        mined_at_block: null,
        operation_type: 'send',
        sent_from: sender.toLowerCase(),
        sent_to: usdc.toLowerCase(),
        nonce: Number(BigInt(onChain.nonce)),
        expires_at: null,
        transfers: [{ direction: 'out', quantity: { int: value.toString() }, sender: sender.toLowerCase(), recipient: to.toLowerCase() }],
      },
    });
    expect(item.attributes.available_at).toBe(new Date(Date.parse(item.attributes.available_at)).toISOString());
    expect(Math.floor(Date.parse(item.attributes.available_at) / 1000)).toBe(Date.parse(item.attributes.mined_at) / 1000);

    const received = (await transactions(recipient)).meta.pending;
    expect(received).toMatchObject([
      { id: item.id, attributes: { hash, operation_type: 'receive', transfers: [{ direction: 'in', quantity: { int: amount.toString() } }] } },
    ]);

    // Every filter applies to the snapshot; the page's cursor and size do not.
    const minedAt = Date.parse(item.attributes.mined_at);
    const pendingUnder = async (query: string) => hashes((await transactions(sender, query)).meta.pending);
    expect(await pendingUnder('&filter[operation_types]=trade')).toEqual([]);
    expect(await pendingUnder('&filter[operation_types]=send')).toEqual([hash]);
    expect(await pendingUnder(`&filter[min_mined_at]=${minedAt + 1_000}`)).toEqual([]);
    expect(await pendingUnder(`&filter[min_mined_at]=${minedAt}`)).toEqual([hash]);
    expect(await pendingUnder(`&filter[max_mined_at]=${minedAt - 1}`)).toEqual([]);
    expect(await pendingUnder('&filter[chain_ids]=base')).toEqual([]);
    expect(await pendingUnder('&filter[asset_types]=nft')).toEqual([]);
    expect(await pendingUnder(`&filter[search_query]=${hash}`)).toEqual([hash]);
    expect(await pendingUnder(`&filter[search_query]=${recipient}`)).toEqual([hash]);
    expect(await pendingUnder('&filter[search_query]=USDC')).toEqual([hash]);
    expect(await pendingUnder(`&filter[search_query]=${quiet}`)).toEqual([]);
    expect(await pendingUnder('&page[size]=1')).toEqual([hash]);

    // The wallet-set endpoint takes the same filter and serves the same snapshot.
    const set = await ok(`/v1/wallet-sets/transactions/?addresses=${sender}&filter[include_pending]=true`);
    expect(set.meta).toEqual({ pending: [item], unsigned: [] });
    // On every page of both lists: the sender's two mined transfers to the quiet wallet, one a page.
    for (const first of [`/v1/wallets/${sender}/transactions/?`, `/v1/wallet-sets/transactions/?addresses=${sender}&`]) {
      let next: string | undefined = `${first}filter[include_pending]=true&page[size]=1`;
      const pages: any[] = [];
      while (next) {
        const body = await ok(next.replace(/^https?:\/\/[^/]+/, ''));
        pages.push(body);
        next = body.links.next;
      }
      expect(pages.map((body) => [body.data.length, hashes(body.meta.pending)])).toEqual([
        [1, [hash]],
        [1, [hash]],
      ]);
    }

    // The indexer polled the fork many times meanwhile: nothing of the pending transfer reached the topics webhooks read.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(published.transactions.map((transaction) => transaction.hash)).not.toContain(hash);

    await rpc('evm_mine');
    const receipt = await fork.client.getTransactionReceipt({ hash: hash as Hash });
    const mined = await eventually(async () => {
      const body = await transactions(sender);
      expect(body.meta.pending).toEqual([]);
      expect(hashes(body.data)).toContain(hash);
      return body;
    }, 60_000);
    expect(mined.data.find((resource: any) => resource.attributes.hash === hash).attributes).toMatchObject({
      status: 'confirmed',
      mined_at_block: Number(receipt.blockNumber),
      operation_type: 'send',
      transfers: [{ direction: 'out', quantity: { int: amount.toString() } }],
    });
    expect((await transactions(recipient)).meta.pending).toEqual([]);
    expect(published.transactions.filter((transaction) => transaction.hash === hash)).toHaveLength(1);
  });
});
