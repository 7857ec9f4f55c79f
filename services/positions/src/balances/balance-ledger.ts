import { mapConcurrently } from '@wallet-api/core/async';
import type { Logger } from '@wallet-api/core/logger';
import type { Address, Hash } from 'viem';
import type { ChainDirectory } from '../chain/chain-directory.js';
import type { PositionsMetrics } from '../metrics/positions-metrics.js';
import {
  balanceKey,
  type BalanceEntry,
  type BalanceKey,
  type BalanceStore,
  type BlockRef,
  type BlockState,
  type KnownBlock,
  type Opening,
} from '../store/balance-store.js';
import { firstReadPoints, type ReadPoint } from './read-points.js';

export interface ChainRollbackEvent {
  chainId: string;
  commonAncestor: BlockRef;
  orphanedBlockHashes: readonly string[];
  sequence: bigint;
}

export interface BalanceLedger {
  /** Entries of the balance-change topic; balances seen for the first time get their opening read from the chain. */
  applyEntries(entries: readonly BalanceEntry[]): Promise<void>;
  /** Blocks of the block topic: canonical. Answers whether one of them had been orphaned (its entries count again). */
  applyBlocks(states: readonly BlockState[]): Promise<{ revived: boolean }>;
  /** One rollback: its blocks orphaned, and the openings read at them read again at its common ancestor. */
  applyRollback(rollback: ChainRollbackEvent): Promise<void>;
}

export interface BalanceLedgerOptions {
  store: BalanceStore;
  chains: ChainDirectory;
  logger: Logger;
  metrics: PositionsMetrics;
}

/** A rollback or an opening read can race at most this often in a row before the batch is handed back to Kafka. */
const maxAttempts = 5;

/** The chain could not answer for openings; the batch fails and Kafka delivers it again. */
class OpeningReadError extends Error {}

/**
 * Balances as the chain has them: an opening read from the chain the first time a balance is seen
 * (credits in no transaction, such as genesis allocations or what was held before the indexer's
 * start block, reach no topic) plus the entries after it. RPC cost follows new balances, never
 * messages: a balance is read once, and again only when a rollback orphans the block it was read
 * at. Nothing is applied without its opening: when the chain cannot answer, the batch fails.
 */
