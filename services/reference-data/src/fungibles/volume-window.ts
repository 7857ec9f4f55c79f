import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';
import type { PriceStore, VolumeHistoryRow } from '../store/price-store.js';

/** Trading volumes over a trailing window, for market data. */
export interface VolumeWindow {
  /** USD value swapped of each token after `since` (unix seconds), keyed `<chain>:<token>`. */
  volumesSince(tokens: readonly { chainId: string; token: string }[], since: number): Promise<Map<string, number>>;
  /**
   * Reads the rows a price batch stored, under the tokens about to be in force, for the chains
   * asked about lately: the first call after the move then finds them kept instead of reading
   * ClickHouse while its caller waits.
   */
  prepare(tokens: SharedChangeTokens): Promise<void>;
}

export interface VolumeWindowOptions {
  store: Pick<PriceStore, 'volumeRows'>;
  /** Replaced by the price consumer after every stored batch (prices) and rollback (everything). */
  versions: Pick<ChangeVersions, 'everythingAndPrices'>;
  /** Rows this much older than the oldest `since` asked are kept, for callers whose clocks differ a little. */
  slackSeconds?: number;
  /** Chains asked about within this long are read ahead of each price move (`prepare`). */
  preparedForMs?: number;
}

interface ChainRows {
  /** Rows from this time on are all here. */
  from: number;
  /** The newest row's time: the next read starts there, as more rows of that second may come. */
  newest: number;
  /** The swaps kept at `newest`, so that reading that second again adds none twice. */
  atNewest: Set<string>;
  /** The prices token the rows were read under. */
  prices: string;
  /** When a call last summed them (ms): an idle window reads nothing per price move. */
  usedAt: number;
  /** Per token, its swaps' times and USD values in time order. */
  tokens: Map<string, { times: number[]; values: number[] }>;
}

/** The first index whose time is after `since`. */
function firstAfter(times: readonly number[], since: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! <= since) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The swaps of the trailing window kept in memory per chain. Swaps are stored in each chain's
 * block order and only a price move (the prices token) stores more, so after one the window reads
 * only the chain's rows from its newest second on; a rollback (the everything token) can rewrite
 * or orphan any row, so after one everything is read anew. Sums are taken at each call's own
 * `since`, so the window slides exactly.
 */
export function createVolumeWindow(options: VolumeWindowOptions): VolumeWindow {
  const { store, versions } = options;
  const slackSeconds = options.slackSeconds ?? 600;
  const preparedForMs = options.preparedForMs ?? 60_000;
  let everything = '';
  const chains = new Map<string, ChainRows>();
  /** One read per chain at a time; later callers find its result. */
  const queues = new Map<string, Promise<unknown>>();

  function add(rows: ChainRows, read: readonly VolumeHistoryRow[]): void {
    const fresh = read.filter((row) => row.timestamp > rows.newest || (row.timestamp === rows.newest && !rows.atNewest.has(`${row.token}:${row.swap}`)));
    fresh.sort((a, b) => a.timestamp - b.timestamp);
    for (const row of fresh) {
      let token = rows.tokens.get(row.token);
      if (!token) rows.tokens.set(row.token, (token = { times: [], values: [] }));
      token.times.push(row.timestamp);
      token.values.push(row.valueUsd);
      if (row.timestamp > rows.newest) {
        rows.newest = row.timestamp;
        rows.atNewest = new Set();
      }
      rows.atNewest.add(`${row.token}:${row.swap}`);
    }
  }

  function prune(rows: ChainRows, before: number): void {
    if (before <= rows.from) return;
    for (const [address, token] of rows.tokens) {
      const keep = firstAfter(token.times, before - 1);
      if (keep === token.times.length) rows.tokens.delete(address);
      else if (keep > 0) rows.tokens.set(address, { times: token.times.slice(keep), values: token.values.slice(keep) });
    }
    rows.from = before;
  }

  /** Adds the rows stored since the kept ones were read, unless they were read under `prices` already. */
  async function catchUp(chainId: string, kept: ChainRows, prices: string): Promise<void> {
    if (kept.prices === prices) return;
    add(kept, await store.volumeRows([chainId], kept.newest));
    kept.prices = prices;
  }

  /** The chain's rows from `since` on, current as of the prices token `prices`. */
  async function refresh(chainId: string, since: number, prices: string, underEverything: string): Promise<void> {
    if (everything !== underEverything) return;
    const kept = chains.get(chainId);
    if (!kept || since < kept.from) {
      const from = since - slackSeconds;
      const rows: ChainRows = { from, newest: from, atNewest: new Set(), prices, tokens: new Map(), usedAt: Date.now() };
      add(rows, await store.volumeRows([chainId], from));
      if (everything === underEverything) chains.set(chainId, rows);
      return;
    }
    kept.usedAt = Date.now();
    await catchUp(chainId, kept, prices);
    prune(kept, since - slackSeconds);
  }

  function queued(chainId: string, task: () => Promise<void>): Promise<void> {
    const run = (queues.get(chainId) ?? Promise.resolve()).then(task, task);
    const settled = run.catch(() => undefined);
    queues.set(chainId, settled);
    void settled.then(() => {
      if (queues.get(chainId) === settled) queues.delete(chainId);
    });
    return run;
  }

  return {
    async prepare(tokens) {
      // After a rollback the next call reads everything anew; there is nothing to add to.
      if (tokens.everything !== everything) return;
      const since = Date.now() - preparedForMs;
      await Promise.all(
        [...chains].map(([chainId, rows]) =>
          rows.usedAt < since
            ? undefined
            : queued(chainId, async () => {
                const kept = chains.get(chainId);
                if (kept && everything === tokens.everything) await catchUp(chainId, kept, tokens.prices);
              }),
        ),
      );
    },
    async volumesSince(tokens, since) {
      const volumes = new Map<string, number>();
      if (tokens.length === 0) return volumes;
      const chainIds = [...new Set(tokens.map((entry) => entry.chainId))];
      // A rollback announced while the rows are read drops them: read again under the new token.
      for (;;) {
        const current = await versions.everythingAndPrices();
        if (current.everything !== everything) {
          everything = current.everything;
          chains.clear();
        }
        // Each chain's sums are taken in the same turn as its refresh: a later caller's prune cannot come between.
        await Promise.all(
          chainIds.map((chainId) =>
            queued(chainId, async () => {
              await refresh(chainId, since, current.prices, current.everything);
              for (const { token } of tokens.filter((entry) => entry.chainId === chainId)) {
                const kept = chains.get(chainId)?.tokens.get(token);
                const first = kept ? firstAfter(kept.times, since) : 0;
                if (!kept || first === kept.times.length) continue;
                let sum = 0;
                for (let index = first; index < kept.times.length; index++) sum += kept.values[index]!;
                volumes.set(`${chainId}:${token}`, sum);
              }
            }),
          ),
        );
        if (everything === current.everything) return volumes;
        volumes.clear();
      }
    },
  };
}
