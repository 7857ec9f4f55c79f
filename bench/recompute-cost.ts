// Benchmark (issue 37): what one recomputation of a wallet answer costs each process, in CPU
// milliseconds, beside what a cached answer (a hit) costs in the same run. Every price move makes
// every valued answer a recomputation, so over many wallets this cost, not the hit's, sets the
// throughput. Needs the running stack of `bash scripts/start.sh`.
//
// For each route, over --wallets world wallets asked by 4 clients:
//   hits          every wallet asked --rounds times with no change between: answers from the cache
//   recomputed    before each round a price move is announced (the change tokens the price consumer
//                 replaces, its earliest time 3 s ago), so every answer is computed again
// Each process's CPU (utime + stime from /proc) over a phase, less its CPU over an idle window of
// the same length measured just before (the live devnet's own work), divided by the answers.
// The move is announced without reference-data's preparation of head reads (LP reserves, vault
// rates, supplies), so reference-data's figure is an upper bound of a real move's.
//   pnpm bench:recompute-cost [--wallets 60] [--rounds 3] [--routes portfolio,positions/,...]
//                             [--url http://127.0.0.1:8080] [--metrics http://127.0.0.1:9460/metrics]
// Each phase also prints the share of its answers the gateway served from its cache (its metrics):
// the live devnet's own price moves make some answers of the hit phase recomputations too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { benchAuthorization } from './load.js';
import { cpuSecondsBetween, stackCpuTicks } from './stack-cpu.js';

const { values } = parseArgs({
  options: {
    wallets: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    routes: { type: 'string', default: 'portfolio,positions/,transactions/?page[size]=100,charts/day,pnl,nft-positions/' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    metrics: { type: 'string', default: 'http://127.0.0.1:9460/metrics' },
  },
});
const rounds = Number(values.rounds);
const clients = 4;
const root = new URL('..', import.meta.url).pathname;
const headers = { ...benchAuthorization(root), 'accept-encoding': 'gzip, deflate, br' };
const manifest = JSON.parse(readFileSync(join(root, '.data/devnet/manifest.json'), 'utf8')) as { chains: { wallets: { address: string }[] }[] };
const wallets = [...new Set(manifest.chains.flatMap((chain) => chain.wallets.map((wallet) => wallet.address)))].slice(0, Number(values.wallets));
const changes = connectChangeVersions(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'wallet-api',
  onError: () => undefined,
});

/** The gateway's answer-cache outcomes so far, summed over routes: hits, and all outcomes. */
async function cacheOutcomes(): Promise<{ hits: number; all: number }> {
  const text = await (await fetch(values.metrics!)).text();
  let hits = 0;
  let all = 0;
  for (const line of text.split('\n')) {
    // Route labels hold braces ({address}): the labels are read as a whole.
    const sample = /^wallet_api_gateway_response_cache_total\{(.*)\} (\d+)$/.exec(line);
    // What answers are computed from (pages, position rows) is kept apart from the answers themselves.
    if (!sample || sample[1]!.includes('route="transactions page"') || sample[1]!.includes('route="position rows"')) continue;
    all += Number(sample[2]);
    if (sample[1]!.includes('outcome="hit"')) hits += Number(sample[2]);
  }
  return { hits, all };
}

interface Phase {
  answers: number;
  /** CPU ms per process, less its idle rate. */
  cpu: Map<string, number>;
  /** Of the answers, the share the gateway served from its cache. */
  hitShare: number;
}

/** CPU ms per process over `work`, less the idle rate over its duration, and the answers it gave. */
async function measured(idle: Map<string, number>, idleMs: number, work: () => Promise<number>): Promise<Phase> {
  const [before, outcomesBefore] = [stackCpuTicks(), await cacheOutcomes()];
  const started = Date.now();
  const answers = await work();
  const elapsed = Date.now() - started;
  const after = stackCpuTicks();
  const outcomesAfter = await cacheOutcomes();
  const cpu = new Map(
    cpuSecondsBetween(before, after).map(({ component, seconds }) => [component, seconds * 1000 - ((idle.get(component) ?? 0) * elapsed) / idleMs]),
  );
  const served = outcomesAfter.all - outcomesBefore.all;
  return { answers, cpu, hitShare: served === 0 ? 0 : (outcomesAfter.hits - outcomesBefore.hits) / served };
}

async function idleRate(ms: number): Promise<Map<string, number>> {
  const before = stackCpuTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = stackCpuTicks();
  return new Map(cpuSecondsBetween(before, after).map(({ component, seconds }) => [component, seconds * 1000]));
}

async function askAll(route: string): Promise<number> {
  let answers = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, lane) => {
      for (let index = lane; index < wallets.length; index += clients) {
        const response = await fetch(`${values.url}/v1/wallets/${wallets[index]}/${route}`, { headers });
        await response.arrayBuffer();
        if (response.status >= 500) throw new Error(`${route}: ${response.status}`);
        answers++;
      }
    }),
  );
  return answers;
}

const idleMs = 3_000;
const rows: string[] = [];
for (const route of values.routes!.split(',')) {
  await askAll(route);
  const idle = await idleRate(idleMs);
  const hits = await measured(idle, idleMs, async () => {
    let answers = 0;
    for (let round = 0; round < rounds; round++) answers += await askAll(route);
    return answers;
  });
  const recomputed = await measured(idle, idleMs, async () => {
    let answers = 0;
    for (let round = 0; round < rounds; round++) {
      await changes.versions.pricesChanged(undefined, { since: Math.floor(Date.now() / 1000) - 3 });
      answers += await askAll(route);
    }
    return answers;
  });
  const perAnswer = (phase: Phase, name: string) => Math.max(0, (phase.cpu.get(name) ?? 0) / phase.answers);
  const names = [...recomputed.cpu.keys()]
    .filter((name) => perAnswer(recomputed, name) >= 0.1 || perAnswer(hits, name) >= 0.1)
    .sort((a, b) => perAnswer(recomputed, b) - perAnswer(recomputed, a));
  const total = (phase: Phase) => names.reduce((sum, name) => sum + perAnswer(phase, name), 0);
  const share = (phase: Phase) => `${Math.round(phase.hitShare * 100)}%`;
  rows.push(
    `| ${route} | ${total(hits).toFixed(1)} (${share(hits)}) | ${total(recomputed).toFixed(1)} (${share(recomputed)}) | ${names.map((name) => `${name} ${perAnswer(hits, name).toFixed(1)} / ${perAnswer(recomputed, name).toFixed(1)}`).join(', ')} |`,
  );
}
changes.close();

console.log(`${wallets.length} world wallets, ${rounds} rounds, ${clients} clients; CPU ms per answer, less each process's idle rate`);
console.log('\n| route | hit phase, all processes (served from cache) | recomputed phase, all processes (served from cache) | per process: hit / recomputed |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
