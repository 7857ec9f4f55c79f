import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { parseUnits, type Address, type Hex, type PublicClient } from 'viem';
import { approve, balanceOf, fundedWallet, quotesOnChain, send, startSwapServer, type SwapServer } from '../../reference-data/test/setup-swap.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// GET /v1/swap/quotes/, /v1/swap/fungibles/ and /v1/swap/offers/ through the gateway over
// reference-data's real Swap service on the test's own fork of the world's ethereum anvil. Every quote is checked
// against the chain's own quoter and router read by the test at the answer's block, and the
// served transactions are executed from a wallet of the test's own.

interface Quantity {
  int: string;
  decimals: number;
  float: number;
  numeric: string;
}
interface QuoteResource {
  type: string;
  id: string;
  attributes: {
    input_amount: Quantity;
    output_amount: Quantity;
    output_amount_after_fees: Quantity;
    output_amount_min: Quantity;
    price_impact_percent: number | null;
    slippage_percent: number;
    fee: { protocol_percent: number; gas: { quantity: Quantity; value: number | null } };
    liquidity_source: { id: string; name: string };
    route: string[];
    asset_spender: string | null;
    preconditions_met: { enough_balance: boolean; enough_allowance: boolean };
    transaction: { chain_id: string; from: string; to: string; data: Hex; value: string; gas: string } | null;
    estimated_seconds: number;
  };
  relationships: Record<string, { data: { type: string; id: string } }>;
}
interface QuotesBody {
  data: QuoteResource[];
  meta: { block_number: number };
}

let swap: SwapServer;
let server: Server;
let backends: Backends;
let redis: Redis;
let prisma: ReturnType<typeof createPrisma>;
let baseUrl: string;
let auth: Record<string, string>;
let client: PublicClient;
let usdc: Address;
let weth: Address;

const get = (path: string) => fetch(`${baseUrl}${path}`, { headers: auth });
const quotesPath = (params: Record<string, string>) => `/v1/swap/quotes/?${new URLSearchParams(params).toString()}`;

async function quotes(params: Record<string, string>): Promise<QuotesBody> {
  const response = await get(quotesPath(params));
  const body = (await response.json()) as QuotesBody;
  expect({ status: response.status, body }).toMatchObject({ status: 200 });
  return body;
}

/** Every served quote equals the chain's own quote of its route at the answer's block, and the best of them is the chain's best; ordered by output after fees. */
async function expectChainTruth(body: QuotesBody, tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<void> {
  const truth = await quotesOnChain({
    client,
    registry: swap.registry,
    chainId: 'ethereum',
    tokenIn,
    tokenOut,
    amountIn,
    blockNumber: BigInt(body.meta.block_number),
  });
  expect(body.data.length).toBeGreaterThan(1);
  for (const quote of body.data) {
    expect(quote.attributes.output_amount.int).toBe(truth.get(quote.attributes.route.join('-'))?.toString());
    expect(quote.attributes.input_amount.int).toBe(amountIn.toString());
  }
  const bestOnChain = [...truth.values()].reduce((best, amount) => (amount > best ? amount : best), 0n);
  const bestServed = body.data.map((quote) => BigInt(quote.attributes.output_amount.int)).reduce((best, amount) => (amount > best ? amount : best), 0n);
  expect(bestServed).toBe(bestOnChain);
  const afterFees = body.data.map((quote) => BigInt(quote.attributes.output_amount_after_fees.int));
  afterFees.slice(1).forEach((amount, index) => expect(amount <= afterFees[index]!).toBe(true));
  for (const quote of body.data) {
    const { output_amount: output, output_amount_min: min, slippage_percent: slippage } = quote.attributes;
    expect(BigInt(min.int)).toBe((BigInt(output.int) * BigInt(100_000_000 - slippage * 1_000_000)) / 100_000_000n);
    expect(BigInt(quote.attributes.output_amount_after_fees.int) <= BigInt(output.int)).toBe(true);
  }
}

beforeAll(async () => {
  swap = await startSwapServer();
  prisma = createPrisma(testConfig().DATABASE_URL);
  redis = new Redis(testConfig().REDIS_URL);
  backends = createBackends({ referenceData: swap.address, indexer: swap.address, positions: swap.address });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
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
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('swap'), roles: [], addons: [] });
  auth = { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  client = swap.client;
  usdc = swap.worldToken('USDC');
  weth = swap.worldToken('WETH');
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  backends.close();
  await swap.stop();
  redis.disconnect();
  await prisma.$disconnect();
});

