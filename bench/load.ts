// What the HTTP benchmarks share: a key of their own and one autocannon measurement.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';

/**
 * Authorization of a new organization with no practical rate limit (the demo key's limit would
 * answer most requests with 429), made by the gateway's key command.
 */
export function benchAuthorization(root: string): Record<string, string> {
  const output = execFileSync('node', [join(root, 'services/gateway/dist/cli/main.js'), 'keys', 'create', '--org', 'bench', '--rate-limit', '1000000', '--burst', '1000000'], { encoding: 'utf8' });
  const key = output.trim().split('\n').at(-1)!;
  return { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}

/** Requests per second and latency percentiles under load, after a 2 s warm-up (JIT, connections, first computations). */
export async function measure(url: string, headers: Record<string, string>, load: { connections: number; duration: number }) {
  await autocannon({ url, headers, connections: load.connections, duration: 2 });
  const result = await autocannon({ url, headers, connections: load.connections, duration: load.duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}
