// Fixed keys of the ledger itself (faucet, block producer), derived from a label so every run
// has the same addresses and signs identically; signing is synchronous (node:crypto Ed25519).
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';

/** PKCS#8 DER prefix of a raw 32-byte Ed25519 private key. */
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface LedgerKey {
  address: string;
  sign(message: Uint8Array): Uint8Array;
}

export function ledgerKey(label: string): LedgerKey {
  const seed = createHash('sha256').update(`wallet-api/devnet/solana-ledger/${label}`).digest();
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = Buffer.from(String(jwk.x), 'base64url');
  return {
    address: getBase58Decoder().decode(publicKey),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}
