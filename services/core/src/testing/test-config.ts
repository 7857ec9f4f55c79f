import { clickHouseEnv, databaseEnv, kafkaEnv, parseEnv, redisEnv } from '../config/index.js';

// The configuration tests run with: the environment of scripts/up.sh, with the `_test` databases.

const testEnv = clickHouseEnv.extend(kafkaEnv.shape).extend(redisEnv.shape).extend(databaseEnv.shape);

export function testConfig() {
  const env = parseEnv(testEnv, {
    ...process.env,
    CLICKHOUSE_DATABASE: process.env.TEST_CLICKHOUSE_DATABASE ?? 'wallet_api_test',
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api_test',
  });
  return env;
}
