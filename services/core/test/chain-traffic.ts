import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readManifest } from '@wallet-api/devnet/manifest';
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi, parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { inList, sql } from '../src/clickhouse/index.js';
import { eventually } from '../src/testing/index.js';
import type { ServiceName } from '../src/config/index.js';
import { grpcServiceNames, startProcessStack, type ProcessStack } from './process-stack.js';

// Live chain traffic for the fault suites, and the comparisons with the chain that follow a fault:
// transfers to fresh wallets a webhook subscription watches, then each wallet's balance and
// transaction list through the API, the chart service's stored balance changes, and the webhooks.

const ethereumRpc = 'http://127.0.0.1:18545';
// anvil's tenth development account: the devnet world funds its wallets from the first.
const sender = privateKeyToAccount('0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6');

export const chainClient = createPublicClient({ transport: http(ethereumRpc) });
const wallet = createWalletClient({ account: sender, transport: http(ethereumRpc) });
const pairSync = parseAbi(['function sync()']);
const anvil = createTestClient({ mode: 'anvil', transport: http(ethereumRpc) });

export interface ChainTraffic {
  recipients: `0x${string}`[];
  /** Each transfer sent so far: its hash and recipient. */
  sent: { hash: Hash; to: string }[];
  /** Each webhook received: its delivery id, wallet and transaction hash. */
  deliveries: { id: string; address: string; hash: string }[];
  /** Subscribes the recipients' transactions on ethereum to the local receiver (201 expected). */
  subscribe(stack: ProcessStack): Promise<void>;
  /** Transfers to the recipients in turn, each awaited into a block, until `until` resolves. */
  transferUntil(until: Promise<void>): Promise<void>;
  /** Stops the receiver and takes the chain back to where it was before the traffic. */
  close(): Promise<void>;
}

export async function api<T>(stack: ProcessStack, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: T }> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    ...init,
    headers: { authorization: stack.authorization, 'content-type': 'application/json', ...init.headers },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

export const allServices: readonly ServiceName[] = ['gateway', ...grpcServiceNames];

/** Waits until the service serves its metrics, and for the gateway until the API answers. */
export async function serving(stack: ProcessStack, name: ServiceName): Promise<void> {
  await eventually(() => stack.scrape(name), 60_000);
  if (name === 'gateway') await eventually(async () => expect((await api(stack, '/v1/chains/')).status).toBe(200), 60_000);
}

/** Every service started, indexing ethereum from the next block, each serving. */
export async function startServingStack(name: string): Promise<ProcessStack> {
  const head = await chainClient.getBlockNumber();
  const stack = await startProcessStack({
    name,
    env: {
      INDEXER_START_BLOCK: String(head + 1n),
      // A killed or cut-off member's partitions are read again after 6 s instead of 30 s.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CALLBACK_ALLOW_LIST: 'loopback',
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
    },
  });
  for (const service of allServices) stack.start(service);
  for (const service of allServices) await serving(stack, service);
  await priceEther(stack);
  return stack;
}

/**
 * A stack indexing from the head has seen no pool event, so nothing is priced: every Uniswap V2
 * pair of ethereum states its reserves again (`sync()`, callable by anyone), and ETH is priced
 * from them before the traffic starts, so the wallets' PnL and charts carry value.
 */
async function priceEther(stack: ProcessStack): Promise<void> {
  const manifest = await readManifest();
  const uniswap = manifest.chains.find((chain) => chain.id === 'ethereum')!.protocols.uniswap as { v2: { pairs: { address: Address }[] } };
  for (const pair of uniswap.v2.pairs) {
    const hash = await wallet.writeContract({ chain: null, address: pair.address, abi: pairSync, functionName: 'sync' });
    await chainClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }
  await eventually(async () => {
    const { body } = await api<{ data?: { attributes: { market_data: { price: unknown } } } }>(stack, '/v1/fungibles/eth');
    expect(body.data?.attributes.market_data.price).toEqual(expect.any(Number));
  }, 60_000);
}

