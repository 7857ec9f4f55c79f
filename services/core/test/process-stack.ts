import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsPortVariable, type ServiceName } from '../src/config/index.js';
import { ensureTopics, platformTopics, type TopicSpec } from '../src/kafka/index.js';
import {
  freePort,
  setupClickHouseDatabase,
  setupKafka,
  setupPostgresDatabase,
  uniqueName,
  type ClickHouseDatabase,
  type PostgresDatabase,
} from '../src/testing/index.js';
import { createOrganizationKey } from '../../gateway/src/auth/api-keys.js';
import { parseScrape, type Scrape } from './prometheus-text.js';

// The stack as it runs in production, one built process per service, on databases, topics,
// consumer groups and a Redis key space of its own: for suites that watch it as an operator does,
// kill its processes, or send it what a hostile client would.

const root = new URL('../../../', import.meta.url).pathname;

export const grpcServiceNames = ['reference-data', 'indexer', 'positions', 'pnl', 'chart', 'nft', 'subscription'] as const;
export type GrpcServiceName = (typeof grpcServiceNames)[number];

const variable = (name: string, suffix: string) => `${name.toUpperCase().replaceAll('-', '_')}_${suffix}`;

export interface ProcessStack {
  /** What every process was started with (ports, databases, topic suffix, webhook keys). */
  env: Record<string, string>;
  /** The Kafka topic and consumer-group suffix, also the database names. */
  suffix: string;
  postgres: PostgresDatabase;
  clickhouse: ClickHouseDatabase;
  /** `Basic ...` for a key of an organization with the roles asked for and no add-ons. */
  authorization: string;
  /** Where the gateway process listens (when it is started). */
  gatewayUrl: string;
  grpcAddress(name: GrpcServiceName): string;
  /** Starts the service's built entry point; `extra` adds to (or overrides) the stack's environment. */
  start(name: ServiceName, extra?: Record<string, string>): void;
  /** Signals the service and resolves once its process has exited. */
  kill(name: ServiceName, signal: NodeJS.Signals): Promise<void>;
  running(name: ServiceName): boolean;
  /** Where Prometheus would scrape the service. */
  metricsUrl(name: ServiceName): string;
  /** The service's metrics, failing with its stderr if it has exited. */
  scrape(name: ServiceName): Promise<Scrape>;
  /** Every line the service's processes wrote to stdout and stderr so far, over its restarts. */
  output(name: ServiceName): string[];
  /** Stops every process and drops the databases; each service's output is left in `.data/logs/<suffix>/`. */
  stop(): Promise<void>;
}

interface Running {
  child: ChildProcess;
  stderr: () => string;
}

/** SIGTERM, then SIGKILL if the process has not drained within 12 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 12_000)))]);
  clearTimeout(timer);
  child.kill('SIGKILL');
}

/** Collects a stream's lines into `lines`, the last unfinished one held until its newline. */
function collectLines(stream: NodeJS.ReadableStream, lines: string[]): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  stream.on('end', () => partial && lines.push(partial));
}

export async function startProcessStack(options: { name: string; env?: Record<string, string>; roles?: string[] }): Promise<ProcessStack> {
  const suffix = uniqueName(options.name);
  const postgres = await setupPostgresDatabase(suffix);
  const clickhouse = await setupClickHouseDatabase(suffix);
  await ensureTopics(setupKafka(options.name), Object.values(platformTopics(suffix)) as TopicSpec<unknown>[]);
  const { key } = await createOrganizationKey(postgres.prisma, { org: uniqueName(options.name), roles: options.roles ?? [], addons: [] });

  const keyFile = join(mkdtempSync(join(tmpdir(), 'stack-webhook-key-')), 'signing-key.pem');
  writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url,
    CLICKHOUSE_DATABASE: clickhouse.database,
    KAFKA_TOPIC_SUFFIX: suffix,
    REDIS_KEY_PREFIX: suffix,
    REGISTRY_PATHS: `${root}.data/devnet/registry.json`,
    INDEXER_CHAINS: 'ethereum',
    SUBSCRIPTION_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SIGNING_KEY_FILE: keyFile,
    ...options.env,
  };
  for (const name of grpcServiceNames) {
    const port = await freePort();
    env[variable(name, 'GRPC_PORT')] = String(port);
    env[variable(name, 'GRPC_ADDRESS')] = `127.0.0.1:${port}`;
  }
  const metricsPorts = new Map<ServiceName, number>();
  for (const name of ['gateway', ...grpcServiceNames] as const) {
    metricsPorts.set(name, await freePort());
    env[metricsPortVariable(name)] = String(metricsPorts.get(name));
  }
  const httpPort = await freePort();
  env.HTTP_PORT = String(httpPort);

  const children = new Map<ServiceName, Running>();
  const outputs = new Map<ServiceName, string[]>();
  const output = (name: ServiceName) => outputs.get(name) ?? outputs.set(name, []).get(name)!;

  const stack: ProcessStack = {
    env,
    suffix,
    postgres,
    clickhouse,
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    gatewayUrl: `http://127.0.0.1:${httpPort}`,
    grpcAddress: (name) => env[variable(name, 'GRPC_ADDRESS')]!,
    start(name, extra = {}) {
      if (stack.running(name)) throw new Error(`${name} is already running`);
      const entry = `${root}services/${name}/dist/main.js`;
      if (!existsSync(entry)) throw new Error(`${entry} is missing: run bash scripts/build.sh`);
      const child = spawn('node', [entry], { env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
      collectLines(child.stdout!, output(name));
      collectLines(child.stderr!, output(name));
      children.set(name, { child, stderr: () => stderr });
    },
    async kill(name, signal) {
      const running = children.get(name);
      if (!running || !stack.running(name)) return;
      const exited = new Promise((resolve) => running.child.once('exit', resolve));
      running.child.kill(signal);
      await exited;
    },
    running(name) {
      const child = children.get(name)?.child;
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    metricsUrl: (name) => `http://127.0.0.1:${metricsPorts.get(name)}/metrics`,
    async scrape(name) {
      const running = children.get(name);
      if (running && !stack.running(name)) throw new Error(`${name} exited with ${running.child.exitCode ?? running.child.signalCode}: ${running.stderr()}`);
      const response = await fetch(stack.metricsUrl(name));
      return parseScrape(await response.text());
    },
    output: (name) => [...output(name)],
    async stop() {
      await Promise.all([...children.values()].map(({ child }) => stopChild(child)));
      // What a failed suite's processes said, for whoever reads why.
      const logs = `${root}.data/logs/${suffix}`;
      mkdirSync(logs, { recursive: true });
      for (const [name, lines] of outputs) writeFileSync(`${logs}/${name}.log`, lines.join('\n'));
      await clickhouse.drop();
      await postgres.drop();
    },
  };
  return stack;
}
