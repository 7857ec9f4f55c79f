// Benchmark: the fungibles list's search index, in-process and without infrastructure.
// Generates N registry-like fungibles (pronounceable names of one to three words, 3-5 letter
// symbols), builds the index (reporting its build time), then runs the same queries through the
// index's `search` and, in the same run, through a bare Array.filter over lowercase names and
// symbols (`includes`, the floor any scan costs). Queries: symbol prefixes of 1-4 letters, name
// prefixes, mid-word substrings and misses, in equal parts. Prints p50/p99 per query of both and
// checks both find the same fungibles for queries of three characters or more.
//   pnpm bench:fungibles-search [--fungibles 10000] [--queries 4000] [--rounds 3]
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createFungibleSearchIndex, minSubstringLength, type IndexedFungible } from '../services/reference-data/src/fungibles/fungible-search-index.js';

const { values } = parseArgs({
  options: {
    fungibles: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '3' },
  },
});
const fungibleCount = Number(values.fungibles);
const queryCount = Number(values.queries);
const rounds = Number(values.rounds);

/** A small deterministic generator (mulberry32): the same fungibles and queries every run. */
function rng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(19);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const syllables = ['ba', 'ko', 'ri', 'tan', 'vel', 'mo', 'zen', 'qua', 'lu', 'dor', 'fi', 'sha', 'nex', 'pro', 'gal', 'ter', 'ox', 'yu', 'cry', 'mint'];
const word = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join('');
const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);

const fungibles: IndexedFungible[] = Array.from({ length: fungibleCount }, (_, index) => {
  const name = Array.from({ length: 1 + Math.floor(random() * 3) }, () => capital(word())).join(' ');
  const symbol = word()
    .slice(0, 3 + Math.floor(random() * 3))
    .toUpperCase();
  return {
    id: `f${index}`,
    name,
    symbol,
    verified: random() < 0.2,
    native: false,
    implementations: [{ chainId: 'ethereum', address: `0x${index.toString(16).padStart(40, '0')}` }],
    assetClass: undefined,
  };
});

const queries = Array.from({ length: queryCount }, (_, index) => {
  const fungible = pick(fungibles);
  switch (index % 4) {
    case 0:
      return fungible.symbol.slice(0, 1 + Math.floor(random() * 4)).toLowerCase();
    case 1:
      return fungible.name.slice(0, 3 + Math.floor(random() * 5));
    case 2: {
      const start = 1 + Math.floor(random() * Math.max(1, fungible.name.length - 4));
      return fungible.name.slice(start, start + 3 + Math.floor(random() * 3)).toLowerCase();
    }
    default:
      return `zq${word()}`;
  }
});

const buildStart = performance.now();
const index = createFungibleSearchIndex(fungibles);
const buildMs = performance.now() - buildStart;

const lowered = fungibles.map((fungible) => ({ fungible, symbol: fungible.symbol.toLowerCase(), name: fungible.name.toLowerCase() }));
const bareFilter = (query: string) => {
  const wanted = query.trim().toLowerCase();
  return lowered.filter((entry) => entry.symbol.includes(wanted) || entry.name.includes(wanted));
};

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function time(run: (query: string) => unknown[]): { p50: number; p99: number; found: number } {
  const samples: number[] = [];
  let found = 0;
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const start = performance.now();
      found += run(query).length;
      samples.push(performance.now() - start);
    }
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), found: found / rounds };
}

// Both find the same fungibles for queries of three characters or more (shorter ones match
// prefixes only in the index, by design; the bare filter finds every substring).
for (const query of queries.filter((entry) => entry.trim().length >= minSubstringLength).slice(0, 300)) {
  const viaIndex = new Set(index.search(query).map((match) => match.fungible.id));
  const missing = bareFilter(query).filter((entry) => !viaIndex.has(entry.fungible.id));
  if (missing.length > 0) throw new Error(`the index misses ${missing.length} fungibles for ${JSON.stringify(query)}`);
}

// Warm both up before timing, so neither pays for the other's JIT.
time((query) => index.search(query));
time(bareFilter);
const viaIndex = time((query) => index.search(query));
const viaFilter = time(bareFilter);
const micro = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`fungibles ${fungibleCount}, queries ${queryCount} x ${rounds} rounds; index built in ${buildMs.toFixed(1)} ms`);
console.log(`search index      p50 ${micro(viaIndex.p50)}  p99 ${micro(viaIndex.p99)}  matches/query ${(viaIndex.found / queryCount).toFixed(1)}`);
console.log(`bare Array.filter p50 ${micro(viaFilter.p50)}  p99 ${micro(viaFilter.p99)}  matches/query ${(viaFilter.found / queryCount).toFixed(1)}`);
console.log(`speed-up          p50 ${(viaFilter.p50 / viaIndex.p50).toFixed(1)}x  p99 ${(viaFilter.p99 / viaIndex.p99).toFixed(1)}x`);
