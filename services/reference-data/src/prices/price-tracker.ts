import type { Logger } from '@wallet-api/core/logger';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import type { PoolEventStore } from '../store/pool-event-store.js';
import { poolEventKey } from '../store/pool-event-store.js';
import type { PriceStore } from '../store/price-store.js';
import { groupByBlock, type ChainPoolEvent, type PoolBlock } from './chain-pool-event.js';
import { createPriceBook, type PricingRules } from './price-book.js';
import { foldBlocks, poolState, type ChainFold, type PoolMeta } from './price-fold.js';
import type { PoolTrust } from './pool-trust.js';

/**
 * Folds each chain's pool events, in block order, into token prices and keeps them in
 * ClickHouse. Idempotent: events already stored are skipped (a message's rows are written before
 * the message itself, so a stored event's prices are stored too). Survives rollbacks: the pools
 * touched by orphaned blocks are reloaded from the stored canonical events below the fork, and
 * what was folded since is folded again, rewriting the rows computed from the orphaned state.
 */
export interface PriceTracker {
  /** Events of any chains, each chain's in chain order. */
  apply(events: readonly ChainPoolEvent[]): Promise<void>;
  rollback(rollback: ChainRollback): Promise<void>;
}

export interface PriceTrackerOptions {
  /** Routing of a chain's prices; a chain without is stored but not priced. */
  rules(chainId: string): PricingRules | undefined;
  trust(chainId: string): PoolTrust | undefined;
  /** Decimals of the ERC-20 tokens among `tokens`; others are absent. */
  decimals(chainId: string, tokens: readonly string[]): Promise<Map<string, number>>;
  events: PoolEventStore;
  prices: PriceStore;
  logger: Logger;
  /** Heights of folded blocks remembered for rollbacks; a deeper rollback reloads every pool. */
  recentDepth?: bigint;
  /**
   * How long a batch that starts a new branch waits for the rollback of the old one (published
   * before it, on another topic) before it reloads the pools below the new branch by itself.
   */
  rollbackWaitMs?: number;
}

interface ChainState {
  fold: ChainFold | undefined;
  /** Per pool: its token decimals if trusted, null if it sets no price. */
  metas: Map<string, PoolMeta | null>;
  queue: Promise<unknown>;
}

type StepResult = { done: true } | { done: false; rest: ChainPoolEvent[]; forkHeight: bigint; oldBranch: Set<string> };

