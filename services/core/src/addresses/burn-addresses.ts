const builtInBurnAddresses = new Set([
  '0x0000000000000000000000000000000000000000',
  '0x000000000000000000000000000000000000dead',
  '0xdead000000000000000000000000000000000000',
]);

/**
 * The EVM addresses tokens are sent to be destroyed, in any case. No one holds or signs for them,
 * and every burn of every token is a transfer to one: wallet endpoints refuse them (reference-data
 * classifies them untracked) and subscriptions do not watch them.
 */
export function isBuiltInBurnAddress(address: string): boolean {
  return builtInBurnAddresses.has(address.toLowerCase());
}
