import type { Rng } from '../../world/index.js';

const multipliers = [1n, 2n, 5n];

/**
 * An amount out of `available` the way people pick them: often a round figure (1, 2 or 5 times a
 * power of ten, in whole tokens or cents of one) below 80% of what they have, otherwise a random
 * share between 3% and 70%. Never zero when something is available.
 */
export function chooseAmount(rng: Rng, available: bigint, decimals: number): bigint {
  if (available <= 0n) return 0n;
  if (rng.chance(0.4)) {
    const limit = (available * 8n) / 10n;
    const round: bigint[] = [];
    for (let exponent = -2; exponent <= 9; exponent++) {
      const scale = exponent + decimals;
      if (scale < 0) continue;
      for (const multiplier of multipliers) {
        const candidate = multiplier * 10n ** BigInt(scale);
        if (candidate <= limit) round.push(candidate);
      }
    }
    if (round.length > 0) return rng.pick(round.slice(-4));
  }
  const share = (available * BigInt(rng.int(300, 7_000))) / 10_000n;
  return share > 0n ? share : available;
}

/** A share of `total` between `minBps` and `maxBps` basis points. */
export function shareOf(rng: Rng, total: bigint, minBps: number, maxBps: number): bigint {
  return (total * BigInt(rng.int(minBps, maxBps))) / 10_000n;
}