describe('GET /v1/swap/quotes/', () => {
  test('native ETH in: every route as the chain quotes it, best first; the best transaction delivers at least output_amount_min to `to`', async () => {
    const from = await fundedWallet(client, 10n);
    const to = await fundedWallet(client, 0n);
    const body = await quotes({
      'input[chain_id]': 'ethereum',
      'input[fungible_id]': 'eth',
      'input[amount]': '0.5',
      'output[fungible_id]': 'usdc',
      from,
      to,
      slippage_percent: '1',
    });
    await expectChainTruth(body, weth, usdc, parseUnits('0.5', 18));
    const [best] = body.data;
    expect(best!.type).toBe('swap_quotes');
    expect(best!.attributes.asset_spender).toBeNull();
    expect(best!.attributes.preconditions_met).toEqual({ enough_balance: true, enough_allowance: true });
    expect(best!.attributes.slippage_percent).toBe(1);
    expect(best!.attributes.liquidity_source.id).toMatch(/^uniswap-v[23]$/);
    expect(best!.relationships.input_fungible!.data).toEqual({ type: 'fungibles', id: 'eth' });
    const transaction = best!.attributes.transaction!;
    expect(transaction).toMatchObject({ chain_id: 'ethereum', from: from.toLowerCase(), value: parseUnits('0.5', 18).toString() });
    const before = await balanceOf(client, usdc, to);
    await send(client, { from, to: transaction.to as Address, data: transaction.data, value: BigInt(transaction.value), gas: BigInt(transaction.gas) });
    const received = (await balanceOf(client, usdc, to)) - before;
    expect(received >= BigInt(best!.attributes.output_amount_min.int)).toBe(true);
  }, 120_000);

  test('token in: without allowance no transaction; after approving asset_spender the transaction delivers native ETH to `to`', async () => {
    const from = await fundedWallet(client, 10n);
    const to = await fundedWallet(client, 0n);
    // USDC of the wallet's own, bought with its ETH through the service's best route.
    const buy = await quotes({ 'input[chain_id]': 'ethereum', 'input[fungible_id]': 'eth', 'input[amount]': '1', 'output[fungible_id]': 'usdc', from });
    const purchase = buy.data[0]!.attributes.transaction!;
    await send(client, { from, to: purchase.to as Address, data: purchase.data, value: BigInt(purchase.value), gas: BigInt(purchase.gas) });

    const params = { 'input[chain_id]': 'ethereum', 'input[fungible_id]': 'usdc', 'input[amount]': '100.25', 'output[fungible_id]': 'eth', from, to };
    const unapproved = await quotes(params);
    for (const quote of unapproved.data) {
      expect(quote.attributes.preconditions_met).toEqual({ enough_balance: true, enough_allowance: false });
      expect(quote.attributes.transaction).toBeNull();
      expect(quote.attributes.asset_spender).toMatch(/^0x[0-9a-f]{40}$/);
    }
    const spender = unapproved.data[0]!.attributes.asset_spender as Address;
    await approve(client, from, usdc, spender, parseUnits('100.25', 6));

    const approved = await quotes(params);
    await expectChainTruth(approved, usdc, weth, parseUnits('100.25', 6));
    const ready = approved.data.find((quote) => quote.attributes.asset_spender === spender.toLowerCase())!;
    expect(ready.attributes.preconditions_met).toEqual({ enough_balance: true, enough_allowance: true });
    const transaction = ready.attributes.transaction!;
    expect(transaction.to).toBe(spender.toLowerCase());
    expect(transaction.value).toBe('0');
    const before = await balanceOf(client, '', to);
    await send(client, { from, to: transaction.to as Address, data: transaction.data, gas: BigInt(transaction.gas) });
    expect((await balanceOf(client, '', to)) - before >= BigInt(ready.attributes.output_amount_min.int)).toBe(true);
  }, 180_000);

  test('not enough balance: preconditions false and no transaction', async () => {
    const from = await fundedWallet(client, 1n);
    const body = await quotes({ 'input[chain_id]': 'ethereum', 'input[fungible_id]': 'eth', 'input[amount]': '5', 'output[fungible_id]': 'dai', from });
    expect(body.data.length).toBeGreaterThan(0);
    for (const quote of body.data) {
      expect(quote.attributes.preconditions_met.enough_balance).toBe(false);
      expect(quote.attributes.transaction).toBeNull();
    }
  }, 60_000);

  const valid = {
    'input[chain_id]': 'ethereum',
    'input[fungible_id]': 'eth',
    'input[amount]': '1',
    'output[fungible_id]': 'usdc',
    from: '0x1111111111111111111111111111111111111111',
  };
  test.each([
    ['an unknown chain', { 'input[chain_id]': 'nochain' }, 'input[chain_id]'],
    ['a Solana chain', { 'input[chain_id]': 'solana' }, 'input[chain_id]'],
    ['a cross-chain output', { 'output[chain_id]': 'base' }, 'output[chain_id]'],
    ['an unknown input fungible', { 'input[fungible_id]': 'nosuchcoin' }, 'input[fungible_id]'],
    ['an unknown output fungible', { 'output[fungible_id]': 'nosuchcoin' }, 'output[fungible_id]'],
    ['the same fungible', { 'output[fungible_id]': 'eth' }, 'output[fungible_id]'],
    ['the native asset for its wrapped token', { 'output[fungible_id]': 'weth' }, 'output[fungible_id]'],
    ['a non-numeric amount', { 'input[amount]': 'abc' }, 'input[amount]'],
    ['a negative amount', { 'input[amount]': '-1' }, 'input[amount]'],
    ['a zero amount', { 'input[amount]': '0.0' }, 'input[amount]'],
    ['more decimals than the asset has', { 'input[fungible_id]': 'usdc', 'input[amount]': '1.0000001', 'output[fungible_id]': 'dai' }, 'input[amount]'],
    ['more base units than a uint256 holds', { 'input[amount]': '9'.repeat(78) }, 'input[amount]'],
    ['a hexadecimal slippage', { slippage_percent: '0x10' }, 'slippage_percent'],
    ['a slippage with an exponent', { slippage_percent: '1e1' }, 'slippage_percent'],
    ['a zero slippage', { slippage_percent: '0' }, 'slippage_percent'],
    ['a slippage above 50', { slippage_percent: '50.5' }, 'slippage_percent'],
    ['a non-numeric slippage', { slippage_percent: 'lots' }, 'slippage_percent'],
    ['a bad from address', { from: '0x1234' }, 'from'],
    ['a bad to address', { to: 'not-an-address' }, 'to'],
  ])('%s answers 400 naming the parameter', async (_name, change, parameter) => {
    const params: Record<string, string> = { ...valid, ...change };
    const response = await get(quotesPath(params));
    const body = (await response.json()) as { errors: { title: string; detail: string }[] };
    expect(response.status).toBe(400);
    expect(body.errors[0]!.title).toBe('Parameter is malformed');
    expect(body.errors[0]!.detail).toContain(parameter);
  });

  test('a missing required parameter answers 400 naming it', async () => {
    const { from: _omitted, ...params } = valid;
    const response = await get(quotesPath(params));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toContain('from');
  });
});

