import { createPublicClient, http } from 'viem';
import type { ServiceName } from '../src/config/index.js';
import { platformTopics } from '../src/kafka/index.js';
import { eventually } from '../src/testing/index.js';
import { grpcServiceNames, startProcessStack, type ProcessStack } from './process-stack.js';
import { seriesSum, type Scrape } from './prometheus-text.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

// The whole stack as it runs in production, one built process per service, on databases, topics
// and consumer groups of its own, sending traces to a local OTLP receiver: what an operator's
// Prometheus and trace backend would see.
const ethereumRpc = 'http://127.0.0.1:18545';
const services: readonly ServiceName[] = ['gateway', ...grpcServiceNames];
const blocksIndexed = 12n;

let stack: ProcessStack;
let receiver: OtlpReceiver;
let suffix: string;

const scrape = (name: ServiceName) => stack.scrape(name);
const scrapeAll = async (names: readonly ServiceName[]) => new Map(await Promise.all(names.map(async (name) => [name, await scrape(name)] as const)));

async function get(path: string): Promise<number> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, { headers: { authorization: stack.authorization } });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startProcessStack({
    name: 'stack',
    env: {
      // Rows reach ClickHouse within the test's window instead of once a minute, so its INSERTs show.
      INDEXER_STORE_INTERVAL_MS: '1000',
      PRICES_STORE_INTERVAL_MS: '1000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Spans leave every 200 ms instead of every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  suffix = stack.suffix;
  // The indexer starts in the test, so the first scrape sees the stack before any chain traffic.
  for (const name of services) if (name !== 'indexer') stack.start(name);
  await Promise.all(services.filter((name) => name !== 'indexer').map((name) => eventually(() => scrape(name), 30_000)));
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** The consumer groups the tests follow, each with a topic the indexed blocks always feed. */
function consumed() {
  const topics = platformTopics(suffix);
  return [
    ['indexer', topics.chainBlocks],
    ['positions', topics.balanceChanges],
    ['positions', topics.chainBlocks],
    ['reference-data', topics.poolEvents],
    ['subscription', topics.walletTransactions],
  ] as const;
}

describe('the running stack, as an operator sees it', () => {
  let before: Map<ServiceName, Scrape>;
  let after: Map<ServiceName, Scrape>;
  let head: bigint;

  beforeAll(async () => {
    before = await scrapeAll(services.filter((name) => name !== 'indexer'));
    head = await createPublicClient({ transport: http(ethereumRpc) }).getBlockNumber();
    stack.start('indexer', { INDEXER_START_BLOCK: String(head - blocksIndexed + 1n) });
    await eventually(() => scrape('indexer'), 30_000);
    // Chain traffic: the indexer publishes the last blocks, every consumer group reads them. Each
    // group reads at its own pace, so the wait covers every one the tests look at.
    await eventually(async () => {
      const indexed = await scrape('indexer');
      if (seriesSum(indexed, 'indexer_block_height', { chain: 'ethereum' }) < Number(head)) throw new Error('indexer behind');
      const positions = await scrape('positions');
      if (seriesSum(positions, 'wallet_api_kafka_consumer_messages_total', { topic: platformTopics(suffix).chainBlocks.name }) < Number(blocksIndexed)) {
        throw new Error('positions has not read every block');
      }
      for (const [name, topic] of consumed()) {
        const read = name === 'indexer' ? indexed : await scrape(name);
        const count = (scraped: Scrape | undefined) => seriesSum(scraped, 'wallet_api_kafka_consumer_messages_total', { topic: topic.name });
        if (count(read) <= count(before.get(name))) throw new Error(`${name} has not read ${topic.name} yet`);
      }
    }, 60_000);
    // API traffic: one route through reference-data, one through the indexer and ClickHouse, one unknown path.
    for (let i = 0; i < 3; i++) expect(await get('/v1/chains/')).toBe(200);
    expect(await get('/v1/wallets/0x0000000000000000000000000000000000000001/transactions/?filter[chain_ids]=ethereum')).toBe(200);
    expect(await get('/v1/no-such-route')).toBe(404);
    after = await scrapeAll(services);
  }, 120_000);

  const moved = (name: ServiceName, series: string, labels: Record<string, string> = {}) =>
    // The indexer starts after the first scrape: everything it reports is new.
    seriesSum(after.get(name), series, labels) - seriesSum(before.get(name), series, labels);

  test.each(services)('%s serves the process metrics and the shared series on its metrics port', async (name) => {
    const response = await fetch(stack.metricsUrl(name));
    await response.arrayBuffer();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const scraped = after.get(name)!;
    for (const series of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect({ series, value: seriesSum(scraped, series, { service: name }) }).toEqual({ series, value: expect.any(Number) });
      expect(scraped.help.has(series)).toBe(true);
    }
    for (const series of [
      'wallet_api_grpc_server_duration_seconds',
      'wallet_api_grpc_client_duration_seconds',
      'wallet_api_kafka_consumer_lag',
      'wallet_api_clickhouse_query_duration_seconds',
      'wallet_api_postgres_query_duration_seconds',
    ]) {
      expect({ name, series, registered: scraped.help.has(series) }).toEqual({ name, series, registered: true });
    }
    expect(moved(name, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  test('the gateway counts requests by route template and status, and times its gRPC calls and PostgreSQL statements', () => {
    expect(moved('gateway', 'wallet_api_http_requests_total', { method: 'GET', route: '/v1/chains/', status: '200' })).toBe(3);
    expect(moved('gateway', 'wallet_api_http_request_duration_seconds_count', { route: '/v1/chains/', status: '200' })).toBe(3);
    expect(moved('gateway', 'wallet_api_http_request_duration_seconds_count', { route: '/v1/wallets/{address}/transactions/', status: '200' })).toBe(1);
    expect(moved('gateway', 'wallet_api_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      moved('gateway', 'wallet_api_grpc_client_duration_seconds_count', { method: '/walletapi.referencedata.ReferenceData/ListChains', code: 'OK' }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved('gateway', 'wallet_api_postgres_query_duration_seconds_count', { operation: 'select' })).toBeGreaterThanOrEqual(1);
  });

  test('gRPC servers time every call by method and status', () => {
    expect(
      moved('reference-data', 'wallet_api_grpc_server_duration_seconds_count', { method: '/walletapi.referencedata.ReferenceData/ListChains', code: 'OK' }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved('indexer', 'wallet_api_grpc_server_duration_seconds_count', { code: 'OK' })).toBeGreaterThanOrEqual(1);
  });

  test('consumers report messages and lag per topic and partition; stores report query latency', () => {
    for (const [name, topic] of consumed()) {
      const read = after.get(name)!;
      expect({ name, topic: topic.name, moved: moved(name, 'wallet_api_kafka_consumer_messages_total', { topic: topic.name }) > 0 }).toEqual({
        name,
        topic: topic.name,
        moved: true,
      });
      const partitions = read.samples.filter((sample) => sample.name === 'wallet_api_kafka_consumer_lag' && sample.labels.topic === topic.name);
      expect(partitions.length).toBeGreaterThan(0);
      for (const sample of partitions) expect(sample.value).toBeGreaterThanOrEqual(0);
    }
    expect(moved('indexer', 'wallet_api_clickhouse_query_duration_seconds_count', { operation: 'insert', outcome: 'ok' })).toBeGreaterThan(0);
    expect(moved('indexer', 'wallet_api_clickhouse_query_duration_seconds_count', { operation: 'query', outcome: 'ok' })).toBeGreaterThan(0);
    expect(moved('positions', 'wallet_api_postgres_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(moved('indexer', 'indexer_blocks_published_total', { chain: 'ethereum' })).toBe(Number(blocksIndexed));
  });

  test('traces travel over OTLP from the gateway through gRPC, and from the indexer through Kafka to the consumers', async () => {
    const spans = await eventually(() => {
      const request = receiver.spans.find((span) => span.service === 'gateway' && span.name === 'GET /v1/chains/');
      const served = request && receiver.spans.find((span) => span.service === 'reference-data' && span.traceId === request.traceId);
      const published = receiver.spans.find((span) => span.service === 'indexer' && span.name === `${platformTopics(suffix).chainBlocks.name} publish`);
      const consumed = published && receiver.spans.find((span) => span.service === 'positions' && span.traceId === published.traceId);
      if (!served || !consumed) throw new Error('spans not exported yet');
      return { request, served, published, consumed };
    }, 20_000);
    expect(spans.served.name).toBe('/walletapi.referencedata.ReferenceData/ListChains');
    expect(spans.consumed.name).toBe(`${platformTopics(suffix).chainBlocks.name} process`);
  });
});
