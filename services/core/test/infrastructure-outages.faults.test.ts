import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually } from '../src/testing/index.js';
import {
  api,
  expectBalancesAgree,
  expectChartRowsAgree,
  expectTransactionsAgree,
  expectWebhooksAgree,
  startChainTraffic,
  startServingStack,
  type ChainTraffic,
} from './chain-traffic.js';
import type { ProcessStack } from './process-stack.js';
import { expectChartPointsAgree, expectPnlAgrees } from './valued-truth.js';

// Redis, PostgreSQL, ClickHouse and the Kafka broker, each stopped for 30 s while the chain moves
// and clients keep asking. While one is down the API answers what it can and 503 with Retry-After
// for the rest: never a 500, never a request held past its deadline. Once it is back the API
// recovers by itself, and afterwards every answer is compared with the chain: nothing was lost.
// Redis keeps nothing on disk here, so its restart is also a flush (rate limits, change tokens).
//
// The suite stops the infrastructure of scripts/up.sh, so the test command runs it after every
// other suite, on its own; alone: `pnpm test:faults` after `bash scripts/up.sh` and a build.

const root = new URL('../../../', import.meta.url).pathname;
const outageMs = Number(process.env.OUTAGE_MS ?? 30_000);
/** Longer than any answer may take, the gateway's own backend deadlines included. */
const deadlineMs = 15_000;
/** How soon every route answers 200 again once the dependency is back. */
const recoveryMs = 90_000;
const everyDependency = ['redis', 'postgres', 'clickhouse', 'kafka'] as const;
type Dependency = (typeof everyDependency)[number];
/** OUTAGE_DEPENDENCIES=redis,kafka runs those alone (while looking into one). */
const dependencies = everyDependency.filter((dependency) => process.env.OUTAGE_DEPENDENCIES?.split(',').includes(dependency) ?? true);

const run = promisify(execFile);
const infra = (dependency: Dependency, command: 'up' | 'down') =>
  run('bash', [`${root}scripts/infra/${dependency}.sh`, command], { cwd: root, timeout: 120_000 });

let stack: ProcessStack;
let traffic: ChainTraffic;

interface Outcome {
  path: string;
  status: number | 'timeout';
  retryAfter: string | null;
  ms: number;
}

const paths = () => {
  const wallet = traffic.recipients[0]!;
  return [
    '/v1/chains/',
    '/v1/fungibles/eth',
    `/v1/wallets/${wallet}/portfolio`,
    `/v1/wallets/${wallet}/positions/`,
    `/v1/wallets/${wallet}/transactions/`,
    `/v1/wallets/${wallet}/charts/day`,
    `/v1/wallets/${wallet}/pnl`,
    '/v1/tx-subscriptions/',
  ];
};

async function ask(path: string): Promise<Outcome> {
  const started = Date.now();
  try {
    const { status, headers } = await api(stack, path);
    return { path, status, retryAfter: headers.get('retry-after'), ms: Date.now() - started };
  } catch {
    return { path, status: 'timeout', retryAfter: null, ms: Date.now() - started };
  }
}

/** Two clients asking every route in turn until `until` resolves. */
async function askUntil(until: Promise<void>): Promise<Outcome[]> {
  let done = false;
  void until.then(() => (done = true));
  const outcomes: Outcome[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      while (!done) for (const path of paths()) outcomes.push(await ask(path));
    }),
  );
  return outcomes;
}

/** What is wrong with an answer given while a dependency was down. */
function misanswered({ status, retryAfter, ms }: Outcome): boolean {
  if (status === 'timeout' || ms > deadlineMs) return true;
  if (status === 503) return retryAfter === null;
  return status !== 200;
}

beforeAll(async () => {
  traffic = await startChainTraffic();
  stack = await startServingStack('outages');
  await traffic.subscribe(stack);
}, 180_000);

afterAll(async () => {
  // A failed test may have left one down; the suites after this one need them all.
  for (const dependency of everyDependency) await infra(dependency, 'up').catch(() => undefined);
  await stack?.stop();
  await traffic?.close();
});

describe('a dependency stopped for 30 s under load', () => {
  const during = new Map<Dependency, Outcome[]>();
  const recoveredInMs = new Map<Dependency, number>();

  beforeAll(async () => {
    let finish!: () => void;
    const transfers = traffic.transferUntil(new Promise<void>((resolve) => (finish = resolve)));
    try {
      for (const dependency of dependencies) {
        await infra(dependency, 'down');
        let restored!: () => void;
        const asked = askUntil(new Promise<void>((resolve) => (restored = resolve)));
        await new Promise((resolve) => setTimeout(resolve, outageMs));
        restored();
        during.set(dependency, await asked);
        await infra(dependency, 'up');
        const back = Date.now();
        const recovered = await eventually(async () => {
          const outcomes = await Promise.all(paths().map(ask));
          expect(outcomes.filter(({ status }) => status !== 200)).toEqual([]);
        }, recoveryMs).then(
          () => true,
          () => false,
        );
        recoveredInMs.set(dependency, recovered ? Date.now() - back : Infinity);
      }
    } finally {
      finish();
      await transfers;
    }
  }, 900_000);

  test.each(dependencies)('while %s was down, every answer was a 200 or a 503 with Retry-After, each within the deadline', (dependency) => {
    const outcomes = during.get(dependency)!;
    expect(outcomes.length).toBeGreaterThan(paths().length);
    expect(outcomes.filter(misanswered)).toEqual([]);
  });

  test.each(dependencies)('the API recovered by itself after %s came back', (dependency) => {
    expect(recoveredInMs.get(dependency)).toBeLessThan(recoveryMs);
  });

  test('every wallet holds what the chain says', () => expectBalancesAgree(stack, traffic), 300_000);

  test('every wallet lists exactly the transactions the chain has for it', () => expectTransactionsAgree(stack, traffic), 300_000);

  test('the chart service stored a balance change for every transfer', () => expectChartRowsAgree(stack, traffic), 60_000);

  test("every wallet's PnL equals the independent FIFO over the chain's record of its transfers", () => expectPnlAgrees(stack, traffic), 120_000);

  test(
    "every point of every wallet's hour chart equals its balance on the chain then, times the price then",
    () => expectChartPointsAgree(stack, traffic),
    180_000,
  );

  test('every transfer reached its webhook at least once, and never under two delivery ids', () => expectWebhooksAgree(traffic), 180_000);
});
