import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createGrpcClient, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import {
  setupClickHouseDatabase,
  setupPostgresDatabase,
  testConfig,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
  type PostgresDatabase,
} from '@wallet-api/core/testing';
import { parseUnits, type Address, type Hex, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createUnsignedSnapshotSource } from '../../indexer/src/actions/unsigned-snapshot-source.js';
import { actionsService } from '../../indexer/src/grpc/actions-service.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { createUnsignedActionStore } from '../../indexer/src/store/unsigned-action-store.js';
import { balanceOf, send, startSwapServer, type SwapServer } from '../../reference-data/test/setup-swap.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// Unsigned actions end to end (spec 4.5, issue 20 item 2): the gateway over reference-data's real
// Swap service on the test's own fork of the world's ethereum anvil, and the indexer's real
// Indexer and Actions services over a PostgreSQL and a ClickHouse database of the test's own. A
// key with the pending-orders role asks a swap quote for a wallet whose key the test holds (the
// world's wallets are keyless addresses the devnet impersonates, and a dismissal needs the
// wallet's signature): the best quote's action is listed in the wallet's meta.unsigned, its built
// transaction is executed on the fork and what it delivers is read from the chain, and the
// wallet's signature dismisses it.

interface Quantity {
  int: string;
  decimals: number;
}
interface QuoteResource {
  attributes: {
    input_amount: Quantity;
    output_amount_min: Quantity;
    transaction: { chain_id: string; from: string; to: string; data: Hex; value: string; gas: string } | null;
    action_id: string | null;
  };
}
interface TransactionResource {
  id: string;
  attributes: {
    operation_type: string;
    status: string;
    mined_at: string;
    mined_at_block: number | null;
    sent_from: string;
    sent_to: string;
    available_at?: string | null;
    expires_at?: string | null;
    transfers: { direction: string; quantity: Quantity; sender: string; recipient: string; fungible_info: { symbol: string } | null }[];
    application_metadata: { contract_address: string } | null;
  };
}
interface ErrorBody {
  errors: { title: string; detail: string }[];
}

const lifetimeMs = 600_000;
let swap: SwapServer;
let database: PostgresDatabase;
let clickhouse: ClickHouseDatabase;
let indexerGrpc: GrpcServer;
/** The indexer's client of reference-data. */
let referenceData: ReferenceDataClient;
let server: Server;
let backends: Backends;
let redis: Redis;
let baseUrl: string;
let chain: PublicClient;
let usdc: Address;
/** Keys of three organizations: with the role, with the role but another organization, without it. */
const auth: Record<'role' | 'otherRole' | 'plain', Record<string, string>> = { role: {}, otherRole: {}, plain: {} };
let wallet: PrivateKeyAccount;

const basic = (key: string) => ({ Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });
const get = (path: string, key: keyof typeof auth = 'role') => fetch(`${baseUrl}${path}`, { headers: auth[key] });
const post = (path: string, body: unknown, key: keyof typeof auth = 'role') =>
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...auth[key], 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const build = (body: unknown, key: keyof typeof auth = 'role') => post('/v1/transactions/build-action/', body, key);
const dismiss = (body: unknown, key: keyof typeof auth = 'role') => post('/v1/transactions/dismiss-action/', body, key);

async function quotes(key: keyof typeof auth): Promise<QuoteResource[]> {
  const params = new URLSearchParams({
    'input[chain_id]': 'ethereum',
    'input[fungible_id]': 'eth',
    'input[amount]': '0.5',
    'output[fungible_id]': 'usdc',
    from: wallet.address,
  });
  const response = await get(`/v1/swap/quotes/?${params.toString()}`, key);
  const body = (await response.json()) as { data: QuoteResource[] };
  expect({ status: response.status, body }).toMatchObject({ status: 200 });
  return body.data;
}

