import { unary } from '../grpc/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { Fungible, GetFungiblesResponse, ReferenceDataClient, TokenRef } from '../generated/proto/reference_data.js';
import { inBatches } from './reference-data-batches.js';

/** The fungibles (spec 2.2) of the tokens a response shows, from reference-data's GetFungibles. */
export interface FungibleDirectory {
  /**
   * The fungibles of `tokens` in `currency` as GetFungibles describes them to `context` (its
   * add-ons decide `asset_class`); tokens it does not know have none. One GetFungibles call for a
   * response of ordinary size, asking each implementation once; a token another lookup is asking
   * for under the same generation waits for that call.
   */
  lookup(context: RequestContext, currency: string, tokens: readonly TokenRef[], generation?: string): Promise<Fungible[]>;
  /** Whether answers are kept (`ttlMs` above 0): only then does a lookup ahead of time spare a later one. */
  readonly keepsAnswers: boolean;
}

export interface FungibleDirectoryOptions {
  /**
   * How long an answer (a fungible, or that a token has none) is reused for the same currency and
   * caller entitlements. Market data moves with every block: keep it short; 0 asks every time.
   */
  ttlMs: number;
  /**
   * A token that changes whenever market data may have (ChangeVersions.everything): answers kept
   * under another are asked again, so a price move already applied is never answered from before
   * it. When it cannot be read, everything is asked. A caller that read it already passes it to
   * `lookup` instead.
   */
  generation?: () => Promise<string>;
  /** Answers kept at most; the oldest go first. */
  maxEntries?: number;
  /** Milliseconds since 1970. */
  now?: () => number;
}

interface Entry {
  /** Undefined: GetFungibles knows no fungible at this implementation. */
  fungible: Fungible | undefined;
  expiresAt: number;
  generation: string;
}

const implementationKey = (chainId: string, address: string) => `${chainId}:${address.toLowerCase()}`;

export function createFungibleDirectory(referenceData: ReferenceDataClient, options: FungibleDirectoryOptions): FungibleDirectory {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 50_000;
  const entries = new Map<string, Entry>();
  /** Implementations being asked for, by key: the call's generation and the fungible it will answer. */
  const asking = new Map<string, { generation: string; fungible: Promise<Fungible | undefined> }>();

  function remember(key: string, entry: Entry): void {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  async function ask(context: RequestContext, currency: string, tokens: readonly TokenRef[]): Promise<Fungible[]> {
    const answers: GetFungiblesResponse[] = await Promise.all(
      inBatches(tokens).map((implementations) =>
        unary(referenceData, referenceData.getFungibles, { context, currency, fungibleIds: [], implementations }, { name: 'ReferenceData/GetFungibles' }),
      ),
    );
    return answers.flatMap((answer) => answer.fungibles);
  }

  return {
    keepsAnswers: options.ttlMs > 0,
    async lookup(context, currency, tokens, given) {
      const unique = [...new Map(tokens.map((token) => [implementationKey(token.chainId, token.address), token])).values()];
      if (options.ttlMs <= 0) return unique.length === 0 ? [] : ask(context, currency, unique);

      // Everything of the context that can change GetFungibles' answer; the organization itself does not.
      const scope = [context.network, [...context.roles].sort().join(','), [...context.addons].sort().join(','), currency].join('|');
      const keyOf = (chainId: string, address: string) => `${scope}|${implementationKey(chainId, address)}`;
      const at = now();
      // Read before asking: an entry kept under this token was asked after the token was set.
      const generation = given ?? (options.generation ? await options.generation().catch(() => undefined) : '');
      if (generation === undefined) return unique.length === 0 ? [] : ask(context, currency, unique);
      const known = new Set<Fungible>();
      const missing: TokenRef[] = [];
      const awaited: Promise<Fungible | undefined>[] = [];
      for (const token of unique) {
        const key = keyOf(token.chainId, token.address);
        const entry = entries.get(key);
        if (entry !== undefined && entry.expiresAt > at && entry.generation === generation) {
          if (entry.fungible) known.add(entry.fungible);
          continue;
        }
        const running = asking.get(key);
        if (running?.generation === generation) awaited.push(running.fungible);
        else missing.push(token);
      }
      if (missing.length === 0 && awaited.length === 0) return [...known];

      if (missing.length > 0) {
        const asked = ask(context, currency, missing).then((answered) => {
          const expiresAt = at + options.ttlMs;
          for (const token of missing) remember(keyOf(token.chainId, token.address), { fungible: undefined, expiresAt, generation });
          for (const fungible of answered) {
            for (const implementation of fungible.implementations)
              remember(keyOf(implementation.chainId, implementation.address), { fungible, expiresAt, generation });
          }
          return answered;
        });
        // Lookups that need the same tokens meanwhile (every answer after a price move asks at once) wait for this call.
        for (const token of missing) {
          const key = keyOf(token.chainId, token.address);
          const implementation = implementationKey(token.chainId, token.address);
          const fungible = asked.then((answered) =>
            answered.find((candidate) => candidate.implementations.some((other) => implementationKey(other.chainId, other.address) === implementation)),
          );
          const call = { generation, fungible };
          asking.set(key, call);
          fungible.then(
            () => asking.get(key) === call && asking.delete(key),
            () => asking.get(key) === call && asking.delete(key),
          );
        }
        for (const fungible of await asked) known.add(fungible);
      }
      for (const fungible of await Promise.all(awaited)) if (fungible) known.add(fungible);
      return [...known];
    },
  };
}
