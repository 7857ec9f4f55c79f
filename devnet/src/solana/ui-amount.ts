// Token amounts as the node's account decoder shows them (`UiTokenAmount`): the raw amount as a
// string, the mint's decimals, `uiAmount` as an f64 and `uiAmountString` as exact decimal text.
// Token-2022 ScaledUiAmount and InterestBearing mints scale the display amount the way
// spl-token-2022-interface does (f64 arithmetic, printed with `decimals` places, zeros trimmed).
import { type F64, f64 } from './json.js';

export interface UiTokenAmount {
  uiAmount: F64 | null;
  decimals: number;
  amount: string;
  uiAmountString: string;
}

/** ScaledUiAmountConfig of a Token-2022 mint (extension 25). */
export interface ScaledUiAmount {
  authority: string | null;
  multiplier: number;
  newMultiplierEffectiveTimestamp: bigint;
  newMultiplier: number;
}

/** InterestBearingConfig of a Token-2022 mint (extension 10); rates in basis points. */
export interface InterestBearing {
  rateAuthority: string | null;
  initializationTimestamp: bigint;
  preUpdateAverageRate: number;
  lastUpdateTimestamp: bigint;
  currentRate: number;
}

/** What the decoder needs beyond the raw amount (`SplTokenAdditionalDataV2`). */
export interface TokenDisplay {
  decimals: number;
  scaled?: ScaledUiAmount;
  interestBearing?: InterestBearing;
  /** Clock unix timestamp the multipliers and rates are evaluated at. */
  unixTimestamp?: bigint;
}

/** `real_number_string`: the amount with the decimal point inserted, zero-padded. */
export function realNumberString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const padded = amount.toString().padStart(decimals + 1, '0');
  return `${padded.slice(0, padded.length - decimals)}.${padded.slice(padded.length - decimals)}`;
}

/** `trim_ui_amount_string`: trailing zeros and a bare decimal point removed when decimals > 0. */
export function trimUiAmountString(text: string, decimals: number): string {
  if (decimals === 0) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

export function realNumberStringTrimmed(amount: bigint, decimals: number): string {
  return trimUiAmountString(realNumberString(amount, decimals), decimals);
}

/** The exact binary value of a finite double as numerator x 2^exponent. */
function exactDouble(value: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const rawExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (rawExponent === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent: rawExponent - 1075 };
}

/**
 * Rust's `format!("{value:.decimals$}")`: the exact decimal value of the double rounded to
 * `decimals` places, ties to even; `inf`/`NaN` for the non-finite values.
 */
export function formatFixedExact(value: number, decimals: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const negative = value < 0 || Object.is(value, -0);
  const { mantissa, exponent } = exactDouble(Math.abs(value));
  const scale = 10n ** BigInt(decimals);
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = (mantissa << BigInt(exponent)) * scale;
  } else {
    const numerator = mantissa * scale;
    const denominator = 1n << BigInt(-exponent);
    scaled = numerator / denominator;
    const twiceRemainder = (numerator % denominator) * 2n;
    if (twiceRemainder > denominator || (twiceRemainder === denominator && scaled % 2n === 1n)) scaled += 1n;
  }
  const text = realNumberString(scaled, decimals);
  return negative ? `-${text}` : text;
}

/** Rust's `Display` of an f64 (`f64::to_string`): shortest digits, never in exponent form. */
export function rustF64Display(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exponentText) + 1; // digits before the decimal point
  let text: string;
  if (point <= 0) text = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) text = `${digits}${'0'.repeat(point - digits.length)}`;
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return value < 0 ? `-${text}` : text;
}

const secondsPerYear = 60 * 60 * 24 * 365.24;
const oneInBasisPoints = 10_000;

function interestScale(config: InterestBearing, decimals: number, unixTimestamp: bigint): number {
  const preExponent = (config.preUpdateAverageRate * Number(config.lastUpdateTimestamp - config.initializationTimestamp)) / secondsPerYear / oneInBasisPoints;
  const postExponent = (config.currentRate * Number(unixTimestamp - config.lastUpdateTimestamp)) / secondsPerYear / oneInBasisPoints;
  return (Math.exp(preExponent) * Math.exp(postExponent)) / 10 ** decimals;
}

function scaledMultiplier(config: ScaledUiAmount, decimals: number, unixTimestamp: bigint): number {
  const multiplier = unixTimestamp >= config.newMultiplierEffectiveTimestamp ? config.newMultiplier : config.multiplier;
  return multiplier / 10 ** decimals;
}

/** `token_amount_to_ui_amount_v3`. */
export function uiTokenAmount(amount: bigint, display: TokenDisplay): UiTokenAmount {
  const { decimals } = display;
  const timestamp = display.unixTimestamp ?? 0n;
  const scale = display.interestBearing
    ? interestScale(display.interestBearing, decimals, timestamp)
    : display.scaled
      ? scaledMultiplier(display.scaled, decimals, timestamp)
      : undefined;
  if (scale !== undefined) {
    const text = trimUiAmountString(formatFixedExact(Number(amount) * scale, decimals), decimals);
    const parsed = text === 'inf' ? Infinity : text === '-inf' ? -Infinity : Number(text);
    return { uiAmount: f64(parsed), decimals, amount: amount.toString(), uiAmountString: text };
  }
  // 10_usize.checked_pow(decimals): overflows (None) past 10^19.
  const uiAmount = decimals <= 19 ? f64(Number(amount) / 10 ** decimals) : null;
  return { uiAmount, decimals, amount: amount.toString(), uiAmountString: realNumberStringTrimmed(amount, decimals) };
}
