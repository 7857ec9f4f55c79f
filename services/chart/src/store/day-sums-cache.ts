import { LRUCache } from 'lru-cache';
import type { DaySums } from './day-sums.js';

export interface SummaryScope {
  addresses: readonly string[];
  chainIds: readonly string[];
}

export interface DaySumsCache {
  /** The scope's day sums up to `horizon`: kept ones while nothing they hold changed, else read. */
  get(scope: SummaryScope, horizon: number): Promise<DaySums>;
  /** These wallets gained changes on days that summaries hold. */
  changed(addresses: readonly string[]): void;
}

export interface DaySumsCacheOptions {
  read(scope: SummaryScope, horizon: number): Promise<DaySums>;
  /** The change token of rollbacks and revived blocks: a summary read under another one is read again. */
  everything(): Promise<string>;
  maxEntries: number;
}

interface Entry {
  everything: string;
  /** Each address's generation when the read started. */
  generations: number[];
  sums: Promise<DaySums>;
}

/**
 * Day sums per wallet (or wallet set), chains and horizon, so that a chart of a long history
 * reads its old days once. The chart service is the only writer of its rows: every change on a
 * summarised day passes `changed` (bumping its wallet's generation), and every orphaning or revival
 * of blocks replaces the `everything` token, so a summary is used only while both still match
 * those it was read under. A read racing a change is never kept under the newer generation.
 */
export function createDaySumsCache(options: DaySumsCacheOptions): DaySumsCache {
  const entries = new LRUCache<string, Entry>({ max: options.maxEntries });
  const generations = new Map<string, number>();
  const generationOf = (address: string) => generations.get(address) ?? 0;

  return {
    async get(scope, horizon) {
      const everything = await options.everything();
      const key = `${[...scope.addresses].sort().join(',')}|${[...scope.chainIds].sort().join(',')}|${horizon}`;
      const current = scope.addresses.map(generationOf);
      const kept = entries.get(key);
      if (kept && kept.everything === everything && kept.generations.every((generation, index) => generation === current[index])) return kept.sums;
      const sums = options.read(scope, horizon);
      entries.set(key, { everything, generations: current, sums });
      // A failed read is not kept.
      sums.catch(() => {
        if (entries.get(key)?.sums === sums) entries.delete(key);
      });
      return sums;
    },
    changed(addresses) {
      for (const address of new Set(addresses)) generations.set(address, generationOf(address) + 1);
    },
  };
}
