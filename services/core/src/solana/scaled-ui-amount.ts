import type { TokenInfo } from '../generated/proto/reference_data.js';
import { formatUnits } from '../units/format-units.js';

/**
 * The display multiplier of a Token-2022 ScaledUiAmount mint at `unixSeconds`: `new_multiplier`
 * from its effective timestamp on (inclusive, as the token program's own `amount_to_ui_amount`),
 * `multiplier` before. Undefined for a token without the extension, whose display value is the
 * plain `int / 10^decimals`.
 */
export function uiMultiplierAt(info: Pick<TokenInfo, 'scaledUiAmount'>, unixSeconds: number): string | undefined {
  const scaled = info.scaledUiAmount;
  if (!scaled) return undefined;
  return unixSeconds >= Number(scaled.newMultiplierEffectiveTimestamp) ? scaled.newMultiplier : scaled.multiplier;
}

// Decimal text as a node prints an f64 (Rust's `Display`: `1`, `1.5`, `0.0000001`) and as
// JavaScript does (`1e-7`, `1.5e+21`). Multipliers are positive; the program refuses others.
const decimalText = /^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** `text` as `digits / 10^scale` exactly. Throws a RangeError for anything but a non-negative decimal. */
export function parseDecimal(text: string): { digits: bigint; scale: number } {
  const match = decimalText.exec(text.trim());
  const [whole = '', fraction = '', exponent = '0'] = match ? match.slice(1) : [];
  if (!match || whole + fraction === '') throw new RangeError(`multiplier ${JSON.stringify(text)} is not a decimal number`);
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * The display value of `raw` base units of a ScaledUiAmount token (spec 2.1): `raw x multiplier /
 * 10^decimals`. `numeric` is exact decimal text without trailing zeros (the multiplier's every
 * digit counts; nothing is rounded or truncated); `float` is the number nearest to it.
 */
export function scaledQuantity(raw: bigint, decimals: number, multiplier: string): { float: number; numeric: string } {
  const { digits, scale } = parseDecimal(multiplier);
  const numeric = formatUnits((raw * digits).toString(), decimals + scale);
  return { float: Number(numeric), numeric };
}
