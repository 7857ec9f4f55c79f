import { fromLimbs, toLimbs } from './amount-limbs.js';

const max = (1n << 256n) - 1n;

describe('amount limbs', () => {
  it.each([0n, 1n, -1n, 4_294_967_295n, 4_294_967_296n, -4_294_967_296n, 10n ** 27n, -(10n ** 27n) - 7n, max, -max])('%s round-trips', (amount) => {
    const limbs = toLimbs(amount);
    expect(limbs).toHaveLength(8);
    for (const limb of limbs) expect(Math.abs(limb)).toBeLessThanOrEqual(0xffffffff);
    expect(fromLimbs(limbs)).toBe(amount);
  });

  it('sums of limbs recombine to the exact total, also with opposite signs and carries', () => {
    const amounts = [max, -max + 5n, 10n ** 24n, -(10n ** 24n - 1n), 0xffffffffn, 1n, -3n];
    const sums = Array.from({ length: 8 }, (_, index) => amounts.reduce((sum, amount) => sum + BigInt(toLimbs(amount)[index]!), 0n).toString());
    expect(fromLimbs(sums)).toBe(amounts.reduce((sum, amount) => sum + amount, 0n));
  });

  it('refuses amounts of 256 bits', () => {
    expect(() => toLimbs(1n << 256n)).toThrow(RangeError);
    expect(() => toLimbs(-(1n << 256n))).toThrow(RangeError);
  });
});
