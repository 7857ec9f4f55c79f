import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { SubscriptionClient } from '@wallet-api/core/proto/subscription';
import { freePort, setupPostgresDatabase, testConfig, uniqueName, type PostgresDatabase } from '@wallet-api/core/testing';
import { startPipeline, type Pipeline } from '../../indexer/test/setup-pipeline.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';

const mainFile = new URL('../src/main.ts', import.meta.url).pathname;
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  receivedAt: number;
  /** What the receiver answered. */
  status: number;
}

/** How the receiver answers the next request: a status (and headers), after an optional delay. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

/** A webhook receiver on loopback that records every request and answers as told. */
export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers requests with this until changed (default 200). */
  answerWith(answer: Answer | ((request: ReceivedWebhook) => Answer)): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let answer: Answer | ((request: ReceivedWebhook) => Answer) = { status: 200 };
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const webhook: ReceivedWebhook = { headers: request.headers, body, json: JSON.parse(body), receivedAt: Date.now(), status: 0 };
      const chosen = typeof answer === 'function' ? answer(webhook) : answer;
      webhook.status = chosen.status;
      // Only answered requests count as received: a hung or dropped one never reached the receiver's code.
      setTimeout(() => {
        if (response.destroyed) return;
        received.push(webhook);
        response.writeHead(chosen.status, chosen.headers ?? {}).end();
      }, chosen.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    answerWith(next) {
      answer = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An RSA key and its self-signed certificate, as an operator would configure them. */
async function webhookKeys(dir: string): Promise<{ keyFile: string; certificate: string }> {
  const keyFile = join(dir, 'signing-key.pem');
  const certificateFile = join(dir, 'certificate.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certificateFile, '-days', '2', '-subj', '/CN=wallet-api webhooks test'],
    { stdio: 'ignore' },
  );
  return { keyFile, certificate: await readFile(certificateFile, 'utf8') };
}

/** The subscription service as a process of its own over a PostgreSQL database of its own, on a pipeline's topics. */
export interface SubscriptionProcess {
  database: PostgresDatabase;
  /** The subscription service's gRPC client (a process of its own, restarted by `restart`). */
  subscriptions: SubscriptionClient;
  certificate: string;
  certificateUrl: string;
  /** Kills the subscription service with SIGKILL. */
  kill(): void;
  /** Starts the subscription service again (after `kill`), and waits until it answers. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface WebhookWorld extends SubscriptionProcess {
  pipeline: Pipeline;
  chain: OwnChain;
}

/**
 * The real path from a chain to a webhook: an anvil of the suite's own started from the devnet
 * world (chain id 1, indexed as `ethereum` from its head on), the in-process indexer and
 * reference-data publishing on Kafka topics of their own, and the subscription service as a process of
 * its own over a PostgreSQL database of its own, with a short retry schedule.
 */
export async function startWebhookWorld(): Promise<WebhookWorld> {
  // Webhooks need the indexer's topics and reference-data, not the history in ClickHouse; and the
  // Kafka restart test must not leave in-process consumers behind.
  const pipeline = await startPipeline({ consumers: false });
  const chain = await startOwnChain({ chainId: 1, loadState: worldState });
  const head = await chain.session.client.getBlockNumber();
  // Checkpoints of an earlier run name blocks of a chain that is gone.
  await pipeline.resetCheckpoints(['ethereum']);
  pipeline.index({ chainId: 'ethereum', rpcUrl: chain.rpcUrl, startBlock: head + 1n, finalityDepth: 5 });
  const service = await startSubscriptionProcess(pipeline);
  return {
    ...service,
    pipeline,
    chain,
    async close() {
      await service.close();
      await pipeline.close();
      await chain.stop();
    },
  };
}

/** The subscription service reading `pipeline`'s topics and reference-data, with a short retry schedule and both signature schemes. */
export async function startSubscriptionProcess(pipeline: Pipeline): Promise<SubscriptionProcess> {
  const database = await setupPostgresDatabase(uniqueName('webhooks'));
  const keysDir = await mkdtemp(join(tmpdir(), 'webhook-keys-'));
  const { keyFile, certificate } = await webhookKeys(keysDir);
  const port = await freePort();
  const certificateUrl = 'http://127.0.0.1:8080/v1/webhooks/certificate.pem';
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testConfig().KAFKA_BROKERS.join(','),
    REFERENCE_DATA_GRPC_ADDRESS: pipeline.referenceDataAddress,
    SUBSCRIPTION_GRPC_PORT: String(port),
    SUBSCRIPTION_SECRET_KEY: randomBytes(32).toString('base64'),
    CALLBACK_ALLOW_LIST: 'loopback',
    WEBHOOK_SIGNING_KEY_FILE: keyFile,
    WEBHOOK_CERTIFICATE_URL: certificateUrl,
    PUBLIC_URL: 'http://api.test',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_LEASE_MS: '3000',
    WEBHOOK_RETRY_SCHEDULE: '0,200ms,500ms,1s,1s,2s,2s,2s',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    SUBSCRIPTION_METRICS_PORT: '0',
    SUBSCRIPTION_MATCHER_GROUP: uniqueName('matcher'),
    KAFKA_TOPIC_SUFFIX: pipeline.suffix,
    SHUTDOWN_TIMEOUT_MS: '5000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  let child: ChildProcess | undefined;
  const subscriptions = createGrpcClient(SubscriptionClient, `127.0.0.1:${port}`);

  async function start(): Promise<void> {
    child = spawn(process.execPath, ['--import', 'tsx', mainFile], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await new Promise<boolean>((resolve) => {
        subscriptions.waitForReady(Date.now() + 500, (error) => resolve(!error));
      });
      if (ready) return;
      if (child.exitCode !== null) throw new Error(`the subscription service exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('the subscription service did not start within 60 s');
    }
  }
  await start();

  return {
    database,
    subscriptions,
    certificate,
    certificateUrl,
    kill() {
      child?.kill('SIGKILL');
    },
    async restart() {
      if (child && child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child!.once('exit', resolve));
      await start();
    },
    async close() {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      subscriptions.close();
      await database.drop();
      await rm(keysDir, { recursive: true, force: true });
    },
  };
}
