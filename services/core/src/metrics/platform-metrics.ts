import { Counter, Gauge, Histogram } from 'prom-client';
import { processRegistry } from './process-registry.js';

// Series every service records through the shared wrappers in this package, named so that one
// dashboard covers all services (the `service` label tells them apart).

/** Seconds, from a cached lookup (1 ms) to a slow ClickHouse scan or webhook batch (30 s). */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const registers = [processRegistry];

export const grpcServerDuration = new Histogram({
  name: 'wallet_api_grpc_server_duration_seconds',
  help: 'Unary gRPC calls served, from request to response, by method and gRPC status',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
  registers,
});

export const grpcClientDuration = new Histogram({
  name: 'wallet_api_grpc_client_duration_seconds',
  help: 'Unary gRPC calls made to other services, including the network, by method and gRPC status',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
  registers,
});

export const httpRequestDuration = new Histogram({
  name: 'wallet_api_http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: latencyBuckets,
  registers,
});

export const httpRequests = new Counter({
  name: 'wallet_api_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const kafkaConsumerLag = new Gauge({
  name: 'wallet_api_kafka_consumer_lag',
  help: "Messages between a partition's high watermark and the group's last handled offset, as of the group's latest fetch",
  labelNames: ['group', 'topic', 'partition'] as const,
  registers,
});

export const kafkaConsumedMessages = new Counter({
  name: 'wallet_api_kafka_consumer_messages_total',
  help: 'Messages handled by a consumer group',
  labelNames: ['group', 'topic'] as const,
  registers,
});

export const clickHouseQueryDuration = new Histogram({
  name: 'wallet_api_clickhouse_query_duration_seconds',
  help: 'ClickHouse round trips, by operation (query, command, insert) and outcome',
  labelNames: ['operation', 'outcome'] as const,
  buckets: latencyBuckets,
  registers,
});

export const postgresQueryDuration = new Histogram({
  name: 'wallet_api_postgres_query_duration_seconds',
  help: 'PostgreSQL statements run by Prisma, by the statement kind (select, insert, update, delete, begin, commit, ...)',
  labelNames: ['operation'] as const,
  buckets: latencyBuckets,
  registers,
});

const statementKinds = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'savepoint', 'release', 'set', 'deallocate']);

/** The kind of an SQL statement for a label: its first keyword, or `other` (labels must stay few). */
export function statementKind(statement: string): string {
  const keyword = /^\s*([A-Za-z]+)/.exec(statement)?.[1]?.toLowerCase();
  return keyword && statementKinds.has(keyword) ? keyword : 'other';
}

/** Seconds elapsed since `started` (a `process.hrtime.bigint()` reading). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
