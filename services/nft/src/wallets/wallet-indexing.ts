import type { ChangeVersions } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainClients } from '../chain/chain-clients.js';
import type { OpeningReader } from '../ownership/opening-reader.js';
import type { BlockRef, OwnershipStore, WalletOpening } from '../store/ownership-store.js';
import type { TokenStore } from '../store/token-store.js';

export interface WalletIndexing {
  /**
   * Whether the wallet's first read from the chain is done on every one of the chains. When it is
   * not, the reads of the chains missing are started (once; a failed one again on the next ask).
   */
  ready(wallet: string, chainIds: readonly string[]): Promise<boolean>;
  /** Reads again, at the rollback's common ancestor, the openings read at blocks it orphaned. */
  reopen(openings: readonly { chainId: string; wallet: string }[], ancestor: BlockRef): Promise<void>;
  /** Waits for the reads in flight. */
  close(): Promise<void>;
}

/** A read whose block a rollback orphaned before it was saved is read again, this often at most. */
const maxStaleReads = 3;

export function createWalletIndexing(options: {
  store: OwnershipStore;
  tokens: TokenStore;
  reader: OpeningReader;
  clients: ChainClients;
  versions: ChangeVersions;
  logger: Logger;
  /** Wallet reads running at once; more wait their turn. */
  concurrency: number;
}): WalletIndexing {
  const { store, tokens, reader, clients, versions, logger } = options;
  const inFlight = new Map<string, Promise<void>>();
  const queue: (() => void)[] = [];
  let running = 0;

  async function turn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= options.concurrency) await new Promise<void>((resolve) => queue.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      queue.shift()?.();
    }
  }

  async function save(opening: WalletOpening): Promise<'saved' | 'stale'> {
    await tokens.ensure(
      opening.holdings.map((holding) => ({ chainId: opening.chainId, contract: holding.contract, tokenId: holding.tokenId, standard: holding.standard })),
    );
    return store.saveOpening(opening);
  }

  /**
   * Reads at the newest block the indexer published, so that a reorganisation of it reaches this
   * service as a rollback. Before the chain's first block arrives there is nothing to read at: the
   * wallet stays indexing, and the next request tries again.
   */
  async function open(chainId: string, wallet: string): Promise<void> {
    for (let attempt = 1; attempt <= maxStaleReads; attempt++) {
      const newest = await store.newestBlock(chainId);
      if (!newest) return;
      const opening = await reader.read(chainId, wallet, newest);
      if ((await save(opening)) === 'saved') {
        await versions.walletsChanged([wallet], 'nfts');
        logger.info({ chainId, wallet, block: newest.number.toString(), nfts: opening.holdings.length }, 'wallet NFTs read from the chain');
        return;
      }
    }
    throw new Error(`the blocks ${wallet} was read at on ${chainId} kept being orphaned`);
  }

  return {
    async ready(wallet, chainIds) {
      const opened = await store.openedChains(wallet, chainIds);
      const missing = chainIds.filter((chainId) => !opened.has(chainId));
      for (const chainId of missing) {
        const key = `${chainId}|${wallet}`;
        if (inFlight.has(key)) continue;
        const read = turn(() => open(chainId, wallet))
          .catch((error: unknown) =>
            logger.warn({ err: error, chainId, wallet }, 'reading the wallet NFTs from the chain failed; the next request tries again'),
          )
          .finally(() => inFlight.delete(key));
        inFlight.set(key, read);
      }
      return missing.length === 0;
    },

    async reopen(openings, ancestor) {
      for (const { chainId, wallet } of openings) {
        const client = await clients.client(chainId);
        if (!client) continue;
        const block = await client.getBlock({ blockHash: ancestor.hash as `0x${string}` });
        const opening = await reader.read(chainId, wallet, { ...ancestor, timestamp: block.timestamp });
        // Stale here means a later rollback orphaned the ancestor too; that rollback reopens it in turn.
        await save(opening);
      }
    },

    async close() {
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
