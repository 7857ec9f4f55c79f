import type { Position } from '../generated/proto/positions.js';
import type { TokenInfo } from '../generated/proto/reference_data.js';
import { tokenQuantity } from './quantity.js';

/** An asset's price in the request's currency now and a day ago; absent when it has none. */
export interface PriceQuote {
  now?: number | undefined;
  dayAgo?: number | undefined;
}

/**
 * The display quantity of a base-unit amount, exact until the one conversion to a double; a
 * ScaledUiAmount token's at the multiplier in force now, as the gateway shows its quantity.
 */
export function displayQuantity(amount: string, token: Pick<TokenInfo, 'decimals' | 'scaledUiAmount'>): number {
  return tokenQuantity(amount, token).float;
}

/**
 * value = quantity × price; the 1-day change is the value now minus the same quantity at the price
 * a day ago, in percent of that older value. A loan keeps a positive value: its type says it is owed.
 */
export function valuePosition(position: Position, quote: PriceQuote): Position {
  if (quote.now === undefined || !position.token) return position;
  const quantity = displayQuantity(position.amount, position.token);
  const value = quantity * quote.now;
  if (quote.dayAgo === undefined) return { ...position, price: quote.now, value };
  const before = quantity * quote.dayAgo;
  const change = value - before;
  return { ...position, price: quote.now, value, changeAbsolute1d: change, changePercent1d: before === 0 ? 0 : (change / before) * 100 };
}
