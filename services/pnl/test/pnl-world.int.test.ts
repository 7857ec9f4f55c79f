import { readFileSync } from 'node:fs';
import { sql } from '@wallet-api/core/clickhouse';
import { createGrpcClient } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { TokenInterface } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory, pricesAt } from '@wallet-api/core/reference-data';
import { createPublicClient, http } from 'viem';
import { readManifest, type Manifest } from '../../../devnet/src/manifest/index.js';
import { startPipeline, type Pipeline } from '../../indexer/test/setup-pipeline.js';
import { eventually } from '../../indexer/test/setup-indexing.js';
import type { PnlRequest, PnlResult, WalletPnl } from '../src/compute/wallet-pnl.js';
import {
  averagePricesOf,
  figuresOf,
  historyOrder,
  readWorldTransactions,
  replay,
  walletSteps,
  type AssetFacts,
  type Ledger,
  type WalletStep,
  type Window,
  type WorldTransaction,
} from './independent-fifo.js';
import { walletPnlOver } from './setup-history.js';

// The pnl service over the whole devnet test world (chain -> indexer -> Kafka -> ClickHouse ->
// ListWalletHistory -> pnl), held against independent-fifo.ts: the contract's FIFO replayed in
// the test from the chains' raw blocks, receipts and call traces, priced by reference-data. Every
// manifest wallet, over all the world's chains at once (a fungible's lots are shared across
// chains), now and in two windows: every figure, every fungible's breakdown, the excluded list.

const context: RequestContext = { organizationId: '', roles: [], addons: [], network: 0 };
/**
 * 1e-9 relative, with an absolute floor. A gain is a difference of sums as large as its basis
 * (a stablecoin's realized gain is ~1e-7 over a 5e9 basis in this world), and float rounding in
 * either computation is relative to those sums, not to the gain: the floor grows by 1e-12 of it.
 */
const close = (a: number, b: number, basis: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) + 1e-9 + 1e-12 * Math.abs(basis);
const basisOf = (figures: Record<string, number>, attribute: string): number =>
  ({ realizedGain: figures.realizedCostBasis!, unrealizedGain: figures.netInvested!, totalGain: figures.realizedCostBasis! + figures.netInvested! })[
    attribute
  ] ?? 0;

let manifest: Manifest;
let pipeline: Pipeline;
let indexer: IndexerClient;
let pnl: WalletPnl;
let wallets: string[];
/** Every wallet's steps across the world's chains, in the contract's history order. */
const stepsByWallet = new Map<string, WalletStep[]>();
let facts: AssetFacts & { priceNow(chainId: string, address: string): number | undefined };
let windows: Record<'now' | 'since and till' | 'since', Window>;

const implementationKey = (chainId: string, address: string) => `${chainId}:${address}`;

/** Reference data for every asset the world moved: which count (rule 4) and their prices at every time a wallet moved them. */
async function lookUpAssetFacts(transactions: readonly WorldTransaction[]): Promise<typeof facts> {
  const implementations = new Map<string, { chainId: string; address: string }>();
  for (const { chainId, fungibles } of transactions) {
    implementations.set(implementationKey(chainId, ''), { chainId, address: '' });
    for (const { asset } of fungibles) implementations.set(implementationKey(chainId, asset), { chainId, address: asset });
  }
  const table = await createTokenDirectory(pipeline.referenceData).load([...implementations.values()], context);
  const counting = new Map<string, { key: string; decimals: number }>();
  for (const [key, { chainId, address }] of implementations) {
    const info = table.info(chainId, address);
    if (!info || info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN) continue;
    counting.set(key, { key: info.fungibleId || key, decimals: info.decimals });
  }
  // Rule 5 prices each leg (and fee) at its block's time; the price now (timestamp '0') values open lots.
  const queries = new Map<string, { token: { chainId: string; address: string }; timestamp: string }>();
  const ask = (chainId: string, address: string, timestamp: number) => {
    if (counting.has(implementationKey(chainId, address)))
      queries.set(`${chainId}:${address}@${timestamp}`, { token: { chainId, address }, timestamp: String(timestamp) });
  };
  for (const steps of stepsByWallet.values()) {
    for (const { transaction, nets, paysFee } of steps) {
      if (paysFee) ask(transaction.chainId, '', transaction.timestamp);
      for (const address of nets.keys()) ask(transaction.chainId, address, transaction.timestamp);
    }
  }
  for (const { chainId, address } of implementations.values()) ask(chainId, address, 0);
  // Reference-data's prices come from the same indexing (pool events through Kafka): wait until two reads a while apart agree.
  const read = () => pricesAt(pipeline.referenceData, { context, currency: 'usd', queries: [...queries.values()] });
  let answers = await read();
  for (const deadline = Date.now() + 180_000; ; ) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const again = await read();
    if (JSON.stringify(again) === JSON.stringify(answers)) break;
    if (Date.now() > deadline) throw new Error('reference-data prices did not settle');
    answers = again;
  }
  const prices = new Map([...queries.keys()].map((key, index) => [key, answers[index]]));
  return {
    counting: (chainId, address) => counting.get(implementationKey(chainId, address)),
    priceAt: (chainId, address, timestamp) => prices.get(`${chainId}:${address}@${timestamp}`),
    priceNow: (chainId, address) => prices.get(`${chainId}:${address}@0`),
  };
}

