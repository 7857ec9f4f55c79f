import { parseUnits } from 'viem';
import type { Rng } from '../../world/index.js';

/** Log-uniform in [min, max]: holdings spread over orders of magnitude, as real ones do. */
export function logUniform(rng: Rng, min: number, max: number): number {
  return Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min)));
}

/** `logUniform` whole tokens, in base units. */
export function logUniformUnits(rng: Rng, min: number, max: number, decimals: number): bigint {
  return parseUnits(logUniform(rng, min, max).toFixed(Math.min(decimals, 6)), decimals);
}

/** A share of `amount` drawn log-uniformly between the two fractions (rounded down). */
export function shareOf(rng: Rng, amount: bigint, minFraction: number, maxFraction: number): bigint {
  const millionths = BigInt(Math.floor(logUniform(rng, minFraction, maxFraction) * 1_000_000));
  return (amount * millionths) / 1_000_000n;
}

/**
 * Rounds down to two significant digits, so amounts look typed by a person (120 USDC,
 * 0.035 ETH) rather than computed; amounts below 100 base units are kept as they are.
 */
export function roundDown(amount: bigint): bigint {
  let scale = 1n;
  while (amount / scale >= 100n) scale *= 10n;
  return (amount / scale) * scale;
}

/** People type round amounts more often than not. */
export function humanAmount(rng: Rng, amount: bigint): bigint {
  return rng.chance(0.6) ? roundDown(amount) : amount;
}
