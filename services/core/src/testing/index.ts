// Setup helpers for tests that talk to the real infrastructure started by scripts/up.sh.
// Tests use the `_test` databases so they never touch what the start command serves.
import { randomUUID } from 'node:crypto';
import { connectChangeVersions } from '../cache/index.js';
import { createClickHouse, type ClickHouse } from '../clickhouse/index.js';
import { createKafka } from '../kafka/index.js';
import { createLogger, type Logger } from '../logger/index.js';
import { testConfig } from './test-config.js';

export { checkHealth } from './health-check.js';
export { consumerGroupCaughtUp } from './consumer-caught-up.js';
export { eventually } from './eventually.js';
export { freePort } from './free-port.js';
export { jsonServiceDefinition } from './json-service.js';
export { migrationStatements, setupClickHouseDatabase, type ClickHouseDatabase } from './clickhouse-database.js';
export { setupPostgresDatabase, type PostgresDatabase } from './postgres-database.js';
export { testConfig } from './test-config.js';

export const testLogger: Logger = createLogger('test', process.env.LOG_LEVEL ?? 'warn');

export function setupClickHouse(): ClickHouse {
  const config = testConfig();
  return createClickHouse({
    url: config.CLICKHOUSE_URL,
    database: config.CLICKHOUSE_DATABASE,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
  });
}

export function setupKafka(clientId = 'test') {
  // A test closes its consumers many times over: each stop waits for the fetch in flight, 5 s by default.
  return createKafka({ brokers: testConfig().KAFKA_BROKERS, clientId, logger: testLogger, consumerMaxWaitMs: 250 });
}

/** A name no earlier run used, for topics, consumer groups and tables. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/**
 * Change tokens in a key space of the test's own, so that other suites' writers sharing the
 * Redis of scripts/up.sh never change what this test reads. `keyPrefix` is for the gateway under
 * test, and for what else a test keeps in that Redis (`redis`).
 */
export function setupChangeVersions(): ReturnType<typeof connectChangeVersions> & { keyPrefix: string } {
  const keyPrefix = uniqueName('test');
  const connection = connectChangeVersions(testConfig().REDIS_URL, { keyPrefix, onError: () => undefined });
  return { ...connection, keyPrefix };
}
