// Benchmark (issue 37): the wallet endpoints over a working set of many wallets while the live
// devnet moves prices every block, beside the same mix on one wallet in the same run. Needs the
// running stack of `bash scripts/start.sh`.
//
// Phases, each after a warm-up of its own but the first:
//   first answers every world wallet's positions then portfolio once, in random order, 32 at a
//                 time: the first answers of a freshly started stack (run it first after start)
//   first answers, crowd
//                 the same for --first-crowd wallets of the crowd no request has asked about yet
//                 (with --crowd)
//   one wallet    the mix on the busiest EVM wallet (and one Solana wallet for the Solana routes)
//   uniform       wallets drawn uniformly from every world wallet (EVM and Solana)
//   zipf          wallets drawn from a Zipf distribution (s = 1.1) over a fixed random ranking
//   sequential    one client, one request at a time, wallets drawn as in zipf
// The mix: portfolio, positions, transactions (page of 100), day chart, pnl and nft-positions for
// EVM wallets; positions, portfolio, transactions and day chart for Solana wallets; wallet-set
// positions and portfolio for an EVM and a Solana wallet together.
// --crowd adds the crowd of a stack started with DEVNET_CROWD=10000 (.data/devnet/crowd.json) to the
// working set as EVM wallets, after waiting until the indexer has its newest block.
// Targets: first answers p99 < 250 ms; many-wallet throughput >= 0.5 of one wallet's, p99 < 250 ms,
// zero 5xx; sequential p99 < 50 ms.
//   pnpm bench:mix [--duration 20] [--connections 32] [--sequential 400] [--crowd] [--first-crowd 2000]
//                  [--url http://127.0.0.1:8080]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createRng } from '../devnet/src/world/index.js';
import { answerCacheCounters, backendTimeOf, benchAuthorization } from './load.js';
import { servicesMemory } from './process-memory.js';
import { cpuSecondsBetween, stackCpuTicks } from './stack-cpu.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    sequential: { type: 'string', default: '400' },
    crowd: { type: 'boolean', default: false },
    'first-crowd': { type: 'string', default: '2000' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = new URL('..', import.meta.url).pathname;
const headers = { ...benchAuthorization(root), 'accept-encoding': 'gzip, deflate, br' };

interface Manifest {
  chains: { id: string; wallets: { address: string }[] }[];
  solana?: { id: string; wallets: { address: string }[] }[];
}
const manifest = JSON.parse(readFileSync(join(root, '.data/devnet/manifest.json'), 'utf8')) as Manifest;
const worldWallets = [...new Set(manifest.chains.flatMap((chain) => chain.wallets.map((wallet) => wallet.address)))];
const crowdFile = join(root, '.data/devnet/crowd.json');
if (values.crowd && !existsSync(crowdFile)) throw new Error(`--crowd needs ${crowdFile}: start the stack with DEVNET_CROWD=10000 bash scripts/start.sh`);
const crowd = values.crowd ? (JSON.parse(readFileSync(crowdFile, 'utf8')) as { wallets: string[] }).wallets : [];
const evmWallets = [...worldWallets, ...crowd];
const solanaWallets = [...new Set((manifest.solana ?? []).flatMap((world) => world.wallets.map((wallet) => wallet.address)))];

const evmPaths = (address: string) => [
  `/v1/wallets/${address}/portfolio`,
  `/v1/wallets/${address}/positions/`,
  `/v1/wallets/${address}/transactions/?page[size]=100`,
  `/v1/wallets/${address}/charts/day`,
  `/v1/wallets/${address}/pnl`,
  `/v1/wallets/${address}/nft-positions/`,
];
const solanaPaths = (address: string) => [
  `/v1/wallets/${address}/portfolio`,
  `/v1/wallets/${address}/positions/`,
  `/v1/wallets/${address}/transactions/?page[size]=100`,
  `/v1/wallets/${address}/charts/day`,
];
const setPaths = (evm: string, solana: string) => [
  `/v1/wallet-sets/positions/?addresses=${evm},${solana}`,
  `/v1/wallet-sets/portfolio?addresses=${evm},${solana}`,
];

type Draw = () => number;

/** Indexes 0..n-1 with P(rank k) proportional to 1/k^s over a fixed random ranking. */
function zipfDraw(n: number, s: number, random: () => number): Draw {
  const ranking = rng.shuffle(Array.from({ length: n }, (_, index) => index));
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= n; rank++) cumulative.push((total += 1 / rank ** s));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return ranking[low]!;
  };
}

