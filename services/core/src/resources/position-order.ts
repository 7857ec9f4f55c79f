import type { Position } from '../generated/proto/positions.js';

/**
 * The order of a positions answer (spec 4.4 `sort`): by value, largest first unless ascending;
 * rows without a value last either way; ties by id, so answers are stable. Here once, for the
 * positions service sorting one wallet's rows and the gateway sorting a wallet set's merged rows.
 */
export function sortByValue(positions: readonly Position[], ascending: boolean): Position[] {
  return [...positions].sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      if (a.value !== b.value) return a.value === undefined ? 1 : -1;
    } else if (a.value !== b.value) {
      return ascending ? a.value - b.value : b.value - a.value;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}
