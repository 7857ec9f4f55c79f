import { isEvmAddress, isSolanaAddress } from '@wallet-api/core/addresses';
import { invalidArgument } from '@wallet-api/core/grpc';

/**
 * The stored form of a wallet or counterparty address: EVM lowercased, Solana base58 as given
 * (it is case-sensitive). `undefined` for text that is neither.
 */
export function normalizeAddress(address: string): string | undefined {
  if (isEvmAddress(address)) return address.toLowerCase();
  if (isSolanaAddress(address)) return address;
  return undefined;
}

/**
 * The stored forms of a request's addresses, duplicates collapsed (`0xAB..` and `0xab..` are one),
 * in the order first given. INVALID_ARGUMENT naming the parameter for an address of neither family.
 */
export function normalizeAddressList(addresses: readonly string[], parameter: string): string[] {
  const normalized = new Set<string>();
  for (const address of addresses) {
    const stored = normalizeAddress(address);
    if (stored === undefined) throw invalidArgument(`${parameter} holds ${JSON.stringify(address.slice(0, 100))}, which is not an EVM or Solana address`);
    normalized.add(stored);
  }
  return [...normalized];
}
