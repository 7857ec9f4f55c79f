import type { ChangeVersions } from '@wallet-api/core/cache';
import { unavailable } from '@wallet-api/core/grpc';
import type { Logger } from '@wallet-api/core/logger';
import type { Address } from 'viem';
import type { ChainDirectory } from '../chain/chain-directory.js';
import type { PositionsMetrics } from '../metrics/positions-metrics.js';
import type { ProtocolHoldings } from '../positions/position-rows.js';
import type { BalanceStore } from '../store/balance-store.js';
import type { ProtocolSnapshot, SnapshotKey, SnapshotStore } from '../store/snapshot-store.js';
import type { ProtocolDirectory } from './protocol-directory.js';

export interface HoldingsRequest {
  wallet: string;
  chainIds: readonly string[];
  /** Re-read every chain first, waiting at most the sync timeout. */
  sync: boolean;
  /** Per chain, the ERC-20s the wallet holds (pairs outside the registry are found among them). */
  heldTokens: ReadonlyMap<string, readonly string[]>;
  /** The wallet's stored snapshots of these chains, when the caller has them (HeldWallets): none are read again. */
  stored?: readonly ProtocolSnapshot[];
}

export interface ProtocolHoldingsSource {
  /** The wallet's protocol positions per chain; chains without protocols are left out. */
  holdings(request: HoldingsRequest): Promise<ProtocolHoldings[]>;
  /**
   * Re-reads these snapshots in the background, without waiting for a request: their pools moved
   * or their wallets touched a protocol, so what they hold in protocols changed on chain.
   */
  refreshSoon(snapshots: readonly SnapshotKey[]): void;
  /** Lets background refreshes finish. */
  close(): Promise<void>;
}

export interface ProtocolHoldingsOptions {
  chains: ChainDirectory;
  protocols: ProtocolDirectory;
  snapshots: SnapshotStore;
  logger: Logger;
  metrics: PositionsMetrics;
  /** How long a sync waits for the chain. */
  syncTimeoutMs: number;
  /** How long a request without sync waits for a wallet's first read (no snapshot yet). */
  firstReadTimeoutMs: number;
  /** A snapshot older than this is refreshed in the background like a stale one. */
  maxSnapshotAgeMs: number;
  /** Background refreshes at once; more wait their turn. */
  refreshConcurrency: number;
  /** A refreshed snapshot changes the wallet's answers. */
  versions: ChangeVersions;
  /** The ERC-20s the wallet holds on the chain, for a refresh no request asked for (refreshSoon). */
  heldTokensOf(wallet: string, chainId: string): Promise<string[]>;
}

const timedOut = Symbol('timed out');

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Protocol positions read from the chain by the adapters and kept as snapshots. A request is
 * answered from the snapshot; a missing one is read on demand (positions never answer 202), a
 * stale or old one is served while a background refresh replaces it, and sync re-reads first.
 * Concurrent reads of one wallet and chain share one chain read.
 */
export function createProtocolHoldings(options: ProtocolHoldingsOptions): ProtocolHoldingsSource {
  const { chains, protocols, snapshots, logger, metrics } = options;
  const inFlight = new Map<string, Promise<ProtocolHoldings>>();
  const queued = new Map<string, () => Promise<unknown>>();
  let running = 0;

  function refresh(chainId: string, wallet: string, heldTokens: readonly string[]): Promise<ProtocolHoldings> {
    const key = `${chainId}:${wallet}`;
    const current = inFlight.get(key);
    if (current) return current;
    const reading = (async () => {
      const stopTimer = metrics.refreshSeconds.startTimer({ chain: chainId });
      try {
        const reader = await chains.reader(chainId);
        const { adapters } = await protocols.protocols(chainId);
        if (!reader) throw new Error(`chain ${chainId} has no RPC endpoint for protocol positions`);
        const readAt = new Date();
        const block = await reader.latestBlock();
        const read = await Promise.all(adapters.map((adapter) => adapter.read({ reader, wallet: wallet as Address, blockNumber: block.number, heldTokens })));
        const holdings = { chainId, positions: read.flat(), blockNumber: block.number, readAt };
        await snapshots.write({ ...holdings, wallet });
        await options.versions.walletsChanged([wallet], 'holdings');
        metrics.refreshes.inc({ chain: chainId, outcome: 'read' });
        return holdings;
      } catch (error) {
        metrics.refreshes.inc({ chain: chainId, outcome: 'failed' });
        throw error;
      } finally {
        stopTimer();
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, reading);
    return reading;
  }

  function drain(): void {
    while (running < options.refreshConcurrency && queued.size > 0) {
      const [key, task] = queued.entries().next().value!;
      queued.delete(key);
      running++;
      void task().finally(() => {
        running--;
        drain();
      });
    }
  }

  function refreshInBackground(chainId: string, wallet: string, heldTokens: readonly string[] | (() => Promise<readonly string[]>)): void {
    const key = `${chainId}:${wallet}`;
    if (inFlight.has(key) || queued.has(key)) return;
    queued.set(key, async () => {
      try {
        await refresh(chainId, wallet, typeof heldTokens === 'function' ? await heldTokens() : heldTokens);
      } catch (error) {
        logger.warn({ err: error, chainId, wallet }, 'background refresh of protocol positions failed');
      }
    });
    drain();
  }

  return {
    async holdings(request) {
      const { wallet, sync } = request;
      const stored = new Map((request.stored ?? (await snapshots.find(wallet, request.chainIds))).map((snapshot) => [snapshot.chainId, snapshot]));
      const perChain = await Promise.all(
        request.chainIds.map(async (chainId): Promise<ProtocolHoldings | undefined> => {
          const [reader, { adapters }] = await Promise.all([chains.reader(chainId), protocols.protocols(chainId)]);
          if (!reader || adapters.length === 0) return undefined;
          const heldTokens = request.heldTokens.get(chainId) ?? [];
          const snapshot = stored.get(chainId);
          if (sync || !snapshot) {
            const fresh = await within(refresh(chainId, wallet, heldTokens), sync ? options.syncTimeoutMs : options.firstReadTimeoutMs).catch(
              (error: unknown) => {
                logger.warn({ err: error, chainId, wallet }, 'protocol positions could not be read from the chain');
                if (!snapshot) throw unavailable(`protocol positions on ${chainId} cannot be read right now; retry later`);
                return snapshot;
              },
            );
            if (fresh !== timedOut) return fresh;
            if (snapshot) return snapshot;
            throw unavailable(`protocol positions on ${chainId} could not be read in time; retry later`);
          }
          if (snapshot.stale || Date.now() - snapshot.readAt.getTime() > options.maxSnapshotAgeMs) refreshInBackground(chainId, wallet, heldTokens);
          return snapshot;
        }),
      );
      return perChain.filter((holdings): holdings is ProtocolHoldings => holdings !== undefined);
    },
    refreshSoon(keys) {
      for (const { chainId, wallet } of keys) refreshInBackground(chainId, wallet, () => options.heldTokensOf(wallet, chainId));
    },
    async close() {
      queued.clear();
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

/** ProtocolHoldingsOptions.heldTokensOf from the balances: the wallet's ERC-20s on the chain. */
export function heldTokensFrom(balances: Pick<BalanceStore, 'walletBalances'>): ProtocolHoldingsOptions['heldTokensOf'] {
  return async (wallet, chainId) => (await balances.walletBalances(wallet, [chainId])).flatMap((balance) => (balance.asset === '' ? [] : [balance.asset]));
}
