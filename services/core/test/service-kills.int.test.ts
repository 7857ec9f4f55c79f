import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, createWalletClient, http, parseEther, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { inList, sql } from '../src/clickhouse/index.js';
import type { ServiceName } from '../src/config/index.js';
import { eventually } from '../src/testing/index.js';
import { grpcServiceNames, startProcessStack, type ProcessStack } from './process-stack.js';

// Each service killed with SIGKILL while the chain moves and webhooks are owed, then started
// again, as a crashed pod is. Afterwards every answer is compared with the chain: each wallet's
// balance, its transaction list, the chart service's stored balance changes (kept in memory for
// minutes before one INSERT, so a kill finds rows that are not stored yet), and the webhooks
// (every transaction delivered at least once, never under two delivery ids).

const ethereumRpc = 'http://127.0.0.1:18545';
// anvil's tenth development account: the devnet world funds its wallets from the first.
const sender = privateKeyToAccount('0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6');
const recipients = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`);
const killed: readonly ServiceName[] = ['indexer', 'chart', 'positions', 'subscription', 'pnl', 'nft', 'reference-data', 'gateway'];

const client = createPublicClient({ transport: http(ethereumRpc) });
const wallet = createWalletClient({ account: sender, transport: http(ethereumRpc) });

let stack: ProcessStack;
let receiver: Server;
const deliveries: { id: string; address: string; hash: string }[] = [];
/** Each transfer sent: its hash and recipient. */
const sent: { hash: Hash; to: string }[] = [];

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    ...init,
    headers: { authorization: stack.authorization, 'content-type': 'application/json', ...init.headers },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Transfers to the recipients in turn, each awaited into a block, until `until` resolves. */
async function transferUntil(until: Promise<void>): Promise<void> {
  let done = false;
  void until.then(() => (done = true));
  for (let index = 0; !done; index++) {
    const to = recipients[index % recipients.length]!;
    const hash = await wallet.sendTransaction({ chain: null, to, value: parseEther('0.001') * BigInt(index + 1) });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    sent.push({ hash, to });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function healthy(name: ServiceName): Promise<void> {
  await eventually(() => stack.scrape(name), 60_000);
  if (name === 'gateway') await eventually(async () => expect((await api('/v1/chains/')).status).toBe(200), 60_000);
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { data: { id: string; attributes: { address: string } }; included: { attributes: { hash: string } }[] };
      deliveries.push({ id: parsed.data.id, address: parsed.data.attributes.address.toLowerCase(), hash: parsed.included[0]!.attributes.hash });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const head = await client.getBlockNumber();
  stack = await startProcessStack({
    name: 'kills',
    env: {
      INDEXER_START_BLOCK: String(head + 1n),
      // A killed member's partitions are read again after 6 s instead of 30 s.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CALLBACK_ALLOW_LIST: 'loopback',
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
    },
  });
  for (const name of ['gateway', ...grpcServiceNames] as const) stack.start(name);
  for (const name of ['gateway', ...grpcServiceNames] as const) await healthy(name);
  const { port } = receiver.address() as AddressInfo;
  const created = await api('/v1/tx-subscriptions/', {
    method: 'POST',
    body: JSON.stringify({ callback_url: `http://127.0.0.1:${port}/hooks`, addresses: recipients, chain_ids: ['ethereum'] }),
  });
  expect(created.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('a service killed with SIGKILL and started again', () => {
  beforeAll(async () => {
    let finish!: () => void;
    const kills = new Promise<void>((resolve) => (finish = resolve));
    const traffic = transferUntil(kills);
    for (const name of killed) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await stack.kill(name, 'SIGKILL');
      stack.start(name);
    }
    for (const name of killed) await healthy(name);
    finish();
    await traffic;
  }, 240_000);

  test('every wallet holds what the chain says', async () => {
    for (const address of recipients) {
      const balance = await client.getBalance({ address: address as `0x${string}` });
      await eventually(async () => {
        const { status, body } = await api<{ data: { attributes: { fungible_info: { symbol: string }; quantity: { int: string } } }[] }>(
          `/v1/wallets/${address}/positions/?filter[chain_ids]=ethereum`,
        );
        expect(status).toBe(200);
        expect(body.data.map((position) => position.attributes.quantity.int)).toEqual([balance.toString()]);
      }, 60_000);
    }
  }, 300_000);

  test('every wallet lists exactly the transactions the chain has for it', async () => {
    for (const address of recipients) {
      const hashes = sent.filter(({ to }) => to === address).map(({ hash }) => hash).sort();
      await eventually(async () => {
        const { status, body } = await api<{ data: { attributes: { hash: string } }[] }>(`/v1/wallets/${address}/transactions/?filter[chain_ids]=ethereum&page[size]=100`);
        expect(status).toBe(200);
        expect(body.data.map((transaction) => transaction.attributes.hash).sort()).toEqual(hashes);
      }, 60_000);
    }
  }, 300_000);

  test('the chart service stored a balance change for every transfer, rows the killed process had not stored included', async () => {
    // Stopped cleanly, the restarted process stores what it holds; the killed one stored nothing,
    // so its rows are there only if their offsets were left uncommitted and read again.
    await stack.kill('chart', 'SIGTERM');
    const rows = await stack.clickhouse.clickhouse.query<{ address: string; block_hash: string; transaction_index: number }>(
      sql`SELECT DISTINCT address, block_hash, transaction_index FROM chart_balance_changes WHERE address IN ${inList(recipients)}`,
    );
    const receipts = await Promise.all(sent.map(({ hash }) => client.getTransactionReceipt({ hash })));
    const expected = sent.map(({ to }, index) => `${to}:${receipts[index]!.blockHash}:${receipts[index]!.transactionIndex}`).sort();
    expect(rows.map((row) => `${row.address}:${row.block_hash}:${Number(row.transaction_index)}`).sort()).toEqual(expected);
    stack.start('chart');
  }, 60_000);

  test('every transfer reached its webhook at least once, and never under two delivery ids', async () => {
    await eventually(() => {
      const delivered = new Set(deliveries.map(({ address, hash }) => `${address}:${hash}`));
      expect(sent.filter(({ hash, to }) => !delivered.has(`${to}:${hash}`))).toEqual([]);
    }, 120_000);
    const idsOf = new Map<string, Set<string>>();
    for (const { id, address, hash } of deliveries) idsOf.set(`${address}:${hash}`, (idsOf.get(`${address}:${hash}`) ?? new Set()).add(id));
    expect([...idsOf].filter(([, ids]) => ids.size > 1)).toEqual([]);
  }, 180_000);
});
