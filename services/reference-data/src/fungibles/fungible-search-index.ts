import type { TokenRef } from '@wallet-api/core/proto/reference_data';

/** One fungible the list can serve: a registry entry, a chain's native asset or a known token. */
export interface IndexedFungible {
  id: string;
  name: string;
  symbol: string;
  verified: boolean;
  native: boolean;
  /** Its implementations on every configured chain (both networks); '' for a native asset. */
  implementations: TokenRef[];
  /** The registry's asset class; undefined when unclassified. */
  assetClass: string | undefined;
}

/** How well a fungible matches a search, best first (spec 4.11 ranking). */
export enum MatchTier {
  ExactSymbol = 0,
  SymbolPrefix = 1,
  NamePrefix = 2,
  WordOrSubstring = 3,
}

export interface SearchMatch {
  fungible: IndexedFungible;
  tier: MatchTier;
}

export interface FungibleSearchIndex {
  readonly fungibles: readonly IndexedFungible[];
  byId(id: string): IndexedFungible | undefined;
  /** Fungibles with an implementation at `chainId:address` (EVM lowercase; '' for a native asset). */
  byImplementation(chainId: string, address: string): IndexedFungible | undefined;
  /** Fungibles with an implementation at `address` on any chain. */
  byAddress(address: string): IndexedFungible[];
  /** Every fungible whose symbol or name matches `query` (case-insensitive), each with its best tier, in no order. */
  search(query: string): SearchMatch[];
}

type Keyed = readonly [key: string, entry: number];

const byKey = (a: Keyed, b: Keyed) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);

/** The first position whose key is not below `key`. */
function lowerBound(sorted: readonly Keyed[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]![0] < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Calls `visit` with the key and entry of every key starting with `prefix` (a sorted run found by binary search). */
function forPrefix(sorted: readonly Keyed[], prefix: string, visit: (key: string, entry: number) => void): void {
  for (let index = lowerBound(sorted, prefix); index < sorted.length && sorted[index]![0].startsWith(prefix); index++)
    visit(sorted[index]![0], sorted[index]![1]);
}

/** Substrings past the prefixes are searched from this many characters on: shorter ones match nearly everything. */
export const minSubstringLength = 3;

const trigramsOf = (text: string): Set<string> => {
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= text.length; index++) grams.add(text.slice(index, index + 3));
  return grams;
};

/** EVM addresses are matched lowercase; Solana mints (base58) as written. */
export const canonicalAddress = (address: string) => (address.startsWith('0x') ? address.toLowerCase() : address);

/**
 * A search index built once over a set of fungibles: symbols, names and every later word of a
 * name in sorted arrays (prefix tiers found by binary search, so a query reads only what matches),
 * and a trigram index for substrings of three characters or more. One- and two-character queries
 * match prefixes of symbols, names and words only: as substrings they would match most of the list.
 */
export function createFungibleSearchIndex(fungibles: readonly IndexedFungible[]): FungibleSearchIndex {
  const symbols: Keyed[] = [];
  const names: Keyed[] = [];
  const words: Keyed[] = [];
  const haystacks: string[] = [];
  const trigrams = new Map<string, number[]>();
  const ids = new Map<string, IndexedFungible>();
  const implementations = new Map<string, IndexedFungible>();
  const addresses = new Map<string, IndexedFungible[]>();
  fungibles.forEach((fungible, entry) => {
    const symbol = fungible.symbol.trim().toLowerCase();
    const name = fungible.name.trim().toLowerCase();
    symbols.push([symbol, entry]);
    names.push([name, entry]);
    for (const word of name.split(/[^\p{L}\p{N}]+/u).slice(1)) if (word !== '') words.push([word, entry]);
    const haystack = `${symbol}\u0000${name}`;
    haystacks.push(haystack);
    for (const gram of trigramsOf(haystack)) {
      const list = trigrams.get(gram);
      if (list) list.push(entry);
      else trigrams.set(gram, [entry]);
    }
    ids.set(fungible.id, fungible);
    for (const ref of fungible.implementations) {
      const address = canonicalAddress(ref.address);
      implementations.set(`${ref.chainId}:${address}`, fungible);
      if (address !== '') addresses.set(address, [...(addresses.get(address) ?? []), fungible]);
    }
  });
  symbols.sort(byKey);
  names.sort(byKey);
  words.sort(byKey);

  /**
   * Entries whose haystack contains `query` (at least three characters): the rarest of its
   * trigrams' postings, each checked with `includes` (cheaper than intersecting the other lists).
   */
  function substrings(query: string): number[] {
    let rarest: number[] | undefined;
    for (const gram of trigramsOf(query)) {
      const list = trigrams.get(gram);
      if (!list) return [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return rarest!.filter((entry) => haystacks[entry]!.includes(query));
  }

  // Per entry, its best tier in the current search, valid while its stamp is the search's: no
  // per-search map of thousands of entries for a one-letter query. Searches run synchronously.
  const tierOf = new Int8Array(fungibles.length);
  const stampOf = new Uint32Array(fungibles.length);
  let stamp = 0;

  return {
    fungibles,
    byId: (id) => ids.get(id),
    byImplementation: (chainId, address) => implementations.get(`${chainId}:${canonicalAddress(address)}`),
    byAddress: (address) => addresses.get(canonicalAddress(address)) ?? [],
    search(query) {
      const wanted = query.trim().toLowerCase();
      if (wanted === '') return [];
      stamp = (stamp + 1) >>> 0 || 1;
      const hits: number[] = [];
      const offer = (entry: number, tier: MatchTier) => {
        if (stampOf[entry] !== stamp) {
          stampOf[entry] = stamp;
          tierOf[entry] = tier;
          hits.push(entry);
        } else if (tier < tierOf[entry]!) tierOf[entry] = tier;
      };
      forPrefix(symbols, wanted, (key, entry) => offer(entry, key === wanted ? MatchTier.ExactSymbol : MatchTier.SymbolPrefix));
      forPrefix(names, wanted, (_key, entry) => offer(entry, MatchTier.NamePrefix));
      forPrefix(words, wanted, (_key, entry) => offer(entry, MatchTier.WordOrSubstring));
      // The separator in a haystack keeps a query from matching across symbol and name.
      if (wanted.length >= minSubstringLength && !wanted.includes('\u0000')) for (const entry of substrings(wanted)) offer(entry, MatchTier.WordOrSubstring);
      return hits.map((entry) => ({ fungible: fungibles[entry]!, tier: tierOf[entry] as MatchTier }));
    },
  };
}
