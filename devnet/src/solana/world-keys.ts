import { createHash } from 'node:crypto';
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';

/**
 * 32 Ed25519 private-key bytes derived from the world's seed and a label (`funder`,
 * `wallet/3`, `solana/mint/usdc`, ...): the same seed gives the same keys, hence the same
 * addresses and (Ed25519 signing being deterministic) the same signatures, on every build.
 * Test keys only: anyone who knows the seed knows them.
 */
export function seededKeyBytes(seed: string, label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`${seed}/solana/${label}`).digest());
}

export function seededSigner(seed: string, label: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(seededKeyBytes(seed, label));
}

/** The wallets of a world: the same keys on every Solana chain of the world, as one user's wallet is. */
export function solanaWalletSigners(seed: string, count: number): Promise<KeyPairSigner[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => seededSigner(seed, `wallet/${index}`)));
}
