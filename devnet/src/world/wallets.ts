import { getAddress, keccak256, slice, stringToHex, type Address } from 'viem';

/**
 * Wallet addresses derived from the seed alone, so the same wallet exists on every chain (as a
 * real user's address does). They have no private keys: anvil's auto-impersonation lets them send.
 */
export function walletAddress(seed: string, index: number): Address {
  return getAddress(slice(keccak256(stringToHex(`${seed}/wallet/${index}`)), 12));
}

export function deployerAddress(seed: string): Address {
  return getAddress(slice(keccak256(stringToHex(`${seed}/deployer`)), 12));
}
