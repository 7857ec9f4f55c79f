import type { ServiceName } from '../src/config/index.js';
import {
  expectBalancesAgree,
  expectChartRowsAgree,
  expectTransactionsAgree,
  expectWebhooksAgree,
  serving,
  startChainTraffic,
  startServingStack,
  type ChainTraffic,
} from './chain-traffic.js';
import type { ProcessStack } from './process-stack.js';
import { expectChartPointsAgree, expectPnlAgrees } from './valued-truth.js';

// Each service killed with SIGKILL while the chain moves and webhooks are owed, then started
// again, as a crashed pod is. Afterwards every answer is compared with the chain: each wallet's
// balance, its transaction list, the chart service's stored balance changes (kept in memory for
// minutes before one INSERT, so a kill finds rows that are not stored yet), its PnL against the
// independent FIFO, every point of its hour chart, and the webhooks (every transaction delivered
// at least once, never under two delivery ids).

const killed: readonly ServiceName[] = ['indexer', 'chart', 'positions', 'subscription', 'pnl', 'nft', 'reference-data', 'gateway'];

let stack: ProcessStack;
let traffic: ChainTraffic;

beforeAll(async () => {
  traffic = await startChainTraffic();
  stack = await startServingStack('kills');
  await traffic.subscribe(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await traffic?.close();
});

describe('a service killed with SIGKILL and started again', () => {
  beforeAll(async () => {
    let finish!: () => void;
    const transfers = traffic.transferUntil(new Promise<void>((resolve) => (finish = resolve)));
    for (const name of killed) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await stack.kill(name, 'SIGKILL');
      stack.start(name);
    }
    for (const name of killed) await serving(stack, name);
    finish();
    await transfers;
  }, 240_000);

  test('every wallet holds what the chain says', () => expectBalancesAgree(stack, traffic), 300_000);

  test('every wallet lists exactly the transactions the chain has for it', () => expectTransactionsAgree(stack, traffic), 300_000);

  test(
    'the chart service stored a balance change for every transfer, rows the killed process had not stored included',
    () => expectChartRowsAgree(stack, traffic),
    60_000,
  );

  test("every wallet's PnL equals the independent FIFO over the chain's record of its transfers", () => expectPnlAgrees(stack, traffic), 120_000);

  test(
    "every point of every wallet's hour chart equals its balance on the chain then, times the price then",
    () => expectChartPointsAgree(stack, traffic),
    180_000,
  );

  test('every transfer reached its webhook at least once, and never under two delivery ids', () => expectWebhooksAgree(traffic), 180_000);
});
