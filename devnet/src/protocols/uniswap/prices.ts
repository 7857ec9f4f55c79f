import type { UniswapToken } from './manifest.js';

/** A USD price as an exact fraction: meme tokens cost millionths of a dollar, bitcoin tens of thousands. */
export interface PriceFraction {
  numerator: bigint;
  denominator: bigint;
}

/** Prices are kept to four significant digits, so the decimal in the manifest is the exact price used. */
export function roundPrice(priceUsd: number): number {
  return Number(priceUsd.toPrecision(4));
}

/** `priceUsd` as an exact fraction of its first `significantDigits` digits (4: the manifest's prices). */
export function priceFraction(priceUsd: number, significantDigits = 4): PriceFraction {
  if (!(priceUsd > 0)) throw new Error(`price ${priceUsd} must be positive`);
  const [mantissa, exponent] = priceUsd.toExponential(significantDigits - 1).split('e') as [string, string];
  const digits = BigInt(mantissa.replace('.', ''));
  const power = Number(exponent) - (significantDigits - 1);
  return power >= 0 ? { numerator: digits * 10n ** BigInt(power), denominator: 1n } : { numerator: digits, denominator: 10n ** BigInt(-power) };
}

const usdScale = 1_000_000n;

/** Base units of `token` worth `usdE6` (USD with six decimals) at its reference price, rounded down. */
export function amountForUsd(token: UniswapToken, usdE6: bigint): bigint {
  const price = priceFraction(token.priceUsd);
  return (usdE6 * 10n ** BigInt(token.decimals) * price.denominator) / (price.numerator * usdScale);
}

/** USD with six decimals that `amount` base units of `token` are worth at its reference price, rounded down. */
export function usdValueE6(token: UniswapToken, amount: bigint): bigint {
  const price = priceFraction(token.priceUsd);
  return (amount * price.numerator * usdScale) / (price.denominator * 10n ** BigInt(token.decimals));
}