beforeAll(async () => {
  manifest = await readManifest();
  pipeline = await startPipeline();
  await pipeline.resetCheckpoints(manifest.chains.map((chain) => chain.id));
  for (const chain of manifest.chains) pipeline.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  indexer = createGrpcClient(IndexerClient, pipeline.indexerAddress);
  pnl = walletPnlOver({ indexer, referenceData: pipeline.referenceData }, pipeline.versions);

  const transactions: WorldTransaction[] = [];
  for (const chain of manifest.chains) {
    const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    const onChain = await readWorldTransactions(client, chain.id, chain.endBlock);
    transactions.push(...onChain);
    // Indexed, written and readable: every transaction of the chain has its rows.
    await eventually(async () => {
      const [row] = await pipeline.database.clickhouse.query<{ count: string }>(
        sql`SELECT uniqExact(block_hash, transaction_index) AS count FROM wallet_transactions WHERE chain_id = ${chain.id}`,
      );
      expect(Number(row!.count)).toBe(onChain.length);
    }, 180_000);
  }
  transactions.sort(historyOrder);
  wallets = [...new Set(manifest.chains.flatMap((chain) => chain.wallets.map((wallet) => wallet.address.toLowerCase())))];
  for (const wallet of wallets) stepsByWallet.set(wallet, walletSteps(wallet, transactions));
  facts = await lookUpAssetFacts(transactions);

  // Windows from the world's block times: since about 40% through the activity, till about 80%.
  const activity = manifest.chains.flatMap((chain) => transactions.filter((tx) => tx.chainId === chain.id && tx.blockNumber >= chain.activityStartBlock));
  const times = [...new Set(activity.map((tx) => tx.timestamp))].sort((a, b) => a - b);
  const at = (fraction: number) => times[Math.floor(fraction * (times.length - 1))]!;
  windows = { now: {}, 'since and till': { since: at(0.4), till: at(0.8) }, since: { since: at(0.4) } };
}, 600_000);

afterAll(async () => {
  indexer?.close();
  await pipeline?.close();
});

const request = (wallet: string, window: Window, fungibleIds: string[] = []): PnlRequest => ({
  context,
  addresses: [wallet],
  chainIds: manifest.chains.map((chain) => chain.id),
  currency: 'usd',
  fungibleIds,
  fungibleImplementations: [],
  ...window,
});

/** Rule 9: left out when there is no price now, or the fungible was unpriced at a movement up to `till`. */
function excludedKeys(all: Map<string, Ledger>, window: Window, priceNow: (key: string) => number | undefined): string[] {
  return [...all.values()]
    .filter((ledger) => priceNow(ledger.key) === undefined || (ledger.firstUnpriced !== undefined && ledger.firstUnpriced <= (window.till ?? Infinity)))
    .map((ledger) => ledger.key)
    .sort();
}

/** The independent FIFO's ledgers of a wallet in a window, which of them are left out, and the price now of each. */
function expectedFor(wallet: string, window: Window) {
  const ledgers = replay(stepsByWallet.get(wallet)!, facts, window);
  // Rule 8: any implementation the wallet moved prices the key now; the first one moved here.
  const priceNow = (key: string) => {
    const [chainId, address] = ledgers.get(key)!.implementations[0]!.split(/:(.*)/s) as [string, string];
    return facts.priceNow(chainId, address);
  };
  const excluded = excludedKeys(ledgers, window, priceNow);
  const kept = [...ledgers.values()].filter((ledger) => !excluded.includes(ledger.key));
  return { ledgers, priceNow, excluded, kept };
}

/** Each attribute of `expected` that `actual` does not match within the tolerance, with where it was. */
function differences(where: object, actual: Record<string, number> | undefined, expected: Record<string, number>): object[] {
  if (!actual) return [{ ...where, missing: 'no figures from the service', fifo: expected }];
  return Object.entries(expected)
    .filter(
      ([attribute, value]) =>
        !(typeof actual[attribute] === 'number' && close(actual[attribute]!, value, Math.max(basisOf(actual, attribute), basisOf(expected, attribute)))),
    )
    .map(([attribute, value]) => ({ ...where, attribute, service: actual[attribute], fifo: value }));
}

/** Per window, what was held against the service: printed at the end, for the record. */
const compared = new Map<string, { wallets: number; requests: number; fungibles: number; transactions: number }>();