export async function startChainTraffic(recipientCount = 4): Promise<ChainTraffic> {
  const deliveries: ChainTraffic['deliveries'] = [];
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { data: { id: string; attributes: { address: string } }; included: { attributes: { hash: string } }[] };
      deliveries.push({ id: parsed.data.id, address: parsed.data.attributes.address.toLowerCase(), hash: parsed.included[0]!.attributes.hash });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The suites after this one read the test world as it was loaded: its newest block stays the
  // world's last (a chart's last point, a wallet's history), so the transfers are undone at the end.
  const snapshot = await anvil.snapshot();
  const recipients = Array.from({ length: recipientCount }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`);
  const sent: ChainTraffic['sent'] = [];
  return {
    recipients,
    sent,
    deliveries,
    async subscribe(stack) {
      const { port } = receiver.address() as AddressInfo;
      const created = await api(stack, '/v1/tx-subscriptions/', {
        method: 'POST',
        body: JSON.stringify({ callback_url: `http://127.0.0.1:${port}/hooks`, addresses: recipients, chain_ids: ['ethereum'] }),
      });
      if (created.status !== 201) throw new Error(`subscribing answered ${created.status}: ${JSON.stringify(created.body)}`);
    },
    async transferUntil(until) {
      let done = false;
      void until.then(() => (done = true));
      for (let index = 0; !done; index++) {
        const to = recipients[index % recipients.length]!;
        const hash = await wallet.sendTransaction({ chain: null, to, value: parseEther('0.001') * BigInt(sent.length + 1) });
        await chainClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        sent.push({ hash, to });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async close() {
      await new Promise((resolve) => receiver.close(resolve));
      await anvil.revert({ id: snapshot });
    },
  };
}

/** Each recipient's ETH position through the API equals its balance on the chain. */
export async function expectBalancesAgree(stack: ProcessStack, traffic: ChainTraffic): Promise<void> {
  for (const address of traffic.recipients) {
    const balance = await chainClient.getBalance({ address });
    await eventually(async () => {
      const { status, body } = await api<{ data: { attributes: { quantity: { int: string } } }[] }>(
        stack,
        `/v1/wallets/${address}/positions/?filter[chain_ids]=ethereum`,
      );
      expect({ address, status, held: body.data?.map((position) => position.attributes.quantity.int) }).toEqual({
        address,
        status: 200,
        held: [balance.toString()],
      });
    }, 60_000);
  }
}

/** Each recipient's transaction list through the API holds exactly the transfers sent to it. */
export async function expectTransactionsAgree(stack: ProcessStack, traffic: ChainTraffic): Promise<void> {
  for (const address of traffic.recipients) {
    const hashes = traffic.sent
      .filter(({ to }) => to === address)
      .map(({ hash }) => hash)
      .sort();
    await eventually(async () => {
      const listed: string[] = [];
      const statuses = new Set<number>();
      // A long fault run sends a wallet more transfers than one page holds.
      let path: string | undefined = `/v1/wallets/${address}/transactions/?filter[chain_ids]=ethereum&page[size]=100`;
      while (path) {
        const { status, body }: { status: number; body: { data?: { attributes: { hash: string } }[]; links?: { next?: string } } } = await api(stack, path);
        statuses.add(status);
        listed.push(...(body.data ?? []).map((transaction) => transaction.attributes.hash));
        path = status === 200 && body.links?.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
      }
      expect({ address, statuses: [...statuses], hashes: listed.sort() }).toEqual({ address, statuses: [200], hashes });
    }, 60_000);
  }
}

/**
 * The chart service stored a balance change for every transfer. It keeps rows in memory for
 * minutes before one INSERT: it is stopped cleanly first (storing what it holds) and started again.
 */
export async function expectChartRowsAgree(stack: ProcessStack, traffic: ChainTraffic): Promise<void> {
  await stack.kill('chart', 'SIGTERM');
  const rows = await stack.clickhouse.clickhouse.query<{ address: string; block_hash: string; transaction_index: number }>(
    sql`SELECT DISTINCT address, block_hash, transaction_index FROM chart_balance_changes WHERE address IN ${inList(traffic.recipients)}`,
  );
  stack.start('chart');
  const receipts = await Promise.all(traffic.sent.map(({ hash }) => chainClient.getTransactionReceipt({ hash })));
  const expected = traffic.sent.map(({ to }, index) => `${to}:${receipts[index]!.blockHash}:${receipts[index]!.transactionIndex}`).sort();
  expect(rows.map((row) => `${row.address}:${row.block_hash}:${Number(row.transaction_index)}`).sort()).toEqual(expected);
}

/** Every transfer reached its webhook at least once, and none under two delivery ids. */
export async function expectWebhooksAgree(traffic: ChainTraffic): Promise<void> {
  await eventually(() => {
    const delivered = new Set(traffic.deliveries.map(({ address, hash }) => `${address}:${hash}`));
    expect(traffic.sent.filter(({ hash, to }) => !delivered.has(`${to}:${hash}`))).toEqual([]);
  }, 120_000);
  const idsOf = new Map<string, Set<string>>();
  for (const { id, address, hash } of traffic.deliveries) idsOf.set(`${address}:${hash}`, (idsOf.get(`${address}:${hash}`) ?? new Set()).add(id));
  expect([...idsOf].filter(([, ids]) => ids.size > 1)).toEqual([]);
}