async function unsignedOf(address: string, key: keyof typeof auth = 'role'): Promise<TransactionResource[]> {
  const response = await get(`/v1/wallets/${address}/transactions/?filter[include_pending]=true&filter[chain_ids]=ethereum`, key);
  const body = (await response.json()) as { meta: { unsigned: TransactionResource[]; pending: TransactionResource[] } };
  expect({ status: response.status, body }).toMatchObject({ status: 200 });
  return body.meta.unsigned;
}

async function expectError(response: Response, status: number, detail: RegExp): Promise<void> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, detail: body.errors?.[0]?.detail }).toEqual({ status, detail: expect.stringMatching(detail) });
}

beforeAll(async () => {
  swap = await startSwapServer();
  chain = swap.client;
  usdc = swap.worldToken('USDC');
  const suffix = uniqueName('unsigned_actions');
  database = await setupPostgresDatabase(suffix);
  clickhouse = await setupClickHouseDatabase(suffix);
  // The indexer process's two services as its main.ts wires them, over this test's databases.
  referenceData = createGrpcClient(ReferenceDataClient, swap.address);
  const store = createUnsignedActionStore(database.prisma);
  indexerGrpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      indexerService({ clickhouse: clickhouse.clickhouse, referenceData, unsigned: createUnsignedSnapshotSource(store) }),
      actionsService({ store, referenceData, lifetimeMs }),
    ],
    logger: testLogger,
  });
  redis = new Redis(testConfig().REDIS_URL);
  backends = createBackends({ referenceData: swap.address, indexer: `127.0.0.1:${indexerGrpc.port}`, positions: '127.0.0.1:1' });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(database.prisma, apiKey),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  auth.role = basic((await createOrganizationKey(database.prisma, { org: uniqueName('actions'), roles: ['pending-orders'], addons: [] })).key);
  auth.otherRole = basic((await createOrganizationKey(database.prisma, { org: uniqueName('other'), roles: ['pending-orders'], addons: [] })).key);
  auth.plain = basic((await createOrganizationKey(database.prisma, { org: uniqueName('plain'), roles: [], addons: [] })).key);
  // A wallet of the test's own on the fork: 10 ETH, and impersonated so the test can send its transactions.
  wallet = privateKeyToAccount(generatePrivateKey());
  await chain.request({ method: 'anvil_setBalance' as never, params: [wallet.address, `0x${(10n ** 19n).toString(16)}`] as never });
  await chain.request({ method: 'anvil_impersonateAccount' as never, params: [wallet.address] as never });
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  backends?.close();
  await indexerGrpc?.shutdown(1_000);
  referenceData?.close();
  redis?.disconnect();
  await clickhouse?.drop();
  await database?.drop();
  await swap?.stop();
});

