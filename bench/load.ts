// What the HTTP benchmarks share: a key of their own and one autocannon measurement.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';

/**
 * Authorization of a new organization with no practical rate limit (the demo key's limit would
 * answer most requests with 429), made by the gateway's key command.
 */
export function benchAuthorization(root: string): Record<string, string> {
  const output = execFileSync(
    'node',
    [join(root, 'services/gateway/dist/cli/main.js'), 'keys', 'create', '--org', 'bench', '--rate-limit', '1000000', '--burst', '1000000'],
    { encoding: 'utf8' },
  );
  const key = output.trim().split('\n').at(-1)!;
  return { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}

/** Requests per second and latency percentiles under load, after a 2 s warm-up (JIT, connections, first computations). */
export async function measure(url: string, headers: Record<string, string>, load: { connections: number; duration: number }) {
  await autocannon({ url, headers, connections: load.connections, duration: 2 });
  const result = await autocannon({ url, headers, connections: load.connections, duration: load.duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  // Bytes per answer as read off the wire, headers included: what the client's Accept-Encoding got.
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    bytesPerAnswer: result.throughput.total / Math.max(1, result.requests.total),
  };
}

/** Metrics ports of the start command's gateway and the services that answer its gRPC calls (scripts/lib/ports). */
const metricsPorts = { gateway: 9460, 'reference-data': 9461, indexer: 9464, positions: 9465, pnl: 9467, chart: 9468, nft: 9469 } as const;

/**
 * The histograms a request's time is read from: the services' gRPC servers, and the gateway's own
 * view (its HTTP handling and its gRPC calls, network included), which shows the time no service
 * accounts for.
 */
const timedHistograms: Record<string, (labels: Record<string, string>) => string> = {
  wallet_api_grpc_server_duration_seconds: (labels) => `${labels.service} ${labels.method!.split('/').at(-1)}`,
  wallet_api_grpc_client_duration_seconds: (labels) => `${labels.service} calls ${labels.method!.split('/').at(-1)}`,
  wallet_api_http_request_duration_seconds: (labels) => `${labels.service} HTTP ${labels.route}`,
  wallet_api_clickhouse_query_duration_seconds: (labels) => `${labels.service} ClickHouse ${labels.operation}`,
  wallet_api_postgres_query_duration_seconds: (labels) => `${labels.service} PostgreSQL ${labels.operation}`,
};

async function histogramTotals(): Promise<Map<string, { seconds: number; calls: number }>> {
  const totals = new Map<string, { seconds: number; calls: number }>();
  for (const port of Object.values(metricsPorts)) {
    for (const { name, labels, value } of samples(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())) {
      const histogram = /^(\w+)_(sum|count)$/.exec(name);
      const describe = histogram ? timedHistograms[histogram[1]!] : undefined;
      if (!histogram || !describe) continue;
      const kind = histogram[2] === 'sum' ? 'seconds' : 'calls';
      const status = labels.code ?? labels.status ?? labels.outcome;
      const key = `${describe(labels)}${status === undefined || status === 'OK' || status === '200' || status === 'ok' ? '' : ` (${status})`}`;
      const total = totals.get(key) ?? { seconds: 0, calls: 0 };
      total[kind] += value;
      totals.set(key, total);
    }
  }
  return totals;
}

/**
 * Where one request's time went in the gateway and the services behind it: milliseconds each
 * HTTP route and gRPC method spent on it, from the processes' own duration histograms read before and after.
 * Concurrent calls overlap, so the figures add up to more than the request took.
 */
export async function backendTimeOf<T>(request: () => Promise<T>): Promise<{ result: T; methods: { method: string; calls: number; ms: number }[] }> {
  const before = await histogramTotals();
  const result = await request();
  const after = await histogramTotals();
  const methods = [...after]
    .map(([method, total]) => ({
      method,
      calls: total.calls - (before.get(method)?.calls ?? 0),
      ms: Math.round((total.seconds - (before.get(method)?.seconds ?? 0)) * 1000),
    }))
    .filter((entry) => entry.calls > 0)
    .sort((a, b) => b.ms - a.ms);
  return { result, methods };
}

const gatewayMetricsPort = 9460;

/** Samples of a Prometheus text exposition: metric name, labels, value. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return [...text.matchAll(/^(\w+)\{(.*)\} (\S+)$/gm)].map(([, name, labels, value]) => ({
    name: name!,
    labels: Object.fromEntries([...labels!.matchAll(/(\w+)="([^"]*)"/g)].map(([, label, labelValue]) => [label!, labelValue!])),
    value: Number(value),
  }));
}

/** The gateway's answer-cache counters by route: outcomes, and computations with their total seconds. */
export async function answerCacheCounters(): Promise<Map<string, Record<string, number>>> {
  const text = await (await fetch(`http://127.0.0.1:${gatewayMetricsPort}/metrics`)).text();
  const routes = new Map<string, Record<string, number>>();
  for (const sample of samples(text)) {
    const route = sample.labels.route;
    if (route === undefined) continue;
    const totals = routes.get(route) ?? {};
    if (sample.name === 'wallet_api_gateway_response_cache_total') totals[sample.labels.outcome!] = sample.value;
    else if (sample.name === 'wallet_api_gateway_response_cache_compute_seconds_sum') totals.compute_sum = sample.value;
    else if (sample.name === 'wallet_api_gateway_response_cache_compute_seconds_count') totals.compute_count = sample.value;
    else continue;
    routes.set(route, totals);
  }
  return routes;
}

async function answerCacheTotals(route: string): Promise<Record<string, number>> {
  return (await answerCacheCounters()).get(route) ?? {};
}

/**
 * What the gateway's answer cache did for `route` while `load` ran: answers recomputed, their mean
 * computation time, and the share of requests that waited for one (the p99 under live changes).
 */
export async function answerCacheDuring<T>(
  route: string,
  load: () => Promise<T>,
): Promise<{ result: T; recomputed: number; meanComputeMs: number; waitedPercent: number }> {
  const before = await answerCacheTotals(route);
  const result = await load();
  const after = await answerCacheTotals(route);
  const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
  const requests = delta('hit') + delta('miss') + delta('shared') + delta('bypass');
  const recomputed = delta('compute_count');
  return {
    result,
    recomputed,
    meanComputeMs: recomputed === 0 ? 0 : Math.round((delta('compute_sum') * 1000) / recomputed),
    waitedPercent: requests === 0 ? 0 : Number(((100 * (delta('miss') + delta('shared'))) / requests).toFixed(1)),
  };
}
