import { getBase58Encoder, getPublicKeyFromAddress, isAddress, verifySignature, type Address as SolanaAddress, type SignatureBytes } from '@solana/kit';
import { verifyMessage, type Hex } from 'viem';

/** Why a dismissal signature is refused, worded for the `signature` parameter's 400 detail. */
export type SignatureCheck = { valid: true } | { valid: false; reason: string };

const evmWallet = /^0x[0-9a-f]{40}$/;
const hexSignature = /^0x([0-9a-fA-F]{2})+$/;
const base58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

async function checkEvm(wallet: string, actionId: string, signature: string): Promise<SignatureCheck> {
  if (!hexSignature.test(signature)) return { valid: false, reason: 'must be a 0x-hex EIP-191 signature for an EVM wallet' };
  try {
    // personal_sign of the action id string: viem hashes it with the EIP-191 prefix and recovers the signer.
    const valid = await verifyMessage({ address: wallet as Hex, message: actionId, signature: signature as Hex });
    return valid ? { valid } : { valid: false, reason: `is not the wallet ${wallet}'s signature of the action id` };
  } catch {
    // A signature of the right alphabet that no key could have produced (bad length, v or point).
    return { valid: false, reason: 'is not a valid EIP-191 signature' };
  }
}

async function checkSolana(wallet: string, actionId: string, signature: string): Promise<SignatureCheck> {
  if (!base58.test(signature)) return { valid: false, reason: 'must be a base58 ed25519 signature for a Solana wallet' };
  const bytes = getBase58Encoder().encode(signature);
  if (bytes.length !== 64) return { valid: false, reason: 'must be a base58 ed25519 signature of 64 bytes' };
  const key = await getPublicKeyFromAddress(wallet as SolanaAddress);
  const valid = await verifySignature(key, bytes as SignatureBytes, new TextEncoder().encode(actionId));
  return valid ? { valid } : { valid: false, reason: `is not the wallet ${wallet}'s signature of the action id` };
}

/**
 * Whether `signature` proves that `wallet` dismissed `actionId`. EVM: EIP-191 personal_sign over
 * the action id string (0x-hex). Solana: ed25519 over the action id's UTF-8 bytes, base58 as
 * Solana writes signatures. Smart-contract wallets (ERC-1271) are not checked on chain.
 */
export async function checkDismissalSignature(wallet: string, actionId: string, signature: string): Promise<SignatureCheck> {
  if (evmWallet.test(wallet)) return checkEvm(wallet, actionId, signature);
  if (isAddress(wallet)) return checkSolana(wallet, actionId, signature);
  return { valid: false, reason: `cannot be checked for the wallet ${wallet}` };
}