describe.each(['now', 'since and till', 'since'] as const)('every world wallet against the independent FIFO, %s', (windowName) => {
  test('figures, each fungible breakdown and the excluded fungibles agree', async () => {
    const window = windows[windowName];
    const mismatches: object[] = [];
    const counts = { wallets: wallets.length, requests: 0, fungibles: 0, transactions: 0 };
    compared.set(windowName, counts);
    for (const wallet of wallets) {
      const steps = stepsByWallet.get(wallet)!;
      const { ledgers, priceNow, excluded, kept } = expectedFor(wallet, window);
      const keys = [...ledgers.keys()].sort();
      const where = { wallet, window: windowName, ...window };

      const all: PnlResult = await pnl.compute(request(wallet, window));
      if (JSON.stringify(all.excludedFungibleIds) !== JSON.stringify(excluded))
        mismatches.push({ ...where, excludedFungibleIds: { service: all.excludedFungibleIds, fifo: excluded } });
      mismatches.push(
        ...differences({ ...where, fungible: 'all' }, all.figures as unknown as Record<string, number>, { ...figuresOf(kept, (key) => priceNow(key)!) }),
      );

      if (keys.length > 0) {
        const byFungible = await pnl.compute(request(wallet, window, keys));
        if (JSON.stringify(byFungible.excludedFungibleIds) !== JSON.stringify(excluded))
          mismatches.push({ ...where, breakdownExcluded: { service: byFungible.excludedFungibleIds, fifo: excluded } });
        const extra = [...(byFungible.breakdown?.entries.keys() ?? [])].filter((key) => !kept.some((ledger) => ledger.key === key));
        if (extra.length > 0) mismatches.push({ ...where, breakdownKeysNotKeptByFifo: extra });
        for (const ledger of kept) {
          const expected = { ...figuresOf([ledger], (key) => priceNow(key)!), ...averagePricesOf(ledger) };
          mismatches.push(
            ...differences({ ...where, fungible: ledger.key }, byFungible.breakdown?.entries.get(ledger.key) as unknown as Record<string, number>, expected),
          );
        }
      }
      counts.requests += keys.length > 0 ? 2 : 1;
      counts.fungibles += kept.length;
      counts.transactions += steps.filter(({ transaction }) => transaction.timestamp <= (window.till ?? Infinity)).length;
    }
    expect(mismatches.slice(0, 40)).toEqual([]);
  }, 600_000);
});

test('a wallet set of the two busiest wallets: each keeps lots of its own, the figures are both ledgers summed', async () => {
  const [first, second] = [...wallets].sort((a, b) => stepsByWallet.get(b)!.length - stepsByWallet.get(a)!.length);
  const window = windows['since and till'];
  const [a, b] = [expectedFor(first!, window), expectedFor(second!, window)];
  const excluded = [...new Set([...a.excluded, ...b.excluded])].sort();
  const kept = [...a.kept, ...b.kept].filter((ledger) => !excluded.includes(ledger.key));
  const priceNow = (key: string) => (a.ledgers.has(key) ? a.priceNow(key) : b.priceNow(key))!;
  const set = await pnl.compute({ ...request(first!, window), addresses: [first!, second!] });
  expect(set.excludedFungibleIds).toEqual(excluded);
  expect(differences({ wallets: [first, second] }, set.figures as unknown as Record<string, number>, { ...figuresOf(kept, priceNow) })).toEqual([]);
});

test('in another currency every amount is the reference-data rate times the USD one, percentages alike', async () => {
  // The bundled rates reference-data converts with (FX_RATES_FILE unset in tests).
  const fx = JSON.parse(readFileSync(new URL('../../reference-data/config/fx-rates.json', import.meta.url), 'utf8')) as { rates: Record<string, number> };
  const rate = fx.rates.eur!;
  const percentages = new Set(['relativeTotalGainPercentage', 'relativeRealizedGainPercentage', 'relativeUnrealizedGainPercentage']);
  const mismatches: object[] = [];
  for (const wallet of wallets) {
    const { priceNow, kept } = expectedFor(wallet, windows.now);
    const usd = figuresOf(kept, (key) => priceNow(key)!) as unknown as Record<string, number>;
    const expected = Object.fromEntries(Object.entries(usd).map(([attribute, value]) => [attribute, percentages.has(attribute) ? value : value * rate]));
    const served = await pnl.compute({ ...request(wallet, windows.now), currency: 'eur' });
    mismatches.push(...differences({ wallet, currency: 'eur' }, served.figures as unknown as Record<string, number>, expected));
  }
  expect(mismatches.slice(0, 40)).toEqual([]);
});

afterAll(() => {
  for (const [windowName, counts] of compared) {
    console.log(
      `pnl world, ${windowName}: ${counts.wallets} wallets, ${counts.requests} requests, ${counts.fungibles} fungible breakdowns, ${counts.transactions} wallet transactions replayed`,
    );
  }
});
