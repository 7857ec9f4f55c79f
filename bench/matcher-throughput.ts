// Benchmark: the subscription matcher's in-memory step, in-process and without infrastructure.
// Builds the subscription index (address -> subscriptions) with N random EVM wallets over M
// subscriptions and reports its build time and the process memory it takes, then runs
// `transactionCandidates` over synthetic decoded transactions of ~6 wallets each, of which a given
// fraction are subscribed, and in the same run a bare Map lookup per wallet over the same
// transactions (the floor any index costs). Prints transactions/s of both, candidates found and
// their ratio.
//   pnpm bench:matcher [--wallets 1000000] [--subscriptions 1000] [--transactions 200000]
//                      [--wallets-per-transaction 6] [--subscribed 0.05] [--rounds 3]
import { randomBytes, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import { WalletTransaction } from '@wallet-api/core/proto/events';
import type { SubscriptionEntry } from '../services/subscription/src/match/subscription-entry.js';
import { createSubscriptionIndex } from '../services/subscription/src/match/subscription-index.js';
import { transactionCandidates, type EligibleChains } from '../services/subscription/src/match/transaction-candidates.js';

const { values } = parseArgs({
  options: {
    wallets: { type: 'string', default: '1000000' },
    subscriptions: { type: 'string', default: '1000' },
    transactions: { type: 'string', default: '200000' },
    'wallets-per-transaction': { type: 'string', default: '6' },
    subscribed: { type: 'string', default: '0.05' },
    rounds: { type: 'string', default: '3' },
  },
});
const walletCount = Number(values.wallets);
const subscriptionCount = Number(values.subscriptions);
const transactionCount = Number(values.transactions);
const walletsPerTransaction = Number(values['wallets-per-transaction']);
const subscribedFraction = Number(values.subscribed);
const rounds = Number(values.rounds);

// Memory figures mean little while garbage waits to be collected: make gc() callable without a flag.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);
function memory(stage: string) {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { stage, heapUsed, rss };
}

/**
 * `count` random lowercase EVM addresses as flat 42-character strings, as decoded from PostgreSQL
 * or Kafka (a template literal would make two-part cons strings, which weigh and hash differently).
 */
function randomAddresses(count: number): string[] {
  const hex = Buffer.from(randomBytes(count * 20).toString('hex'), 'latin1');
  const text = Buffer.alloc(count * 42);
  const addresses = new Array<string>(count);
  for (let index = 0; index < count; index++) {
    text.write('0x', index * 42, 'latin1');
    hex.copy(text, index * 42 + 2, index * 40, index * 40 + 40);
    addresses[index] = text.toString('latin1', index * 42, index * 42 + 42);
  }
  return addresses;
}

/** A fresh string with the same text: a decoded transaction never shares string objects with the index. */
const copyOf = (text: string) => Buffer.from(text, 'latin1').toString('latin1');

const eligible: Record<'mainnet' | 'testnet', ReadonlySet<string>> = {
  mainnet: new Set(['ethereum', 'base', 'arbitrum', 'optimism', 'polygon']),
  testnet: new Set(['sepolia']),
};
const eligibleChains: EligibleChains = (network) => eligible[network];

function subscriptionEntry(index: number): SubscriptionEntry {
  return {
    id: `sub_${randomBytes(16).toString('hex')}`,
    organizationId: randomUUID(),
    network: 'mainnet',
    callbackUrl: `https://hooks.example.com/wallet-api/${index}`,
    addons: [],
    // Most subscriptions name their chains; the others watch every eligible one.
    chainIds: index % 4 === 0 ? [] : ['ethereum', 'base'],
    enabled: true,
    filters: null,
  };
}

const before = memory('before');
let wallets: string[] | undefined = randomAddresses(walletCount);
const withWallets = memory(`${walletCount} wallet strings generated`);

const index = createSubscriptionIndex();
const entries = Array.from({ length: subscriptionCount }, (_, at) => subscriptionEntry(at));
const buildStarted = performance.now();
const perSubscription = Math.ceil(walletCount / subscriptionCount);
for (let at = 0; at < subscriptionCount; at++) {
  index.put(entries[at]!);
  // The service adds wallets as the store pages them: one subscription's addresses at a time.
  index.addWallets(entries[at]!.id, wallets.slice(at * perSubscription, (at + 1) * perSubscription));
}
const buildSeconds = (performance.now() - buildStarted) / 1000;
const withIndex = memory('index built');

// The floor: one plain Map from address to subscription id, built from the same strings.
const floorStarted = performance.now();
const bare = new Map<string, string>();
for (let at = 0; at < walletCount; at++) bare.set(wallets[at]!, entries[Math.floor(at / perSubscription)]!.id);
const floorBuildSeconds = (performance.now() - floorStarted) / 1000;

// Transactions draw their subscribed wallets from a sample; the full list is then let go, so the
// index and the bare map are what hold the strings, as in the service.
const sample = Array.from({ length: Math.min(walletCount, 100_000) }, () => wallets![Math.floor(Math.random() * walletCount)]!);
wallets = undefined;

function syntheticTransaction(number: number, next: () => string): WalletTransaction {
  const txWallets: string[] = [];
  for (let slot = 0; slot < walletsPerTransaction; slot++) {
    txWallets.push(Math.random() < subscribedFraction ? copyOf(sample[Math.floor(Math.random() * sample.length)]!) : next());
  }
  const from = txWallets[0]!;
  return WalletTransaction.fromPartial({
    chainId: number % 10 === 0 ? 'base' : 'ethereum',
    blockNumber: String(20_000_000 + Math.floor(number / 150)),
    blockHash: `0x${randomBytes(32).toString('hex')}`,
    blockTimestamp: String(1_700_000_000 + Math.floor(number / 150) * 12),
    transactionIndex: number % 150,
    hash: `0x${randomBytes(32).toString('hex')}`,
    from,
    to: txWallets[1] ?? '',
    nonce: String(number),
    failed: number % 50 === 0,
    fee: '21000000000000',
    value: '1000000000000000',
    wallets: [...txWallets].sort(),
  });
}

const unsubscribedPool = randomAddresses(Math.min(transactionCount * walletsPerTransaction, 500_000));
let poolAt = 0;
const nextUnsubscribed = () => unsubscribedPool[poolAt++ % unsubscribedPool.length]!;
const transactions = Array.from({ length: transactionCount }, (_, number) => syntheticTransaction(number, nextUnsubscribed));
const afterAll = memory('bare map and transactions built');

function runMatcher(): number {
  let found = 0;
  for (const tx of transactions) found += transactionCandidates(tx, index, eligibleChains).length;
  return found;
}

function runFloor(): number {
  let found = 0;
  for (const tx of transactions) {
    for (const wallet of tx.wallets) if (bare.get(wallet) !== undefined) found += 1;
  }
  return found;
}

function timed(run: () => number): { seconds: number; found: number } {
  const started = performance.now();
  const found = run();
  return { seconds: (performance.now() - started) / 1000, found };
}

// A warm-up pass of each so JIT compilation does not count; then alternating measured passes.
runMatcher();
runFloor();
const matcherRuns: { seconds: number; found: number }[] = [];
const floorRuns: { seconds: number; found: number }[] = [];
for (let round = 0; round < rounds; round++) {
  matcherRuns.push(timed(runMatcher));
  floorRuns.push(timed(runFloor));
}
const median = <R extends { seconds: number }>(runs: R[]): R => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
const matcher = median(matcherRuns);
const floor = median(floorRuns);
const lookups = transactionCount * walletsPerTransaction;

console.log(`\nsubscription index: ${index.walletCount} wallets over ${index.subscriptionCount} subscriptions`);
console.table([
  { step: 'index build (createSubscriptionIndex + addWallets)', seconds: Number(buildSeconds.toFixed(3)), 'wallets/s': Math.round(walletCount / buildSeconds) },
  { step: 'bare Map build (floor)', seconds: Number(floorBuildSeconds.toFixed(3)), 'wallets/s': Math.round(walletCount / floorBuildSeconds) },
]);
console.log('process memory (after gc)');
console.table(
  [before, withWallets, withIndex, afterAll].map((row, at, all) => ({
    stage: row.stage,
    'heapUsed MB': megabytes(row.heapUsed),
    'rss MB': megabytes(row.rss),
    'heapUsed delta MB': at === 0 ? 0 : megabytes(row.heapUsed - all[at - 1]!.heapUsed),
  })),
);
console.log(
  `index alone (its maps and entries, the wallet strings excluded): ${megabytes(withIndex.heapUsed - withWallets.heapUsed)} MB heap; ` +
    `with the strings it holds: ${megabytes(withIndex.heapUsed - before.heapUsed)} MB heap (includes the generator's array, 8 bytes a wallet)`,
);
console.log(
  `\n${transactionCount} transactions of ${walletsPerTransaction} wallets (${(subscribedFraction * 100).toFixed(1)}% subscribed), ` +
    `median of ${rounds} passes`,
);
const row = (target: string, run: { seconds: number; found: number }) => ({
  target,
  seconds: Number(run.seconds.toFixed(3)),
  'transactions/s': Math.round(transactionCount / run.seconds),
  'wallet lookups/s': Math.round(lookups / run.seconds),
  found: run.found,
});
console.table([row('transactionCandidates (matcher)', matcher), row('bare Map lookup per wallet (floor)', floor)]);
console.log(`matcher / floor throughput ratio: ${(floor.seconds / matcher.seconds).toFixed(3)}`);
