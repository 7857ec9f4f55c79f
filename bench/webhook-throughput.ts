// Benchmark: webhook deliveries per second to a fast receiver. Needs PostgreSQL only (bash
// scripts/up.sh); everything is written to a throwaway database with the migrations applied, which
// is dropped at the end. A subscription is created through the store with its callback on a
// loopback receiver (a process of its own, answering 204 at once over keep-alive), N deliveries of
// a realistic ~3 KB webhook body are recorded through the outbox as the matcher records them, then
// the service's dispatcher posts them all: outbox claims and attempt records in PostgreSQL, the
// real poster behind the loopback allow-list, both signatures (Standard Webhooks HMAC with the
// sealed secret, RSA-SHA256 with a key generated here). In the same run a bare undici loop sends
// the same body to the same receiver with the same posts in flight (no outbox, no signing): the
// ratio is what the outbox and signing cost.
//   pnpm bench:webhook-throughput [--deliveries 20000] [--concurrency 64] [--connections 8]
import { fork } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@wallet-api/core/logger';
import { createCallbackUrlGuard, parseAllowList } from '@wallet-api/core/outbound';
import type { TransactionResource } from '@wallet-api/core/resources';
import { setupPostgresDatabase, uniqueName } from '@wallet-api/core/testing';
// The poster's own undici (the same version and Agent settings), which the root package does not list.
import { Agent, request } from '../services/subscription/node_modules/undici/index.js';
import { newDeliveryId } from '../services/subscription/src/match/delivery-id.js';
import { defaultRetrySchedule } from '../services/subscription/src/deliver/retry-schedule.js';
import { createWebhookPoster, type WebhookPoster } from '../services/subscription/src/deliver/webhook-poster.js';
import {
  generateSigningSecret,
  loadRsaSigningKey,
  rsaSignatureHeaders,
  standardWebhookHeaders,
} from '../services/subscription/src/deliver/webhook-signature.js';
import { startDispatcher } from '../services/subscription/src/dispatch/dispatcher.js';
import { webhookBody } from '../services/subscription/src/render/webhook-body.js';
import { createSecretBox } from '../services/subscription/src/secrets/secret-box.js';
import { createOutboxStore, type NewDelivery } from '../services/subscription/src/store/outbox-store.js';
import { createSubscriptionStore } from '../services/subscription/src/store/subscription-store.js';
import { newSubscriptionId } from '../services/subscription/src/subscriptions/subscription-id.js';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '20000' },
    // The service's defaults: WEBHOOK_CONCURRENCY and WEBHOOK_MAX_CONNECTIONS_PER_HOST.
    concurrency: { type: 'string', default: '64' },
    connections: { type: 'string', default: '8' },
  },
});
const deliveryCount = Number(values.deliveries);
const concurrency = Number(values.concurrency);
const connections = Number(values.connections);
const root = new URL('..', import.meta.url).pathname;
const logger = createLogger('bench-webhook-throughput', 'warn');

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The commonest webhook: a USDC send as the renderer writes it, with the fee in ETH and both fungibles. */
function sendResource(wallet: string, hash: string, block: number): TransactionResource {
  const fungible = (name: string, symbol: string, decimals: number, address: string | null, price: number) => ({
    name,
    symbol,
    icon: { url: `https://cdn.example.com/fungibles/${symbol.toLowerCase()}.png` },
    flags: { verified: true },
    implementations: [
      { chain_id: 'ethereum', decimals, address },
      { chain_id: 'base', decimals, address: address === null ? null : '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
    ],
    id: address ?? 'eth',
    description: `${name} (${symbol}).`,
    market_data: {
      price,
      total_supply: 1_000_000_000,
      circulating_supply: 950_000_000,
      fully_diluted_valuation: price * 1_000_000_000,
      market_cap: price * 950_000_000,
      changes: { percent_1d: 0.42, percent_30d: -3.1, percent_90d: 7.8, percent_365d: 21.5 },
      trading_volumes: { volume_1d: 123_456_789 },
    },
  });
  const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
  const recipient = '0x28c6c06298d514db089934071355e5743bf21d60';
  const quantity = (int: string, decimals: number) => ({
    int,
    decimals,
    float: Number(int) / 10 ** decimals,
    numeric: (Number(int) / 10 ** decimals).toString(),
  });
  return {
    type: 'transactions',
    id: `ethereum:${block}:17`,
    attributes: {
      operation_type: 'send',
      hash,
      mined_at_block: block,
      mined_at: '2026-11-24T10:00:00Z',
      sent_from: wallet,
      sent_to: usdc,
      status: 'confirmed',
      nonce: 412,
      fee: { fungible_info: fungible('Ether', 'ETH', 18, null, 3120.55), quantity: quantity('1843220000000000', 18), price: 3120.55, value: 5.75 },
      transfers: [
        {
          direction: 'out',
          quantity: quantity('2500000000', 6),
          value: 2500,
          price: 1,
          sender: wallet,
          recipient,
          act_id: 'act_0',
          fungible_info: fungible('USD Coin', 'USDC', 6, usdc, 1),
          nft_info: null,
        },
      ],
      approvals: [],
      address: wallet,
      collection_approvals: [],
      delegations: [],
      application_metadata: {
        contract_address: usdc,
        name: 'USD Coin',
        icon: { url: 'https://cdn.example.com/fungibles/usdc.png' },
        method: { id: '0xa9059cbb', name: 'transfer' },
      },
      flags: { is_trash: false },
      acts: [{ id: 'act_0', type: 'send', sent_from: wallet }],
      paymaster: null,
    },
    relationships: {
      chain: { links: { related: 'https://api.example.com/v1/chains/ethereum' }, data: { type: 'chains', id: 'ethereum' } },
    },
  };
}

/** Starts the receiver process and answers its port and a way to read its count and stop it. */
async function startReceiver() {
  const child = fork(join(root, 'bench/webhook-receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (message) => resolve(message as { port: number })));
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    answered: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message) => resolve((message as { answered: number }).answered));
        child.send('count');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/** The floor: `connections` workers posting the body back to back over an Agent like the poster's. */
async function bareLoop(url: string, body: string, count: number): Promise<{ seconds: number; latencies: number[] }> {
  const agent = new Agent({ connections });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  async function worker(): Promise<void> {
    while (next < count) {
      next += 1;
      const sent = performance.now();
      const response = await request(url, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'wallet-api-webhooks/1' },
        body,
      });
      await response.body.dump();
      if (response.statusCode !== 204) throw new Error(`the receiver answered ${response.statusCode}`);
      latencies.push(performance.now() - sent);
    }
  }
  // The dispatcher keeps `concurrency` deliveries in flight, of which the poster lets `connections`
  // post to one host at once: so many workers, each on a socket of its own.
  await Promise.all(Array.from({ length: Math.min(concurrency, connections) }, worker));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { seconds, latencies };
}

