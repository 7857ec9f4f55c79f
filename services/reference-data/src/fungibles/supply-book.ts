import type { ChangeVersions } from '@wallet-api/core/cache';
import type { TokenSupply } from './token-supply.js';

/** A total supply (no holder) or one holder's balance of an ERC-20 implementation. */
export interface SupplyRead {
  chainId: string;
  token: string;
  holder?: string;
}

/** Supplies for market data, read from the chains ahead of the requests that need them. */
export interface SupplyBook {
  /** Each read's amount in base units, in read order: never from before the newest price move, nor older than the book's age limit. */
  read(reads: readonly SupplyRead[]): Promise<bigint[]>;
  /**
   * Reads again, under the tokens about to be in force, what calls used lately: the market data
   * computed after a price move then finds every supply read already.
   */
  prepare(tokens: { everything: string; prices: string }): Promise<void>;
}

export interface SupplyBookOptions {
  supply: TokenSupply;
  /** Replaced by the price consumer after every price move (prices) and rollback (everything). */
  versions: Pick<ChangeVersions, 'everythingAndPrices'>;
  /** A supply is read again after this long whatever the tokens: mints and burns are not price moves. */
  maxAgeMs?: number;
  /** Supplies used within this long are read ahead of each price move. */
  preparedForMs?: number;
  /** Milliseconds since 1970. */
  now?: () => number;
}

interface Entry {
  amount: Promise<bigint>;
  readAt: number;
}

const keyOf = (read: SupplyRead) => `${read.chainId}:${read.token}:${read.holder ?? ''}`;

/**
 * Market data holds supplies as of the newest price move: GetFungibles after a move (the moment
 * every valued answer in the gateway is computed again, the requests arriving meanwhile waiting
 * for it) read a total supply per implementation and a balance per non-circulating holder from
 * the chains, tens of calls to nodes that are busiest exactly then. The price consumer now has
 * the supplies read lately read again before it announces the move, and calls find them here.
 */
export function createSupplyBook(options: SupplyBookOptions): SupplyBook {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 15_000;
  const preparedForMs = options.preparedForMs ?? 60_000;
  /** Per `everything/prices` tokens, the reads made under them: those in force, and those prepared for the next. */
  const generations = new Map<string, Map<string, Entry>>();
  /** When a call last asked for each read. */
  const usedAt = new Map<string, number>();
  let inForce = '';

  function fetch(read: SupplyRead): Promise<bigint> {
    return read.holder === undefined ? options.supply.totalSupply(read.chainId, read.token) : options.supply.balanceOf(read.chainId, read.token, read.holder);
  }

  /** Starts a read kept under `tokens`; a failed one is forgotten, so the next call reads again. */
  function remember(tokens: string, key: string, read: SupplyRead): Entry {
    let generation = generations.get(tokens);
    if (!generation) generations.set(tokens, (generation = new Map()));
    const entry: Entry = { amount: fetch(read), readAt: now() };
    generation.set(key, entry);
    entry.amount.catch(() => {
      if (generation.get(key) === entry) generation.delete(key);
    });
    return entry;
  }

  return {
    async read(reads) {
      if (reads.length === 0) return [];
      const current = await options.versions.everythingAndPrices();
      const tokens = `${current.everything}/${current.prices}`;
      inForce = tokens;
      const at = now();
      return Promise.all(
        reads.map((read) => {
          const key = keyOf(read);
          usedAt.set(key, at);
          const kept = generations.get(tokens)?.get(key);
          if (kept && at - kept.readAt < maxAgeMs) return kept.amount;
          return remember(tokens, key, read).amount;
        }),
      );
    },
    async prepare(next) {
      const tokens = `${next.everything}/${next.prices}`;
      for (const kept of [...generations.keys()]) if (kept !== tokens && kept !== inForce) generations.delete(kept);
      const since = now() - preparedForMs;
      for (const [key, at] of usedAt) if (at < since) usedAt.delete(key);
      // A failed read is the next call's to make again; the move is not held up by it.
      await Promise.all(
        [...usedAt.keys()].map((key) => {
          const [chainId, token, holder] = key.split(':') as [string, string, string];
          return remember(tokens, key, { chainId, token, ...(holder === '' ? {} : { holder }) }).amount.catch(() => undefined);
        }),
      );
    },
  };
}