describe('a swap quote as an unsigned action', () => {
  let quote: QuoteResource;
  let actionId: string;

  test('the best quote with a transaction carries the action id for the role; without the role none does', async () => {
    const plain = await quotes('plain');
    expect(plain.map((candidate) => candidate.attributes.action_id)).toEqual(plain.map(() => null));

    const served = await quotes('role');
    const best = served.findIndex((candidate) => candidate.attributes.transaction !== null);
    expect(best).toBeGreaterThanOrEqual(0);
    quote = served[best]!;
    actionId = quote.attributes.action_id!;
    expect(actionId).toMatch(/^act_[0-9a-f]{32}$/);
    expect(served.map((candidate) => candidate.attributes.action_id)).toEqual(served.map((_candidate, index) => (index === best ? actionId : null)));
    expect(quote.attributes.input_amount.int).toBe(parseUnits('0.5', 18).toString());
  }, 120_000);

  test("meta.unsigned lists it for the wallet: the action id, empty status, the quote's transfers seen from the wallet", async () => {
    const before = Date.now();
    const unsigned = await unsignedOf(wallet.address.toLowerCase());
    expect(unsigned.map((resource) => resource.id)).toEqual([actionId]);
    const [action] = unsigned;
    const router = quote.attributes.transaction!.to;
    expect(action!.attributes).toMatchObject({
      operation_type: 'trade',
      status: '',
      mined_at_block: null,
      sent_from: wallet.address.toLowerCase(),
      sent_to: router,
      application_metadata: expect.objectContaining({ contract_address: router }),
    });
    expect(
      action!.attributes.transfers.map((transfer) => ({
        direction: transfer.direction,
        int: transfer.quantity.int,
        symbol: transfer.fungible_info?.symbol,
        sender: transfer.sender,
        recipient: transfer.recipient,
      })),
    ).toEqual([
      { direction: 'out', int: parseUnits('0.5', 18).toString(), symbol: 'ETH', sender: wallet.address.toLowerCase(), recipient: router },
      { direction: 'in', int: quote.attributes.output_amount_min.int, symbol: 'USDC', sender: router, recipient: wallet.address.toLowerCase() },
    ]);
    // Created by the quote request a moment ago; open for the configured lifetime.
    const created = Date.parse(action!.attributes.available_at!);
    expect(created).toBeLessThanOrEqual(before);
    expect(before - created).toBeLessThan(120_000);
    expect(Date.parse(action!.attributes.expires_at!) - created).toBe(lifetimeMs);
    expect(Date.parse(action!.attributes.mined_at)).toBe(Math.floor(created / 1000) * 1000);

    // Another organization does not see it, even for the same wallet.
    expect(await unsignedOf(wallet.address.toLowerCase(), 'otherRole')).toEqual([]);
  }, 60_000);

  test('build-action returns the transaction; sent from the wallet it delivers at least output_amount_min, and its hash is recorded', async () => {
    const response = await build({ action_id: actionId });
    const body = (await response.json()) as {
      data: { type: string; attributes: { transaction: { chain_id: string; from: string; to: Address; data: Hex; value: string; gas: string } } };
    };
    expect({ status: response.status, type: body.data?.type }).toEqual({ status: 200, type: 'transaction_builds' });
    const transaction = body.data.attributes.transaction;
    expect(transaction).toEqual(quote.attributes.transaction);

    const balanceBefore = await balanceOf(chain, usdc, wallet.address);
    await send(chain, { from: wallet.address, to: transaction.to, data: transaction.data, value: BigInt(transaction.value), gas: BigInt(transaction.gas) });
    const received = (await balanceOf(chain, usdc, wallet.address)) - balanceBefore;
    expect(received >= BigInt(quote.attributes.output_amount_min.int)).toBe(true);

    // The client reports the hash it broadcast; the builder records it and broadcasts nothing.
    const sent = (await chain.getBlock({ includeTransactions: true })).transactions.find(
      (candidate) => candidate.from.toLowerCase() === wallet.address.toLowerCase(),
    );
    const hash = sent!.hash;
    expect((await build({ action_id: actionId, signature_swap: hash })).status).toBe(200);
    const row = await database.prisma.unsignedAction.findUniqueOrThrow({ where: { id: actionId } });
    expect({ swap: row.signatureSwap, approve: row.signatureApprove }).toEqual({ swap: hash.toLowerCase(), approve: null });
  }, 120_000);

  test("another organization's key cannot build or dismiss it (404); a key without the role is refused (403)", async () => {
    await expectError(await build({ action_id: actionId }, 'otherRole'), 404, /^action_id: no open action act_/);
    await expectError(await dismiss({ action_id: actionId, signature: await wallet.signMessage({ message: actionId }) }, 'otherRole'), 404, /^action_id: /);
    await expectError(await build({ action_id: actionId }, 'plain'), 403, /requires the pending-orders role/);
    await expectError(
      await dismiss({ action_id: actionId, signature: await wallet.signMessage({ message: actionId }) }, 'plain'),
      403,
      /requires the pending-orders role/,
    );
  });

  test("a dismissal signed by another key is 400 naming the signature; the wallet's signature dismisses it", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    await expectError(
      await dismiss({ action_id: actionId, signature: await stranger.signMessage({ message: actionId }) }),
      400,
      /^signature: is not the wallet 0x[0-9a-f]{40}'s signature of the action id$/,
    );
    // The wallet signing another message is no dismissal of this action either.
    await expectError(
      await dismiss({ action_id: actionId, signature: await wallet.signMessage({ message: `${actionId}.` }) }),
      400,
      /^signature: is not the wallet/,
    );
    expect(await unsignedOf(wallet.address.toLowerCase())).toHaveLength(1);

    const response = await dismiss({ action_id: actionId, signature: await wallet.signMessage({ message: actionId }) });
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: '' });
    expect(await unsignedOf(wallet.address.toLowerCase())).toEqual([]);
    await expectError(await build({ action_id: actionId }), 404, /^action_id: no open action/);
    await expectError(await dismiss({ action_id: actionId, signature: await wallet.signMessage({ message: actionId }) }), 404, /^action_id: no open action/);
  }, 60_000);
});