const receiver = await startReceiver();
const database = await setupPostgresDatabase(uniqueName('bench_webhooks'));
const prisma = database.prisma;
let poster: WebhookPoster | undefined;
try {
  const secrets = createSecretBox(randomBytes(32).toString('base64'));
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const rsa = { privateKey: loadRsaSigningKey(privateKey), certificateUrl: 'http://127.0.0.1:8080/v1/webhooks/certificate.pem' };
  const wallet = hex(20);
  const subscription = await createSubscriptionStore(prisma).create({
    id: newSubscriptionId(),
    organizationId: randomUUID(),
    network: 'mainnet',
    addons: [],
    callbackUrl: receiver.url,
    chainIds: ['ethereum'],
    filters: null,
    addresses: [wallet],
    secretCiphertext: secrets.seal(generateSigningSecret()),
  });

  // Recorded as the matcher records them: one outbox transaction per consumed batch.
  const outbox = createOutboxStore(prisma);
  const position = { groupId: 'bench', topic: 'wallet-transactions', partition: 0 };
  const batchSize = 1_000;
  const recordStarted = performance.now();
  let sampleBody = '';
  for (let start = 0; start < deliveryCount; start += batchSize) {
    const batch: NewDelivery[] = [];
    for (let offset = start; offset < Math.min(deliveryCount, start + batchSize); offset++) {
      const id = newDeliveryId();
      const hash = hex(32);
      const block = 21_000_000 + Math.floor(offset / 100);
      const body = webhookBody({
        deliveryId: id,
        subscriptionId: subscription.id,
        callbackUrl: subscription.callbackUrl,
        address: wallet,
        timestamp: new Date(),
        transaction: sendResource(wallet, hash, block),
        deleted: false,
      });
      sampleBody ||= body;
      batch.push({
        id,
        subscriptionId: subscription.id,
        address: wallet,
        chainId: 'ethereum',
        transactionHash: hash,
        blockHash: hex(32),
        blockNumber: BigInt(block),
        body,
        sourceOffset: BigInt(offset),
      });
    }
    await outbox.recordMatches(position, BigInt(start + batch.length), batch);
  }
  const recordSeconds = (performance.now() - recordStarted) / 1000;

  // Warm-up of the receiver and the bare client, so neither run pays for JIT compilation alone.
  await bareLoop(receiver.url, sampleBody, Math.min(2_000, deliveryCount));
  const receivedBefore = await receiver.answered();

  // The dispatcher as the service wires it, with the service's defaults.
  poster = createWebhookPoster({ timeoutMs: 15_000, maxConnectionsPerHost: connections, guard: createCallbackUrlGuard({ allow: parseAllowList('loopback') }) });
  const attemptLatencies: number[] = [];
  const outcomes = new Map<string, number>();
  let lastAttemptAt = performance.now();
  const dispatchStarted = performance.now();
  const dispatcher = startDispatcher({
    outbox,
    poster,
    secrets,
    rsa,
    retrySchedule: defaultRetrySchedule,
    leaseMs: 60_000,
    concurrency,
    pollIntervalMs: 250,
    logger,
    onAttempt({ outcome, latencyMs }) {
      attemptLatencies.push(latencyMs);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      lastAttemptAt = performance.now();
    },
  });
  while (attemptLatencies.length < deliveryCount) {
    if (performance.now() - lastAttemptAt > 30_000) throw new Error(`no attempt recorded for 30 s after ${attemptLatencies.length} of ${deliveryCount}`);
    await sleep(5);
  }
  const dispatchSeconds = (performance.now() - dispatchStarted) / 1000;
  await dispatcher.stop();
  const dispatched = (await receiver.answered()) - receivedBefore;
  const statuses = await prisma.$queryRaw<{ status: string; count: bigint }[]>`SELECT status, count(*) AS count FROM webhook_deliveries GROUP BY status`;

  const bare = await bareLoop(receiver.url, sampleBody, deliveryCount);
  const bareReceived = (await receiver.answered()) - receivedBefore - dispatched;

  // What signing alone costs one core, per delivery: both schemes as the dispatcher makes them.
  const signingRounds = 2_000;
  const sealed = secrets.seal(generateSigningSecret());
  const signStarted = performance.now();
  for (let round = 0; round < signingRounds; round++) {
    const sentAt = new Date();
    standardWebhookHeaders({ id: 'msg_bench', timestampSeconds: Math.floor(sentAt.getTime() / 1000), body: sampleBody, secrets: [secrets.open(sealed)] });
    rsaSignatureHeaders({ timestamp: sentAt, body: sampleBody, privateKey: rsa.privateKey, certificateUrl: rsa.certificateUrl });
  }
  const signSeconds = (performance.now() - signStarted) / 1000;

  attemptLatencies.sort((a, b) => a - b);
  const bareLatencies = [...bare.latencies].sort((a, b) => a - b);
  console.log(
    `\n${deliveryCount} webhooks of ${Buffer.byteLength(sampleBody)} bytes to a loopback receiver answering 204 ` +
      `(${concurrency} deliveries in flight, ${connections} connections to the host)`,
  );
  console.log(
    `recorded through the outbox in ${recordSeconds.toFixed(2)} s (${Math.round(deliveryCount / recordSeconds)} deliveries/s, ${batchSize} a transaction)`,
  );
  console.table([
    {
      target: 'dispatcher (outbox + signing + poster)',
      seconds: Number(dispatchSeconds.toFixed(2)),
      'deliveries/s': Math.round(deliveryCount / dispatchSeconds),
      'p50 ms': percentile(attemptLatencies, 50),
      'p99 ms': percentile(attemptLatencies, 99),
      received: dispatched,
    },
    {
      target: 'bare undici loop (same body, no outbox, no signing)',
      seconds: Number(bare.seconds.toFixed(2)),
      'deliveries/s': Math.round(deliveryCount / bare.seconds),
      'p50 ms': Number(percentile(bareLatencies, 50).toFixed(2)),
      'p99 ms': Number(percentile(bareLatencies, 99).toFixed(2)),
      received: bareReceived,
    },
  ]);
  console.log(`dispatcher / bare throughput ratio: ${(bare.seconds / dispatchSeconds).toFixed(3)}`);
  console.log(
    `attempt outcomes: ${[...outcomes].map(([outcome, count]) => `${outcome} ${count}`).join(', ')}; outbox rows: ${statuses.map((row) => `${row.status} ${row.count}`).join(', ')}`,
  );
  console.log(`signing alone (HMAC + RSA-2048, one core): ${Math.round(signingRounds / signSeconds)} deliveries/s`);
  console.log('latency: the dispatcher row is the attempt latency it records (whole ms, from guard check to reply read); the bare row is per request');
} finally {
  await poster?.close();
  await database.drop();
  await receiver.stop();
}
