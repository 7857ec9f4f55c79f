import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses configuration from environment variables with a zod schema, reporting every bad
 * variable at once so an operator fixes them in one pass instead of one restart per mistake.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
}

const port = z.coerce.number().int().min(0).max(65535);

/** Variables every service shares; services extend this with their own. */
export const baseEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRPC_HOST: z.string().default('127.0.0.1'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export const kafkaEnv = z.object({
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:19092')
    .transform((value) =>
      value
        .split(',')
        .map((broker) => broker.trim())
        .filter(Boolean),
    ),
  KAFKA_CLIENT_ID: z.string().optional(),
  // Topics `<topic>.<suffix>` and consumer groups `<group>.<suffix>` (see platformTopics, consumerGroup).
  KAFKA_TOPIC_SUFFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .optional(),
  // How soon a dead member's partitions are read again (its restarted process waits this long
  // too); the broker accepts 6 s to 300 s by default. kafkajs's default.
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(300_000).default(30_000),
});

export const clickHouseEnv = z.object({
  CLICKHOUSE_URL: z.url().default('http://127.0.0.1:18123'),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .default('wallet_api'),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
});

export const databaseEnv = z.object({
  DATABASE_URL: z.string().startsWith('postgresql://').default('postgresql://postgres@127.0.0.1:5432/wallet_api'),
});

export const redisEnv = z.object({
  REDIS_URL: z.string().startsWith('redis://').default('redis://127.0.0.1:6379'),
  // Starts the keys of the answers' change tokens, which the gateway and the services writing wallet data share.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _, . and - only')
    .default('wallet-api'),
});

/** Where each service listens for gRPC; the gateway dials the same addresses. */
export const serviceAddressEnv = z.object({
  REFERENCE_DATA_GRPC_PORT: port.default(50051),
  INDEXER_GRPC_PORT: port.default(50052),
  POSITIONS_GRPC_PORT: port.default(50053),
  PNL_GRPC_PORT: port.default(50054),
  CHART_GRPC_PORT: port.default(50055),
  NFT_GRPC_PORT: port.default(50056),
  SUBSCRIPTION_GRPC_PORT: port.default(50057),
  REFERENCE_DATA_GRPC_ADDRESS: z.string().default('127.0.0.1:50051'),
  INDEXER_GRPC_ADDRESS: z.string().default('127.0.0.1:50052'),
  POSITIONS_GRPC_ADDRESS: z.string().default('127.0.0.1:50053'),
  PNL_GRPC_ADDRESS: z.string().default('127.0.0.1:50054'),
  CHART_GRPC_ADDRESS: z.string().default('127.0.0.1:50055'),
  NFT_GRPC_ADDRESS: z.string().default('127.0.0.1:50056'),
  SUBSCRIPTION_GRPC_ADDRESS: z.string().default('127.0.0.1:50057'),
});

/** Where each process serves Prometheus metrics by default; the Helm chart uses the same ports. */
export const defaultMetricsPorts = {
  gateway: 9460,
  'reference-data': 9461,
  indexer: 9464,
  positions: 9465,
  subscription: 9466,
  pnl: 9467,
  chart: 9468,
  nft: 9469,
} as const;

export type ServiceName = keyof typeof defaultMetricsPorts;

/** `REFERENCE_DATA_METRICS_PORT` for `reference-data`. */
export function metricsPortVariable(name: ServiceName): string {
  return `${name.toUpperCase().replaceAll('-', '_')}_METRICS_PORT`;
}

/** The service's metrics port from `<NAME>_METRICS_PORT`, or its default; 0 picks a free port. */
export function metricsPort(name: ServiceName, env: NodeJS.ProcessEnv = process.env): number {
  const variable = metricsPortVariable(name);
  return parseEnv(z.object({ [variable]: port.default(defaultMetricsPorts[name]) }), env)[variable] as number;
}