/** Every wallet of the working set as a list of its request paths; a drawn wallet asks one of them. */
function workingSet(): string[][] {
  const sets = evmWallets.slice(0, solanaWallets.length).map((evm, index) => setPaths(evm, solanaWallets[index]!));
  return [...evmWallets.map(evmPaths), ...solanaWallets.map(solanaPaths), ...sets];
}

function pathSource(wallets: string[][], drawWallet: Draw, random: () => number): () => string {
  return () => {
    const paths = wallets[drawWallet()]!;
    return paths[Math.floor(random() * paths.length)]!;
  };
}

interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  status5xx: number;
  status4xx: number;
  status202: number;
}

/** The mix under `connections` clients for `seconds`, after a warm-up of the same mix. */
async function underLoad(nextPath: () => string, seconds: number): Promise<Figures> {
  const run = (time: number) => {
    const statuses = new Map<number, number>();
    const instance: Promise<autocannon.Result> = autocannon({
      url: values.url,
      headers,
      connections,
      duration: time,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => ({ ...request, path: nextPath() }),
          onResponse: (status: number) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          },
        },
      ],
    });
    return instance.then((result) => ({ result, statuses }));
  };
  await run(Math.min(5, seconds));
  const { result, statuses } = await run(seconds);
  const count = (test: (status: number) => boolean) => [...statuses].reduce((sum, [status, n]) => sum + (test(status) ? n : 0), 0);
  return {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    status5xx: count((status) => status >= 500) + result.errors + result.timeouts,
    status4xx: count((status) => status >= 400 && status < 500),
    status202: count((status) => status === 202),
  };
}

/** Each list of paths asked in order by one of `clients` clients taking the next list: latency percentiles over every request. */
async function timedRequests(lists: readonly (readonly string[])[], clients: number): Promise<Figures> {
  const latencies: number[] = [];
  let status5xx = 0;
  let status4xx = 0;
  let status202 = 0;
  const started = performance.now();
  let next = 0;
  const client = async () => {
    while (next < lists.length) {
      for (const path of lists[next++]!) {
        const begin = performance.now();
        const response = await fetch(`${values.url}${path}`, { headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - begin);
        if (response.status >= 500) status5xx++;
        else if (response.status >= 400) status4xx++;
        else if (response.status === 202) status202++;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))]!);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: Math.round(latencies.at(-1)!),
    status5xx,
    status4xx,
    status202,
  };
}

/** One client, one request at a time: latency percentiles over `count` requests. */
const sequential = (nextPath: () => string, count: number) => timedRequests([Array.from({ length: count }, nextPath)], 1);

async function busiestWallet(): Promise<string> {
  let chosen = { wallet: worldWallets[0]!, count: -1 };
  for (const wallet of worldWallets) {
    const response = await fetch(`${values.url}/v1/wallets/${wallet}/transactions/?page[size]=100`, { headers });
    if (!response.ok) continue;
    const count = ((await response.json()) as { data: unknown[] }).data.length;
    if (count > chosen.count) chosen = { wallet, count };
  }
  return chosen.wallet;
}