describe('GET /v1/swap/fungibles/', () => {
  test('lists the fungibles with a trusted pool route on the chain, as fungibles resources', async () => {
    const response = await get('/v1/swap/fungibles/?input[chain_id]=ethereum');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { type: string; id: string; attributes: { symbol: string; implementations: { chain_id: string }[] } }[] };
    const ids = body.data.map((fungible) => fungible.id);
    expect(ids).toEqual(expect.arrayContaining(['eth', 'weth', 'usdc', 'dai', 'wbtc', 'gov', 'frog', 'yld']));
    // The fee-on-transfer token has no pool on the devnet.
    expect(ids).not.toContain('tax');
    for (const fungible of body.data) {
      expect(fungible.type).toBe('fungibles');
      expect(fungible.attributes.implementations.some((implementation) => implementation.chain_id === 'ethereum')).toBe(true);
    }
  }, 60_000);

  test.each([
    ['no chain', ''],
    ['two different chains', '?input[chain_id]=ethereum&output[chain_id]=base'],
    ['an unknown chain', '?output[chain_id]=nochain'],
    ['a testnet without X-Env: testnet', '?input[chain_id]=sepolia'],
  ])('%s answers 400', async (_name, query) => {
    const response = await get(`/v1/swap/fungibles/${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(/^parameter (in|out)put\[chain_id\]/);
  });
});

test('GET /v1/swap/offers/ answers 410 with a JSON:API error', async () => {
  const response = await get('/v1/swap/offers/');
  expect(response.status).toBe(410);
  expect(await response.json()).toEqual({ errors: [{ title: 'Gone', detail: expect.stringContaining('/v1/swap/quotes/') }] });
});
