// Benchmark: webhook latency, from a block being mined to its transaction's webhook arriving at a
// loopback receiver, with many subscribed wallets and the devnet's live activity going on.
// Creates subscriptions through the API (by default 100 of 100 wallets each: 10,000 wallets, most
// of them random, a few the benchmark's own senders), then sends transfers from those senders on
// the ethereum devnet chain; per sample it notes when the transaction's receipt first appears (its
// block is mined) and when the receiver gets the webhook for it. Prints p50 and p99, checks each
// webhook's Standard Webhooks signature, and deletes its subscriptions at the end.
// Needs the running stack of `bash scripts/start.sh` with loopback callbacks allowed
// (CALLBACK_ALLOW_LIST=loopback for the subscription service).
//   pnpm bench:webhook-latency [--subscriptions 100] [--wallets-per-subscription 100] [--samples 100]
//                              [--senders 4] [--url http://127.0.0.1:8080] [--rpc http://127.0.0.1:18545]
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPublicClient, http, parseEther, type Address, type Hash } from 'viem';
import { standardWebhookHeaders } from '../services/subscription/src/deliver/webhook-signature.js';

const { values } = parseArgs({
  options: {
    subscriptions: { type: 'string', default: '100' },
    'wallets-per-subscription': { type: 'string', default: '100' },
    samples: { type: 'string', default: '100' },
    senders: { type: 'string', default: '4' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    rpc: { type: 'string', default: 'http://127.0.0.1:18545' },
    'key-file': { type: 'string' },
  },
});
const subscriptionCount = Number(values.subscriptions);
const walletsPerSubscription = Number(values['wallets-per-subscription']);
const sampleCount = Number(values.samples);
const senderCount = Math.max(1, Math.min(Number(values.senders), subscriptionCount));
const root = new URL('..', import.meta.url).pathname;
const keyFile = values['key-file'] ?? join(root, '.data/demo-api-key');
const pollMs = 10;
const webhookTimeoutMs = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function stackMissing(reason: string): never {
  console.error(`webhook latency needs the running stack of \`bash scripts/start.sh\` (${reason}).`);
  process.exit(1);
}

// The stack: the demo key, the gateway answering with it, and the ethereum devnet chain.
if (!existsSync(keyFile)) stackMissing(`no API key at ${keyFile}`);
const key = readFileSync(keyFile, 'utf8').trim();
const authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const chainsStatus = await fetch(`${values.url}/v1/chains/`, { headers: { authorization } }).then(
  (response) => response.status,
  () => undefined,
);
if (chainsStatus === undefined) stackMissing(`the gateway does not answer on ${values.url}`);
if (chainsStatus !== 200) stackMissing(`GET ${values.url}/v1/chains/ answered ${chainsStatus} with the key in ${keyFile}`);
const client = createPublicClient({ transport: http(values.rpc, { retryCount: 0 }), cacheTime: 0 });
if ((await client.getChainId().catch(() => undefined)) === undefined) stackMissing(`the ethereum devnet chain does not answer on ${values.rpc}`);

async function rpc(method: string, params: unknown[]): Promise<any> {
  return client.request({ method: method as never, params: params as never });
}

/** One API call; 429 answers (the demo key's rate limit) are waited out and sent again. */
async function api(method: string, path: string, body?: unknown): Promise<any> {
  for (;;) {
    const response = await fetch(`${values.url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 429) {
      await sleep(Math.max(100, Number(response.headers.get('retry-after') ?? '1') * 1000));
      continue;
    }
    const text = await response.text();
    if (!response.ok) {
      const hint = text.includes('callback_url') ? ' (the subscription service must allow loopback callbacks: CALLBACK_ALLOW_LIST=loopback)' : '';
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}${hint}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}

// The receiver: answers 204 at once and notes when each transaction's first webhook arrived.
interface Arrival {
  at: number;
  signed: boolean;
}
const arrivals = new Map<string, Arrival>();
const waiting = new Map<string, (arrival: Arrival) => void>();
const secrets = new Map<string, string>();
let webhooksReceived = 0;

function signatureValid(headers: IncomingHttpHeaders, body: string, subscriptionId: string): boolean {
  const secret = secrets.get(subscriptionId);
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const given = String(headers['webhook-signature'] ?? '').split(' ');
  if (secret === undefined || typeof id !== 'string' || !Number.isSafeInteger(timestamp)) return false;
  return given.includes(standardWebhookHeaders({ id, timestampSeconds: timestamp, body, secrets: [secret] })['webhook-signature']!);
}

const server = createServer((request, response) => {
  const at = performance.now();
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.writeHead(204).end();
    webhooksReceived += 1;
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const json = JSON.parse(body) as { data: { relationships: { subscription: { data: { id: string } } } }; included: { attributes: { hash: string } }[] };
      const hash = json.included[0]!.attributes.hash.toLowerCase();
      if (arrivals.has(hash)) return;
      const arrival = { at, signed: signatureValid(request.headers, body, json.data.relationships.subscription.data.id) };
      arrivals.set(hash, arrival);
      waiting.get(hash)?.(arrival);
    } catch {
      // Not a webhook of this benchmark's shape: counted, otherwise ignored.
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const callbackUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

function webhookFor(hash: Hash): Promise<Arrival> {
  const known = arrivals.get(hash.toLowerCase());
  if (known) return Promise.resolve(known);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(hash.toLowerCase());
      reject(new Error(`no webhook for ${hash} within ${webhookTimeoutMs / 1000} s (is the subscription service running and indexing ethereum?)`));
    }, webhookTimeoutMs);
    waiting.set(hash.toLowerCase(), (arrival) => {
      clearTimeout(timer);
      waiting.delete(hash.toLowerCase());
      resolve(arrival);
    });
  });
}

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
// Senders of the benchmark's own, so the devnet's live activity never races them for a nonce.
const senders = Array.from({ length: senderCount }, (_, at) => `0x00000000000000000000000000000000be11c5${at.toString(16).padStart(2, '0')}` as Address);
const created: string[] = [];

let cleaned = false;
async function cleanUp(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const id of created)
    await api('DELETE', `/v1/tx-subscriptions/${id}`).catch((error: unknown) => console.error(`could not delete ${id}: ${String(error)}`));
  for (const sender of senders) await rpc('anvil_stopImpersonatingAccount', [sender]).catch(() => undefined);
  server.closeAllConnections();
  server.close();
}
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

try {
  // Subscriptions: the senders spread over a few of them, random wallets everywhere else.
  const setupStarted = performance.now();
  const spread = Math.max(1, Math.floor(subscriptionCount / Math.max(1, senderCount)));
  for (let at = 0; at < subscriptionCount; at++) {
    const wallets = Array.from({ length: walletsPerSubscription }, randomAddress);
    if (at % spread === 0 && at / spread < senderCount) wallets[0] = senders[at / spread]!.toLowerCase();
    const response = await api('POST', '/v1/tx-subscriptions/', { callback_url: callbackUrl, addresses: wallets.slice(0, 100), chain_ids: ['ethereum'] });
    const id = response.data.id as string;
    created.push(id);
    secrets.set(id, response.meta.signing_secret as string);
    for (let start = 100; start < wallets.length; start += 100)
      await api('PATCH', `/v1/tx-subscriptions/${id}/wallets`, { add: wallets.slice(start, start + 100) });
  }
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  console.log(
    `${subscriptionCount} subscriptions of ${walletsPerSubscription} wallets created in ${setupSeconds.toFixed(1)} s (${senderCount} of them hold a sender)`,
  );

  for (const sender of senders) {
    await rpc('anvil_setBalance', [sender, `0x${parseEther('1000').toString(16)}`]);
    await rpc('anvil_impersonateAccount', [sender]);
  }
  const nonces = await Promise.all(senders.map((sender) => client.getTransactionCount({ address: sender, blockTag: 'pending' })));

  /** Sends one transfer from the sender and answers when its block appeared and when its webhook arrived. */
  async function sample(senderAt: number): Promise<{ latencyMs: number; signed: boolean }> {
    const nonce = nonces[senderAt]!++;
    const hash: Hash = await rpc('eth_sendTransaction', [
      { from: senders[senderAt], to: randomAddress(), value: '0x1', gas: '0x5208', nonce: `0x${nonce.toString(16)}` },
    ]);
    const webhook = webhookFor(hash);
    // Awaited below; a transaction that is never mined must not leave its rejection unhandled.
    webhook.catch(() => undefined);
    const deadline = Date.now() + 60_000;
    let minedAt: number | undefined;
    while (minedAt === undefined) {
      if (await client.getTransactionReceipt({ hash }).catch(() => undefined)) minedAt = performance.now();
      else if (Date.now() > deadline) throw new Error(`${hash} was not mined within 60 s`);
      else await sleep(pollMs);
    }
    const arrival = await webhook;
    return { latencyMs: arrival.at - minedAt, signed: arrival.signed };
  }

  // Warm-up: one transfer per sender, so the subscription index holds the new wallets and the
  // connections are open before anything is measured.
  await Promise.all(senders.map((_, at) => sample(at)));

  const results: { latencyMs: number; signed: boolean }[] = [];
  let next = 0;
  const measureStarted = performance.now();
  await Promise.all(
    senders.map(async (_, at) => {
      while (next < sampleCount) {
        next += 1;
        results.push(await sample(at));
      }
    }),
  );
  const measureSeconds = (performance.now() - measureStarted) / 1000;

  const latencies = results.map((result) => result.latencyMs).sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))]!;
  console.log(
    `\nwebhook latency, block mined (receipt first seen, polled every ${pollMs} ms) -> webhook received on loopback ` +
      `(${results.length} samples from ${senderCount} senders in ${measureSeconds.toFixed(0)} s; ${subscriptionCount * walletsPerSubscription} subscribed wallets)`,
  );
  console.table([
    {
      samples: results.length,
      'p50 ms': Math.round(percentile(50)),
      'p99 ms': Math.round(percentile(99)),
      'min ms': Math.round(latencies[0]!),
      'max ms': Math.round(latencies.at(-1)!),
      'signatures valid': results.filter((result) => result.signed).length,
      'webhooks received': webhooksReceived,
    },
  ]);
} finally {
  await cleanUp();
}
