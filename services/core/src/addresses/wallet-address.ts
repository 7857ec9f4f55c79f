import { isAddress } from '@solana/addresses';
import { LRUCache } from 'lru-cache';

/** `0x` and 40 hex digits, any case (spec 4, common parameters). */
export const evmAddressPattern = /^0x[a-fA-F0-9]{40}$/;

export const isEvmAddress = (value: string): boolean => evmAddressPattern.test(value);

/**
 * A Solana address: base58 that decodes to exactly 32 bytes (an ed25519 public key or a program
 * derived address). The base58 alphabet and a 32-44 length alone let through strings that decode
 * to 31 or 33 bytes, which no account can have.
 */
export function isSolanaAddress(value: string): boolean {
  const known = solanaVerdicts.get(value);
  if (known !== undefined) return known;
  const verdict = isAddress(value);
  // Only strings of an address's length are kept: a flood of long junk cannot fill the memory.
  if (value.length <= 44) solanaVerdicts.set(value, verdict);
  return verdict;
}

/**
 * Verdicts of recent strings: the base58 decoding behind one (BigInt arithmetic) was a hundredth
 * of the gateway's time under load, where the same wallets are asked again and again.
 */
const solanaVerdicts = new LRUCache<string, boolean>({ max: 10_000 });

export type AddressFamily = 'evm' | 'solana';

/** Which chain family an address belongs to, undefined when it is neither. */
export function addressFamily(value: string): AddressFamily | undefined {
  if (isEvmAddress(value)) return 'evm';
  if (isSolanaAddress(value)) return 'solana';
  return undefined;
}

/** How the services store and compare wallets: EVM lowercase, Solana as written (base58 is case-sensitive). */
export const canonicalWallet = (value: string): string => (isEvmAddress(value) ? value.toLowerCase() : value);
