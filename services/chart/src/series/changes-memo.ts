import { unpricedVersion, type ChangeVersions } from '@wallet-api/core/cache';
import type { ChartWindow } from '@wallet-api/core/charts';
import { LRUCache } from 'lru-cache';
import type { SeriesRequest, ChartStore } from '../store/chart-store.js';
import type { BucketedChanges } from './bucketed-changes.js';

export interface ChangesMemo {
  /** ChartStore.changes, from memory while the scope's wallets' chart tokens are those it was read under. */
  changes(scope: SeriesRequest, window: ChartWindow): Promise<BucketedChanges>;
}

export interface ChangesMemoOptions {
  store: Pick<ChartStore, 'changes'>;
  versions: Pick<ChangeVersions, 'walletTokens'>;
  /** Windows kept at most; the least recently used go first. */
  maxEntries: number;
}

/**
 * A wallet's balance changes bucketed for one window, kept under the `charts` token of each of its
 * wallets and the shared `everything` token: a price move changes neither, so the chart asked
 * again after one is valued from memory instead of read again from ClickHouse. The consumer marks
 * a wallet's token once its rows are readable, a rollback the shared one; the tokens are read
 * before the store is, so a change that lands during the read is read again by the next request.
 */
export function createChangesMemo(options: ChangesMemoOptions): ChangesMemo {
  const entries = new LRUCache<string, { version: string; changes: Promise<BucketedChanges> }>({ max: options.maxEntries });

  async function versionOf(scope: SeriesRequest): Promise<string | undefined> {
    try {
      // Every wallet's token in one MGET.
      return unpricedVersion(await options.versions.walletTokens(scope.addresses, ['charts']));
    } catch {
      // Redis cannot say whether a kept read is current: read the store.
      return undefined;
    }
  }

  return {
    async changes(scope, window) {
      const version = await versionOf(scope);
      if (version === undefined) return options.store.changes(scope, window);
      const key = `${scope.addresses.join(',')}|${scope.chainIds.join(',')}|${window.beginAt}|${window.endAt}|${window.intervalSeconds}`;
      const kept = entries.get(key);
      if (kept?.version === version) return kept.changes;
      const changes = options.store.changes(scope, window);
      entries.set(key, { version, changes });
      changes.catch(() => {
        if (entries.get(key)?.changes === changes) entries.delete(key);
      });
      return changes;
    },
  };
}
