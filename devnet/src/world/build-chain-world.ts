import type { Address, Hash } from 'viem';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainSession } from '../chain/index.js';
import type { Artifacts } from '../compile/index.js';
import type { ChainWorld, ReorgRecord, WalletRecord } from '../manifest/index.js';
import { createRng, type Rng } from './rng.js';
import type { ActionContext, ActionResult, ActionSpec, ProtocolModule } from './types.js';
import { deployMulticall3 } from './multicall3.js';
import { deployerAddress, walletAddress } from './wallets.js';

export interface ChainWorldSpec {
  id: string;
  seed: string;
  walletCount: number;
  days: number;
  /** Unix seconds of the last activity block; fixed per world so a seed always gives the same chain. */
  endTimestamp: number;
  /** Share of the wallets that are active on this chain (at least a few always are). */
  participation: number;
  /** Average number of actions per participating wallet over the whole history. */
  actionsPerWallet: number;
  reorgCount: number;
  // biome-ignore lint/suspicious/noExplicitAny: modules differ in their manifest type; each is used only with its own
  modules: readonly ProtocolModule<any>[];
  artifacts: Artifacts;
  logger: Logger;
}

const day = 86_400;
const deployerFunds = 10n ** 27n;

/** Genesis of a world's chain: one day of deployments before the activity window. */
export function genesisTimestamp(spec: Pick<ChainWorldSpec, 'endTimestamp' | 'days'>): number {
  return spec.endTimestamp - (spec.days + 1) * day;
}

interface PlannedAction extends ActionResult {
  wallet: Address;
}

function activityTimeline(rng: Rng, blocks: number, start: number, end: number): number[] {
  const span = (end - start) / blocks;
  return Array.from({ length: blocks }, (_, index) => Math.floor(start + span * (index + rng.next() * 0.9)) + index);
}

/**
 * Builds one chain's world on a fresh anvil: deploys Multicall3 where production chains have it,
 * then every protocol module, onboards wallets over the first part of the history with funds sent
 * by real transactions, then lets wallets act block by block across `days` of chain time, with
 * reorgs at chosen heights. Returns the chain's manifest (without its RPC URL, which depends on
 * where the world is later loaded).
 */
