import type { Logger } from '@wallet-api/core/logger';
import type { SubscriptionChange, SubscriptionStore } from '../store/subscription-store.js';
import type { SubscriptionIndex } from './subscription-index.js';

/** What the index is built and kept in step from: the subscription tables. */
export type IndexSource = Pick<SubscriptionStore, 'changesAfter' | 'loadIndexSnapshot' | 'walletPages' | 'loadSubscriptionSettings' | 'loadWallets'>;

export interface IndexSync {
  /** Builds the index from scratch. */
  load(): Promise<void>;
  /** Applies the changes committed since the last load or refresh; concurrent calls share one pass. */
  refresh(): Promise<void>;
}

const changePage = 5_000;

export function createIndexSync({ source, index, logger }: { source: IndexSource; index: SubscriptionIndex; logger: Logger }): IndexSync {
  let applied = 0n;
  let running: Promise<void> | undefined;
  let again = false;

  async function reload(id: string, withWallets: boolean): Promise<void> {
    const entry = await source.loadSubscriptionSettings(id);
    if (!entry) {
      index.remove(id);
      return;
    }
    index.put(entry);
    if (withWallets) {
      index.clearWallets(id);
      index.addWallets(id, await source.loadWallets(id));
    }
  }

  async function apply(change: SubscriptionChange): Promise<void> {
    switch (change.kind) {
      case 'created':
        return reload(change.subscriptionId, true);
      case 'replaced':
        return reload(change.subscriptionId, true);
      case 'settings':
        return reload(change.subscriptionId, false);
      case 'wallets':
        // A subscription the index has not seen yet (its creation comes first in the log) is loaded whole.
        if (!index.subscription(change.subscriptionId)) return reload(change.subscriptionId, true);
        index.addWallets(change.subscriptionId, change.added);
        index.removeWallets(change.subscriptionId, change.removed);
        return;
      case 'deleted':
        index.remove(change.subscriptionId);
        return;
    }
  }

  async function pass(): Promise<void> {
    for (;;) {
      const changes = await source.changesAfter(applied, changePage);
      for (const change of changes) {
        await apply(change);
        applied = change.id;
      }
      if (changes.length < changePage) return;
    }
  }

  return {
    async load() {
      // Changes committed while the snapshot is read are applied again afterwards: each is idempotent.
      const started = Date.now();
      const snapshot = await source.loadIndexSnapshot();
      applied = snapshot.changeId;
      for (const entry of snapshot.subscriptions) index.put(entry);
      for await (const page of source.walletPages(50_000)) {
        for (const { subscriptionId, addresses } of page.wallets) index.addWallets(subscriptionId, addresses);
      }
      await pass();
      logger.info({ subscriptions: index.subscriptionCount, wallets: index.walletCount, ms: Date.now() - started }, 'subscription index loaded');
    },
    async refresh() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await pass();
          } while (again);
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
  };
}
