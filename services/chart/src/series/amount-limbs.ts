/** Limbs per amount: 8 x 32 bits covers every uint256 transfer and its negation. */
export const limbCount = 8;
const limbBits = 32n;
const limbMask = (1n << limbBits) - 1n;
const limit = 1n << (limbBits * BigInt(limbCount));

export type Limbs = [number, number, number, number, number, number, number, number];

/**
 * A signed amount as eight signed 32-bit limbs, each carrying the amount's sign: their weighted
 * sum (limb i times 2^(32 i)) is the amount, and sums of limbs over many rows recombine to the
 * rows' exact total (see migration 0009). Refuses amounts of 256 bits or more.
 */
export function toLimbs(amount: bigint): Limbs {
  const negative = amount < 0n;
  let rest = negative ? -amount : amount;
  if (rest >= limit) throw new RangeError(`amount ${amount} does not fit in ${limbCount} limbs`);
  const limbs = [] as unknown as Limbs;
  for (let index = 0; index < limbCount; index++) {
    const limb = Number(rest & limbMask);
    limbs.push(negative && limb !== 0 ? -limb : limb);
    rest >>= limbBits;
  }
  return limbs;
}

/** The exact amount of limbs or of limb sums (as ClickHouse returns Int64 sums: decimal strings). */
export function fromLimbs(limbs: readonly (number | string | bigint)[]): bigint {
  let total = 0n;
  for (let index = limbs.length - 1; index >= 0; index--) total = (total << limbBits) + BigInt(limbs[index]!);
  return total;
}