describe('refused requests', () => {
  test('an id never issued is 404', async () => {
    await expectError(await build({ action_id: 'act_00000000000000000000000000000000' }), 404, /^action_id: no open action act_0+$/);
    await expectError(await dismiss({ action_id: 'act_00000000000000000000000000000000', signature: `0x${'11'.repeat(65)}` }), 404, /^action_id: /);
  });

  test.each([
    ['build-action', 'no body', undefined, /^parameter action_id: is required/],
    ['build-action', 'an empty action_id', { action_id: '' }, /^parameter action_id: must not be empty/],
    ['build-action', 'a number for action_id', { action_id: 42 }, /^parameter action_id: /],
    ['build-action', 'an action_id with spaces', { action_id: 'act 1' }, /^parameter action_id: must be an action id/],
    ['build-action', 'a short signature_swap', { action_id: 'act_1', signature_swap: '0x1234' }, /^parameter signature_swap: must be a transaction hash/],
    ['build-action', 'a non-hex signature_approve', { action_id: 'act_1', signature_approve: `0x${'zz'.repeat(32)}` }, /^parameter signature_approve: /],
    ['build-action', 'an unknown key', { action_id: 'act_1', signature: '0x12' }, /^parameter signature: is not a known key/],
    ['build-action', 'an array', [], /^request body: must be a JSON object/],
    ['dismiss-action', 'no signature', { action_id: 'act_1' }, /^parameter signature: is required/],
    [
      'dismiss-action',
      'a signature neither hex nor base58',
      { action_id: 'act_1', signature: '0xnothex' },
      /^parameter signature: must be a 0x-hex EIP-191 signature/,
    ],
    ['dismiss-action', 'an odd-length hex signature', { action_id: 'act_1', signature: '0x123' }, /^parameter signature: /],
    ['dismiss-action', 'no action_id', { signature: `0x${'11'.repeat(65)}` }, /^parameter action_id: is required/],
  ])('%s with %s is 400 naming the parameter', async (endpoint, _name, body, detail) => {
    const response = body === undefined ? await post(`/v1/transactions/${endpoint}/`, '', 'role') : await post(`/v1/transactions/${endpoint}/`, body);
    await expectError(response, 400, detail);
  });

  test('a malformed JSON body is 400', async () => {
    const response = await post('/v1/transactions/build-action/', '{"action_id":');
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).errors[0]!.title).toBe('Parameter is malformed');
  });

  test("a signature malformed for the wallet's chain (base58 for an EVM wallet) is 400 from the service", async () => {
    const [quote] = (await quotes('role')).filter((candidate) => candidate.attributes.action_id !== null);
    const response = await dismiss({
      action_id: quote!.attributes.action_id!,
      signature: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
    });
    await expectError(response, 400, /^signature: must be a 0x-hex EIP-191 signature for an EVM wallet$/);
  }, 120_000);
});
