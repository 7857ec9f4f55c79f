import { isAddress } from '@solana/addresses';

/** `0x` and 40 hex digits, any case (spec 4, common parameters). */
export const evmAddressPattern = /^0x[a-fA-F0-9]{40}$/;

export const isEvmAddress = (value: string): boolean => evmAddressPattern.test(value);

/**
 * A Solana address: base58 that decodes to exactly 32 bytes (an ed25519 public key or a program
 * derived address). The base58 alphabet and a 32-44 length alone let through strings that decode
 * to 31 or 33 bytes, which no account can have.
 */
export const isSolanaAddress = (value: string): boolean => isAddress(value);

export type AddressFamily = 'evm' | 'solana';

/** Which chain family an address belongs to, undefined when it is neither. */
export function addressFamily(value: string): AddressFamily | undefined {
  if (isEvmAddress(value)) return 'evm';
  if (isSolanaAddress(value)) return 'solana';
  return undefined;
}

/** How the services store and compare wallets: EVM lowercase, Solana as written (base58 is case-sensitive). */
export const canonicalWallet = (value: string): string => (isEvmAddress(value) ? value.toLowerCase() : value);