/** Waits until the crowd's last transaction is served: the indexer has read every crowd block. */
async function crowdIndexed(): Promise<number> {
  const started = performance.now();
  const last = crowd.at(-1)!;
  for (;;) {
    const response = await fetch(`${values.url}/v1/wallets/${last}/transactions/`, { headers });
    if (response.ok && ((await response.json()) as { data: unknown[] }).data.length > 0) return (performance.now() - started) / 1000;
    if (performance.now() - started > 900_000) throw new Error('the crowd was not indexed within 15 minutes');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

// Deterministic draws, so two runs ask for the same sequence of wallets.
const rng = createRng('bench-mix');
const random = rng.next;
const wallets = workingSet();
if (crowd.length > 0) console.log(`crowd of ${crowd.length} wallets indexed after ${(await crowdIndexed()).toFixed(0)} s of waiting`);
const firstPaths = (address: string) => [`/v1/wallets/${address}/positions/`, `/v1/wallets/${address}/portfolio`];
// First: every world wallet's first positions and portfolio answers, `connections` wallets at a
// time in random order; cold only on a stack no request has asked about them since it started.
const firstAnswers = await timedRequests(rng.shuffle([...worldWallets, ...solanaWallets]).map(firstPaths), connections);
// Crowd wallets no request has asked about (the wait above asked only the last one).
const firstCrowd =
  crowd.length > 0 ? await timedRequests(rng.shuffle(crowd.slice(0, -1)).slice(0, Number(values['first-crowd'])).map(firstPaths), connections) : undefined;
const busiest = await busiestWallet();
const one = [[...evmPaths(busiest), ...solanaPaths(solanaWallets[0]!), ...setPaths(busiest, solanaWallets[0]!)]];
console.log(
  `working set: ${worldWallets.length} + ${crowd.length} crowd EVM + ${solanaWallets.length} Solana wallets + ${Math.min(evmWallets.length, solanaWallets.length)} wallet sets; ${connections} connections, ${duration} s per phase`,
);

const results: [string, Figures][] = [['first answers (positions, portfolio)', firstAnswers]];
if (firstCrowd) results.push([`first answers, ${firstCrowd.requests / 2} crowd wallets`, firstCrowd]);
results.push([
  'one wallet',
  await underLoad(
    pathSource(one, () => 0, random),
    duration,
  ),
]);
const [uniformTicks, uniformOwnCpu, uniformCacheBefore] = [stackCpuTicks(), process.cpuUsage(), await answerCacheCounters()];
const uniform = await backendTimeOf(() =>
  underLoad(
    pathSource(wallets, () => Math.floor(random() * wallets.length), random),
    duration,
  ),
);
const ownCpu = process.cpuUsage(uniformOwnCpu);
const uniformCacheAfter = await answerCacheCounters();
// The load generator shares the two cores with the stack: its own share is counted beside it.
const uniformCpu = [...cpuSecondsBetween(uniformTicks, stackCpuTicks()), { component: 'this bench', seconds: (ownCpu.user + ownCpu.system) / 1e6 }].sort(
  (a, b) => b.seconds - a.seconds,
);
results.push(['uniform', uniform.result]);
const zipf = zipfDraw(wallets.length, 1.1, random);
results.push(['zipf s=1.1', await underLoad(pathSource(wallets, zipf, random), duration)]);
results.push(['sequential (zipf)', await sequential(pathSource(wallets, zipf, random), Number(values.sequential))]);

const baseline = results.find(([name]) => name === 'one wallet')![1].perSecond;
console.log('\n| working set | req/s | ratio to one wallet | p50 ms | p90 ms | p99 ms | max ms | 5xx | 4xx | 202 |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, figures] of results) {
  console.log(
    `| ${name} | ${figures.perSecond.toFixed(0)} | ${(figures.perSecond / baseline).toFixed(2)} | ${figures.p50} | ${figures.p90} | ${figures.p99} | ${figures.max} | ${figures.status5xx} | ${figures.status4xx} | ${figures.status202} |`,
  );
}
console.log('\nwhere the uniform phase spent its time (warm-up included; the 24 largest, ms per request of the phase):');
for (const { method, calls, ms } of uniform.methods.slice(0, 24)) console.log(`  ${method}: ${calls} calls, ${(ms / uniform.result.requests).toFixed(2)} ms`);
console.log(
  `\nwhere the cores went in the uniform phase (warm-up included; CPU seconds): ${uniformCpu
    .filter(({ seconds }) => seconds >= 0.1)
    .map(({ component, seconds }) => `${component} ${seconds.toFixed(1)}`)
    .join(', ')}`,
);
console.log('\nthe answer cache in the uniform phase (warm-up included): computed / waited for one running / served from the cache, mean computation ms');
for (const [route, after] of uniformCacheAfter) {
  const before = uniformCacheBefore.get(route) ?? {};
  const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
  if (delta('miss') + delta('shared') + delta('hit') === 0) continue;
  console.log(
    `  ${route}: ${delta('miss')} / ${delta('shared')} / ${delta('hit')}, ${((delta('compute_sum') * 1000) / Math.max(1, delta('compute_count'))).toFixed(0)} ms`,
  );
}
const memory = servicesMemory();
console.log(
  `\nservices' resident memory: ${memory.map(({ name, megabytes }) => `${name} ${megabytes} MB`).join(', ')}; total ${memory.reduce((sum, { megabytes }) => sum + megabytes, 0)} MB`,
);