export async function buildChainWorld(session: ChainSession, spec: ChainWorldSpec): Promise<Omit<ChainWorld, 'rpcUrl'>> {
  const rng = createRng(`${spec.seed}/${spec.id}`);
  const deployer = deployerAddress(spec.seed);
  const started = Date.now();
  await session.setBalance(deployer, deployerFunds);

  const genesis = genesisTimestamp(spec);
  let deployClock = genesis + 60;
  await deployMulticall3(session, spec.artifacts, (deployClock += 12));
  const deployed: Record<string, unknown> = {};
  for (const module of spec.modules) {
    deployed[module.name] = await module.deploy({
      session,
      artifacts: spec.artifacts,
      deployer,
      seed: spec.seed,
      days: spec.days,
      rng: rng.fork(`deploy/${module.name}`),
      clock: () => (deployClock += 12),
      deployed,
    });
  }
  const activityStartBlock = Number(await session.client.getBlockNumber()) + 1;
  // biome-ignore lint/suspicious/noExplicitAny: modules differ in their manifest type; each is used only with its own
  const actionSpecs: { module: ProtocolModule<any>; spec: ActionSpec }[] = spec.modules.flatMap((module) =>
    module.actions(deployed[module.name]).map((action) => ({ module, spec: action })),
  );

  const everyone = Array.from({ length: spec.walletCount }, (_, index) => walletAddress(spec.seed, index));
  const participationRng = rng.fork('participation');
  let wallets = everyone.filter(() => participationRng.chance(spec.participation));
  if (wallets.length < Math.min(3, everyone.length)) wallets = everyone.slice(0, Math.min(3, everyone.length));

  // Every chain of a world has its activity blocks at the same times (the block count and the
  // timeline depend on the world, not the chain), so the market's blocks before them set every
  // chain's pools to the same reference prices at the same moments: one price at any time.
  const worldPerBlock = Math.max(2, Math.min(200, Math.ceil(spec.walletCount / 2)));
  const blockCount = Math.max(20, Math.ceil((spec.walletCount * spec.actionsPerWallet) / worldPerBlock));
  const activePerBlock = Math.max(2, Math.min(200, Math.ceil((wallets.length * spec.actionsPerWallet) / blockCount)));
  if (deployClock + 60 > genesis + day) throw new Error(`deployments on ${spec.id} ran past the first day of the world`);
  const timeline = activityTimeline(createRng(`${spec.seed}/timeline`), blockCount, genesis + day, spec.endTimestamp);
  timeline[timeline.length - 1] = spec.endTimestamp;

  // Wallets join over the first 40% of the history; at least two are there from the first block
  // so that every action has counterparties.
  const joinRng = rng.fork('join');
  const joinIndex = new Map<Address, number>(wallets.map((wallet, index) => [wallet, index < 2 ? 0 : joinRng.int(0, Math.floor(blockCount * 0.4))]));
  const reorgRng = rng.fork('reorgs');
  const reorgAt = new Map<number, number>();
  // After the joining window, so no orphaned block held a wallet's first funds, and never reaching
  // back past the previous reorg, whose replacement blocks the manifest records as canonical.
  let previous = Math.floor(blockCount * 0.4);
  for (let index = 0; index < spec.reorgCount; index++) {
    const at = Math.floor(blockCount * (0.45 + (0.5 * (index + 1)) / (spec.reorgCount + 1)));
    if (at - previous < 2) continue;
    reorgAt.set(at, reorgRng.int(1, Math.min(10, at - previous - 1)));
    previous = at;
  }

  const records = new Map<Address, WalletRecord>();
  const labelSets = new Map<Address, Set<string>>();
  const actionsByBlock = new Map<number, PlannedAction[]>();
  const minedBlocks: { number: number; hash: Hash; timestamp: number }[] = [];
  const reorgs: ReorgRecord[] = [];
  const totals = { sent: 0, failedAsPlanned: 0, failedUnplanned: 0, marketTrades: 0 };
  const actionRng = rng.fork('actions');
  const joined: Address[] = [];

  for (let blockIndex = 0; blockIndex < blockCount; blockIndex++) {
    const timestamp = timeline[blockIndex]!;
    const context: ActionContext = { session, rng: actionRng, timestamp, wallets: joined, deployer, deployed };
    const newcomers = wallets.filter((wallet) => joinIndex.get(wallet) === blockIndex);
    await makeMarket(spec, context, deployed, minedBlocks, totals);
    const planned: PlannedAction[] = [];
    for (const wallet of newcomers) {
      const value = actionRng.bigint(5n * 10n ** 17n, 25n * 10n ** 18n);
      planned.push({ wallet, label: 'faucet:receive-eth', hashes: [await session.send({ from: deployer, to: wallet, value, gas: 21_000n })] });
      for (const module of spec.modules) await module.fund?.(context, deployed[module.name], wallet);
    }
    const active = actionRng.shuffle(joined).slice(0, activePerBlock);
    for (const wallet of active) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const choice = actionRng.weighted(actionSpecs.map((entry) => ({ weight: entry.spec.weight, value: entry })));
        const result = await choice.spec.run(context, wallet);
        if (result) {
          planned.push({ ...result, wallet: result.actor ?? wallet });
          break;
        }
      }
    }
    joined.push(...newcomers);

    const block = await session.mine(timestamp);
    minedBlocks.push({ number: Number(block.number), hash: block.hash, timestamp: block.timestamp });
    actionsByBlock.set(Number(block.number), planned);
    for (const action of planned) {
      for (const [position, hash] of action.hashes.entries()) {
        const receipt = block.receipts.get(hash);
        totals.sent++;
        if (receipt?.status === 'success') continue;
        // Only the last transaction of an action that plans a failure is meant to fail.
        if (action.expectFailure && position === action.hashes.length - 1) totals.failedAsPlanned++;
        else {
          totals.failedUnplanned++;
          spec.logger.warn({ chain: spec.id, label: action.label, wallet: action.wallet, hash }, 'a transaction failed that was meant to succeed');
        }
      }
    }

    const depth = reorgAt.get(blockIndex);
    if (depth !== undefined) reorgs.push(await reorg(session, depth, minedBlocks, actionsByBlock));
  }

  const finalContext: ActionContext = { session, rng: actionRng, timestamp: spec.endTimestamp, wallets: joined, deployer, deployed };
  for (const module of spec.modules) await module.finalize?.(finalContext, deployed[module.name]);

  for (const [blockNumber, planned] of actionsByBlock) {
    for (const action of planned) {
      const record = records.get(action.wallet) ?? { address: action.wallet, kind: 'eoa' as const, labels: [], joinedAtBlock: blockNumber };
      records.set(action.wallet, record);
      const labels = labelSets.get(action.wallet) ?? new Set<string>();
      labelSets.set(action.wallet, labels);
      if (!labels.has(action.label)) {
        labels.add(action.label);
        record.labels.push(action.label);
      }
    }
  }
  for (const section of Object.values(deployed)) {
    const smart = (section as { wallets?: { address: Address; kind: 'safe' | 'smart-account' }[] }).wallets;
    for (const wallet of smart ?? []) {
      const record = records.get(wallet.address);
      if (record) record.kind = wallet.kind;
      else records.set(wallet.address, { address: wallet.address, kind: wallet.kind, labels: [], joinedAtBlock: activityStartBlock });
    }
  }

  const end = await session.client.getBlock({ blockTag: 'latest' });
  spec.logger.info(
    { chain: spec.id, wallets: wallets.length, blocks: blockCount, ...totals, reorgs: reorgs.length, seconds: (Date.now() - started) / 1000 },
    'chain world built',
  );
  return {
    id: spec.id,
    chainId: session.chainId,
    deployer,
    genesisTimestamp: genesis,
    activityStartBlock,
    endBlock: Number(end.number),
    endTimestamp: Number(end.timestamp),
    endBlockHash: end.hash!,
    protocols: deployed,
    wallets: [...records.values()].sort((a, b) => a.joinedAtBlock - b.joinedAtBlock || a.address.localeCompare(b.address)),
    reorgs,
    transactions: totals,
  };
}

