/** A seeded generator: the same seed always yields the same world. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** bigint in [min, max]. */
  bigint(min: bigint, max: bigint): bigint;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; items with weight 0 are never picked. */
  weighted<T>(items: readonly { weight: number; value: T }[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** An independent generator derived from this one's seed and a label. */
  fork(label: string): Rng;
}

function hashSeed(seed: string): number {
  // FNV-1a, enough to spread string seeds over 32 bits.
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast and good enough for test data (not for anything secret). */
export function createRng(seed: string): Rng {
  let state = hashSeed(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    bigint(min, max) {
      const span = max - min + 1n;
      let value = 0n;
      for (let bits = 0n; 1n << bits < span * 1024n; bits += 32n) value = (value << 32n) | BigInt(Math.floor(next() * 2 ** 32));
      return min + (value % span);
    },
    chance: (probability) => next() < probability,
    pick(items) {
      if (items.length === 0) throw new Error('cannot pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted(items) {
      const total = items.reduce((sum, item) => sum + item.weight, 0);
      if (total <= 0) throw new Error('weighted pick needs a positive total weight');
      let point = next() * total;
      for (const item of items) {
        point -= item.weight;
        if (point < 0 && item.weight > 0) return item.value;
      }
      return items.findLast((item) => item.weight > 0)!.value;
    },
    shuffle(items) {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy;
    },
    fork: (label) => createRng(`${seed}/${label}`),
  };
  return rng;
}