export function createPriceTracker(options: PriceTrackerOptions): PriceTracker {
  const { events: eventStore, prices: priceStore, logger } = options;
  const recentDepth = options.recentDepth ?? 1_000n;
  const rollbackWaitMs = options.rollbackWaitMs ?? 10_000;
  const chains = new Map<string, ChainState>();

  function chainState(chainId: string): ChainState {
    let state = chains.get(chainId);
    if (!state) chains.set(chainId, (state = { fold: undefined, metas: new Map(), queue: Promise.resolve() }));
    return state;
  }

  /** Runs `task` after the chain's earlier tasks: one chain's state changes one task at a time. */
  function locked<T>(chainId: string, task: () => Promise<T>): Promise<T> {
    const state = chainState(chainId);
    const run = state.queue.then(task, task);
    state.queue = run.catch(() => undefined);
    return run;
  }

  /** Trust and decimals of the pools not seen before; an untrusted pool is asked about again next time (the trust check remembers settled answers). */
  async function resolveMetas(chainId: string, state: ChainState, events: readonly ChainPoolEvent[]): Promise<void> {
    const unknown = new Map<string, ChainPoolEvent>();
    for (const event of events) if (!state.metas.has(event.pool)) unknown.set(event.pool, event);
    if (unknown.size === 0) return;
    const trust = options.trust(chainId);
    const candidates = [...unknown.values()];
    const verdicts = await Promise.all(candidates.map((event) => trust?.isTrusted(event) ?? false));
    const trusted = candidates.filter((_, index) => verdicts[index]);
    const decimals = await options.decimals(chainId, [...new Set(trusted.flatMap((event) => [event.token0, event.token1]))]);
    for (const event of trusted) {
      const [decimals0, decimals1] = [decimals.get(event.token0), decimals.get(event.token1)];
      state.metas.set(event.pool, decimals0 !== undefined && decimals1 !== undefined ? { decimals0, decimals1 } : null);
    }
  }

  const metaOf = (state: ChainState) => (event: ChainPoolEvent) => state.metas.get(event.pool) ?? undefined;

  async function setPools(chainId: string, state: ChainState, fold: ChainFold, latest: readonly ChainPoolEvent[]): Promise<void> {
    await resolveMetas(chainId, state, latest);
    for (const event of latest) {
      const meta = state.metas.get(event.pool);
      if (meta) fold.book.setPool(poolState(event, meta));
    }
  }

  async function load(chainId: string, state: ChainState, rules: PricingRules): Promise<ChainFold> {
    if (state.fold) return state.fold;
    const head = await eventStore.head(chainId);
    const floor = head ? head.number - recentDepth : -1n;
    const fold: ChainFold = {
      book: createPriceBook(rules),
      head,
      recent: head ? (await eventStore.blocksAfter(chainId, floor)).map((block) => ({ ...block, pools: new Set(block.pools) })) : [],
      recentFloor: floor,
    };
    await setPools(chainId, state, fold, await eventStore.latestStates(chainId));
    fold.book.repriceAll();
    state.fold = fold;
    return fold;
  }

  /** Back to the canonical state at `forkHeight`; with `replay`, stored canonical events above it are folded again. */
  async function refold(chainId: string, state: ChainState, rules: PricingRules, forkHeight: bigint, replay: boolean): Promise<void> {
    const fold = await load(chainId, state, rules);
    if (forkHeight >= fold.recentFloor) {
      const touched = new Set(fold.recent.filter((block) => block.number > forkHeight).flatMap((block) => [...block.pools]));
      fold.recent = fold.recent.filter((block) => block.number <= forkHeight);
      for (const pool of touched) fold.book.removePool(pool);
      await setPools(chainId, state, fold, await eventStore.latestStates(chainId, { atMost: forkHeight, pools: [...touched] }));
    } else {
      fold.book = createPriceBook(rules);
      fold.recentFloor = forkHeight - recentDepth;
      fold.recent = (await eventStore.blocksAfter(chainId, fold.recentFloor))
        .filter((block) => block.number <= forkHeight)
        .map((block) => ({ ...block, pools: new Set(block.pools) }));
      await setPools(chainId, state, fold, await eventStore.latestStates(chainId, { atMost: forkHeight }));
    }
    fold.book.repriceAll();
    fold.head = await eventStore.head(chainId, forkHeight);
    if (!replay) return;
    const again = await eventStore.eventsAfter(chainId, forkHeight);
    if (again.length === 0) return;
    await resolveMetas(chainId, state, again);
    const blocks = groupByBlock(again);
    const rewrite = await priceStore.tokensWithRowsAt(
      chainId,
      blocks.map((block) => block.hash),
    );
    await priceStore.write(chainId, foldBlocks(fold, blocks, { meta: metaOf(state), collapse: false, rewrite, recentDepth }));
  }

  /** Folds and stores events up to the first block of another branch, which it hands back. */
  async function step(chainId: string, rules: PricingRules, batch: readonly ChainPoolEvent[]): Promise<StepResult> {
    const state = chainState(chainId);
    try {
      const fold = await load(chainId, state, rules);
      const [stored, orphaned] = await Promise.all([
        eventStore.storedKeys(chainId, batch),
        eventStore.orphanedAmong(
          chainId,
          batch.map((event) => event.blockHash),
        ),
      ]);
      // A consumer behind the indexer meets blocks whose rollback it has already handled: they never count.
      const fresh = batch.filter((event) => !stored.has(poolEventKey(event)) && !orphaned.has(event.blockHash));
      const blocks = groupByBlock(fresh);
      let head = fold.head;
      let cut = blocks.length;
      for (const [index, block] of blocks.entries()) {
        if (head && (block.number < head.number || (block.number === head.number && block.hash !== head.hash))) {
          cut = index;
          break;
        }
        head = block;
      }
      const folding: PoolBlock[] = blocks.slice(0, cut);
      const foldingEvents = folding.flatMap((block) => block.events);
      await resolveMetas(chainId, state, foldingEvents);
      await priceStore.write(chainId, foldBlocks(fold, folding, { meta: metaOf(state), collapse: true, recentDepth }));
      await eventStore.insert(foldingEvents);
      if (cut === blocks.length) return { done: true };
      const forkHeight = blocks[cut]!.number - 1n;
      return {
        done: false,
        rest: blocks.slice(cut).flatMap((block) => block.events),
        forkHeight,
        oldBranch: new Set(fold.recent.filter((block) => block.number > forkHeight).map((block) => block.hash)),
      };
    } catch (error) {
      // Whatever was folded in memory may not be stored: start again from the store.
      state.fold = undefined;
      throw error;
    }
  }

  async function waitForRollback(chainId: string, oldBranch: ReadonlySet<string>): Promise<boolean> {
    const deadline = Date.now() + rollbackWaitMs;
    for (;;) {
      const fold = chainState(chainId).fold;
      if (!fold?.recent.some((block) => oldBranch.has(block.hash))) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function applyChain(chainId: string, events: readonly ChainPoolEvent[]): Promise<void> {
    const rules = options.rules(chainId);
    if (!rules) {
      await locked(chainId, async () => {
        const stored = await eventStore.storedKeys(chainId, events);
        await eventStore.insert(events.filter((event) => !stored.has(poolEventKey(event))));
      });
      return;
    }
    let rest: readonly ChainPoolEvent[] = events;
    while (rest.length > 0) {
      const result = await locked(chainId, () => step(chainId, rules, rest));
      if (result.done) return;
      if (!(await waitForRollback(chainId, result.oldBranch))) {
        logger.warn({ chainId, forkHeight: result.forkHeight.toString() }, 'pool events of a new branch arrived without a rollback; reloading pools below it');
        await locked(chainId, () => refold(chainId, chainState(chainId), rules, result.forkHeight, false));
      }
      rest = result.rest;
    }
  }

  return {
    async apply(events) {
      const byChain = new Map<string, ChainPoolEvent[]>();
      for (const event of events) {
        let list = byChain.get(event.chainId);
        if (!list) byChain.set(event.chainId, (list = []));
        list.push(event);
      }
      await Promise.all([...byChain].map(([chainId, list]) => applyChain(chainId, list)));
    },

    async rollback(rollback) {
      const chainId = rollback.chainId;
      await locked(chainId, async () => {
        await eventStore.recordRollback(rollback);
        const rules = options.rules(chainId);
        const state = chainState(chainId);
        if (!rules || !state.fold) return;
        const orphaned = new Set(rollback.orphanedBlockHashes.map((hash) => hash.toLowerCase()));
        if (!state.fold.recent.some((block) => orphaned.has(block.hash))) return;
        try {
          await refold(chainId, state, rules, BigInt(rollback.commonAncestorNumber), true);
        } catch (error) {
          state.fold = undefined;
          throw error;
        }
      });
    },
  };
}