export function createBalanceLedger(options: BalanceLedgerOptions): BalanceLedger {
  const { store, chains, logger, metrics } = options;

  /** Reads the balances at each block; timestamps of blocks that have none are read too. */
  async function readOpenings(chainId: string, wanted: readonly { key: BalanceKey; point: ReadPoint }[]): Promise<Opening[]> {
    if (wanted.length === 0) return [];
    const byBlock = new Map<string, { key: BalanceKey; point: ReadPoint }[]>();
    for (const item of wanted) {
      const items = byBlock.get(item.point.blockHash);
      if (items) items.push(item);
      else byBlock.set(item.point.blockHash, [item]);
    }
    try {
      const solana = await chains.solanaReader(chainId);
      if (solana) {
        const read = await solana.currentBalances(wanted.map(({ key }) => ({ wallet: key.wallet, asset: key.asset })));
        const openings = wanted.map(({ key, point }, index): Opening => {
          const { slot, amount } = read[index]!;
          // Entries up to the slot read at are inside the amount; the entry that asked is at least that old.
          const blockNumber = slot > point.blockNumber ? slot : point.blockNumber;
          return { ...key, blockHash: point.blockHash, blockNumber, blockTimestamp: point.blockTimestamp ?? 0n, amount };
        });
        metrics.openingReads.inc({ chain: chainId, outcome: 'read' }, openings.length);
        return openings;
      }
      const reader = await chains.reader(chainId);
      if (!reader) throw new OpeningReadError(`no EVM or Solana RPC endpoint is configured for chain ${chainId}`);
      // Two blocks at a time: each block's reads already go in waves as large as a node takes at once.
      const openings = (
        await mapConcurrently([...byBlock], 2, async ([blockHash, items]) => {
          const [amounts, timestamp] = await Promise.all([
            reader.balancesAt(
              blockHash as Hash,
              items.map(({ key }) => ({ wallet: key.wallet as Address, asset: key.asset as Address | '' })),
              items[0]!.point.blockNumber,
            ),
            items[0]!.point.blockTimestamp ?? reader.blockAt(blockHash as Hash).then((block) => block.timestamp),
          ]);
          return items.map(({ key, point }, index): Opening => {
            const amount = amounts[index];
            if (amount === undefined) {
              logger.warn({ chainId, wallet: key.wallet, token: key.asset, blockHash }, 'token answered balanceOf with nothing usable; its balance opens at 0');
            }
            return { ...key, blockHash, blockNumber: point.blockNumber, blockTimestamp: timestamp, amount: amount ?? 0n };
          });
        })
      ).flat();
      metrics.openingReads.inc({ chain: chainId, outcome: 'read' }, openings.length);
      return openings;
    } catch (error) {
      metrics.openingReads.inc({ chain: chainId, outcome: 'failed' }, wanted.length);
      logger.error(
        { err: error, chainId, balances: wanted.length, blocks: [...byBlock.keys()] },
        'opening balances could not be read from the chain; nothing of the batch is applied and it is delivered again',
      );
      throw error instanceof OpeningReadError
        ? error
        : new OpeningReadError(`reading ${wanted.length} opening balances on ${chainId} failed: ${String((error as Error)?.message ?? error)}`, {
            cause: error,
          });
    }
  }

  /**
   * Where the openings of balances first seen in these entries are read: the earliest entry's
   * block, or for a balance seen only in orphaned blocks, the common ancestor of the rollback that
   * orphaned them (followed further down while that ancestor was orphaned in turn).
   */
  async function readPointsOf(
    chainId: string,
    entries: readonly BalanceEntry[],
    toOpen: readonly BalanceKey[],
  ): Promise<{ key: BalanceKey; point: ReadPoint }[]> {
    const known = await store.knownBlocks(chainId, [...new Set(entries.map((entry) => entry.blockHash))]);
    const points = firstReadPoints(entries, toOpen, (_, blockHash) => known.get(blockHash)?.orphaned === true);
    const resolved: { key: BalanceKey; point: ReadPoint }[] = [];
    for (const key of toOpen) {
      const point = points.get(balanceKey(key))!;
      if (!('orphaned' in point)) {
        resolved.push({ key, point });
        continue;
      }
      let block: KnownBlock | undefined = known.get(point.orphaned);
      let ancestor: BlockRef | undefined;
      while (block?.orphaned) {
        ancestor = block.ancestor;
        // A rollback recorded before ancestors were kept: nothing says where to read, and the
        // entries do not count; the balance is opened with its next entry in a canonical block.
        if (!ancestor) break;
        block = (await store.knownBlocks(chainId, [ancestor.hash])).get(ancestor.hash);
      }
      if (ancestor && !block?.orphaned) resolved.push({ key, point: { blockHash: ancestor.hash, blockNumber: ancestor.number } });
    }
    return resolved;
  }

  return {
    async applyEntries(entries) {
      if (entries.length === 0) return;
      // The store answers which balances have no opening; they are read and the batch applied again.
      let openings: Opening[] = [];
      let unopened: BalanceKey[] = [];
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const outcome = await store.applyEntries(entries, openings, unopened);
        if (outcome === 'applied') return;
        if (outcome === 'stale-opening') {
          logger.info({ attempt }, 'an opening was read at a block a rollback has since orphaned; reading again');
          openings = [];
          unopened = [];
          continue;
        }
        for (const chainId of new Set(outcome.missing.map((key) => key.chainId))) {
          const toOpen = outcome.missing.filter((key) => key.chainId === chainId);
          const wanted = await readPointsOf(
            chainId,
            entries.filter((entry) => entry.chainId === chainId),
            toOpen,
          );
          const placed = new Set(wanted.map(({ key }) => balanceKey(key)));
          unopened.push(...toOpen.filter((key) => !placed.has(balanceKey(key))));
          openings.push(...(await readOpenings(chainId, wanted)));
        }
      }
      throw new Error(`balance entries: openings kept being orphaned by rollbacks after ${maxAttempts} attempts`);
    },

    async applyBlocks(states) {
      // Blocks only ever become canonical here, which no opening depends on: a flip is a revival.
      const { flipped } = await store.applyBlockStates(states);
      return { revived: flipped > 0 };
    },

    async applyRollback({ chainId, commonAncestor, orphanedBlockHashes, sequence }) {
      const states: BlockState[] = orphanedBlockHashes.map((blockHash) => ({ chainId, blockHash, orphaned: true, sequence, ancestor: commonAncestor }));
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const stranded = await store.openedAt(chainId, orphanedBlockHashes);
        const reopened = await readOpenings(
          chainId,
          stranded.map((key) => ({ key, point: { blockHash: commonAncestor.hash, blockNumber: commonAncestor.number } })),
        );
        if ((await store.applyBlockStates(states, reopened)).outcome === 'applied') return;
        logger.info({ chainId, attempt }, 'an opening was written at an orphaned block while its rollback was read; reading again');
      }
      throw new Error(`rollback on ${chainId}: openings kept changing under it after ${maxAttempts} attempts`);
    },
  };
}
