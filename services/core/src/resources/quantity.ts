import type { TokenInfo } from '../generated/proto/reference_data.js';
import { scaledQuantity, uiMultiplierAt } from '../solana/scaled-ui-amount.js';
import { formatUnits } from '../units/format-units.js';

/**
 * Spec 2.1 Quantity of `amount` base units: `float` is the number nearest to the exact `numeric`.
 * A Token-2022 ScaledUiAmount token passes its multiplier in force: `int` stays the raw amount and
 * the display values are `int x multiplier / 10^decimals`.
 */
export function quantity(amount: string, decimals: number, multiplier?: string) {
  if (multiplier !== undefined) return { int: amount, decimals, ...scaledQuantity(BigInt(amount), decimals, multiplier) };
  const numeric = formatUnits(amount, decimals);
  return { int: amount, decimals, float: Number(numeric), numeric };
}

/** The quantity of `amount` of a token as its reference data describes it, scaled when the token is (at the current time). */
export function tokenQuantity(amount: string, token: Pick<TokenInfo, 'decimals' | 'scaledUiAmount'> | undefined, nowSeconds: number = Date.now() / 1000) {
  return quantity(amount, token?.decimals ?? 0, token ? uiMultiplierAt(token, nowSeconds) : undefined);
}