/**
 * The market's own block, a second before the wallets' block: arbitrage settles first, so the
 * wallets quote and trade against the prices it set (trading in the same block would move prices
 * under their slippage limits). No block when every pool is in its band.
 */
async function makeMarket(
  spec: ChainWorldSpec,
  context: ActionContext,
  deployed: Record<string, unknown>,
  minedBlocks: { number: number; hash: Hash; timestamp: number }[],
  totals: { marketTrades: number; failedUnplanned: number },
): Promise<void> {
  const previous = minedBlocks.at(-1)?.timestamp ?? 0;
  if (context.timestamp - 1 <= previous) return;
  const hashes: Hash[] = [];
  for (const module of spec.modules) hashes.push(...((await module.market?.(context, deployed[module.name])) ?? []));
  if (hashes.length === 0) return;
  const block = await context.session.mine(context.timestamp - 1);
  minedBlocks.push({ number: Number(block.number), hash: block.hash, timestamp: block.timestamp });
  for (const hash of hashes) {
    totals.marketTrades++;
    if (block.receipts.get(hash)?.status === 'success') continue;
    totals.failedUnplanned++;
    spec.logger.warn({ chain: spec.id, hash }, 'a market trade failed');
  }
}

/**
 * Replaces the last `depth` blocks with as many empty ones, their transactions dropped for good:
 * the chain keeps its height and changes its hashes, as an indexer sees a reorg. Rolling back and
 * mining at chosen timestamps (rather than `anvil_reorg`, which stamps the new blocks from the
 * wall clock) keeps the world the same for the same seed.
 */
async function reorg(
  session: ChainSession,
  depth: number,
  minedBlocks: { number: number; hash: Hash; timestamp: number }[],
  actionsByBlock: Map<number, PlannedAction[]>,
): Promise<ReorgRecord> {
  const orphaned = minedBlocks.splice(minedBlocks.length - depth, depth);
  const tip = orphaned[orphaned.length - 1]!.number;
  const ancestor = await session.client.getBlock({ blockNumber: BigInt(tip - depth) });
  await session.client.request({ method: 'anvil_rollback' as never, params: [depth] as never });
  await session.client.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never });
  session.resetNonces();
  const replacement: { number: number; hash: Hash; timestamp: number }[] = [];
  for (const block of orphaned) {
    actionsByBlock.delete(block.number);
    const mined = await session.mine(block.timestamp + 1);
    if (Number(mined.number) !== block.number) throw new Error(`reorg replacement mined block ${mined.number}, expected ${block.number}`);
    replacement.push({ number: block.number, hash: mined.hash, timestamp: mined.timestamp });
  }
  minedBlocks.push(...replacement);
  const strip = (blocks: typeof replacement) => blocks.map(({ number, hash }) => ({ number, hash }));
  return { tip, depth, commonAncestor: { number: Number(ancestor.number), hash: ancestor.hash! }, orphaned: strip(orphaned), replacement: strip(replacement) };
}
