// Benchmark: live latency, from a block being mined to its transaction being served by
// GET /v1/wallets/{address}/transactions/. Each round sends a transfer to a fresh address on the
// running devnet (mined by `devnet live`), notes when its receipt first appears (the block is
// mined) and when the API first lists it. Needs the running stack of `bash scripts/start.sh`.
//   pnpm bench:live [--rounds 30] [--url http://127.0.0.1:8080] [--rpc http://127.0.0.1:18545]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPublicClient, http, parseEther, type Address, type Hash } from 'viem';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    rpc: { type: 'string', default: 'http://127.0.0.1:18545' },
  },
});
const root = new URL('..', import.meta.url).pathname;
// A key of the benchmark's own: the demo key's rate limit would answer most requests with 429.
const keyOutput = execFileSync(
  'node',
  [join(root, 'services/gateway/dist/cli/main.js'), 'keys', 'create', '--org', 'bench', '--rate-limit', '1000000', '--burst', '1000000'],
  { encoding: 'utf8' },
);
const key = keyOutput.trim().split('\n').at(-1)!;
const headers = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
const client = createPublicClient({ transport: http(values.rpc), cacheTime: 0 });
const pollMs = 10;
// A sender of the benchmark's own, so `devnet live` never races it for a nonce.
const sender: Address = '0x00000000000000000000000000000000be11c4a1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rpc(method: string, params: unknown[]): Promise<any> {
  return client.request({ method: method as never, params: params as never });
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(pollMs);
  }
}

await rpc('anvil_setBalance', [sender, `0x${parseEther('1000').toString(16)}`]);
await rpc('anvil_impersonateAccount', [sender]);
const latencies: number[] = [];
const startNonce = await client.getTransactionCount({ address: sender, blockTag: 'pending' });
for (let round = 0; round < Number(values.rounds); round++) {
  const recipient = `0x${'be'.repeat(4)}${Date.now().toString(16).padStart(16, '0')}${round.toString(16).padStart(16, '0')}` as Address;
  const hash: Hash = await rpc('eth_sendTransaction', [
    { from: sender, to: recipient, value: '0x1', gas: '0x5208', nonce: `0x${(startNonce + round).toString(16)}` },
  ]);
  const minedAt = await until(
    async () => ((await client.getTransactionReceipt({ hash }).catch(() => undefined)) ? performance.now() : undefined),
    60_000,
    `mining of ${hash}`,
  );
  const servedAt = await until(
    async () => {
      const response = await fetch(`${values.url}/v1/wallets/${recipient}/transactions/`, { headers });
      const body = (await response.json()) as { data?: { attributes: { hash: string } }[] };
      return body.data?.some((item) => item.attributes.hash === hash) ? performance.now() : undefined;
    },
    60_000,
    `serving of ${hash}`,
  );
  latencies.push(servedAt - minedAt);
}
latencies.sort((a, b) => a - b);
const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
console.log(`\nlive latency, block mined -> transaction served by the API (${latencies.length} rounds, polled every ${pollMs} ms)`);
console.table([
  { 'p50 ms': Math.round(percentile(50)), 'p99 ms': Math.round(percentile(99)), 'min ms': Math.round(latencies[0]!), 'max ms': Math.round(latencies.at(-1)!) },
]);
