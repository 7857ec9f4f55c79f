import { createPrivateKey, createPublicKey } from 'node:crypto';
import { getBase58Decoder, getBase58Encoder, isAddress, type Address } from '@solana/kit';
import { SOLANA_DEVNET_CAIP2 } from '@x402/svm';
import { z } from 'zod';

/** PKCS#8 DER header of an Ed25519 private key; the 32 key bytes follow it. */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 public key of 32 private-key bytes, as a Solana address. */
function addressOfPrivateKey(privateKey: Uint8Array): Address {
  const key = createPrivateKey({ key: Buffer.concat([ed25519Pkcs8Prefix, privateKey]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return getBase58Decoder().decode(spki.subarray(spki.length - 32)) as Address;
}

export interface SolanaKey {
  /** The 32 private-key bytes. */
  privateKey: Uint8Array;
  address: Address;
}

/**
 * A Solana key as wallets and the CLI write it: base58 (a 64-byte keypair, as wallets export it,
 * or the 32 private-key bytes) or a JSON byte array (a `solana-keygen` file's content, 64 bytes,
 * or 32). A keypair whose public half is not its private half's is refused.
 */
export function parseSolanaKey(value: string): SolanaKey {
  const text = value.trim();
  let bytes: Uint8Array;
  if (text.startsWith('[')) {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || !parsed.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
      throw new Error('not a JSON array of bytes');
    }
    bytes = Uint8Array.from(parsed as number[]);
  } else {
    bytes = new Uint8Array(getBase58Encoder().encode(text));
  }
  if (bytes.length !== 32 && bytes.length !== 64) throw new Error(`${bytes.length} bytes: neither a 32-byte private key nor a 64-byte keypair`);
  const privateKey = bytes.slice(0, 32);
  const address = addressOfPrivateKey(privateKey);
  if (bytes.length === 64 && getBase58Decoder().decode(bytes.slice(32)) !== address) throw new Error("the keypair's public key is not its private key's");
  return { privateKey, address };
}

// A plain string here (typed as an Address in the config below): the schema's emitted declaration
// cannot name @solana/kit's nominal Address type.
const solanaAddress = z.string().refine((value) => isAddress(value), 'not a Solana address');

/**
 * The Solana pay-per-request variables (x402 `exact` on Solana: an SPL `TransferChecked` of USDC
 * that the payer signs and our facilitator co-signs as fee payer). Solana payments are offered
 * only when X402_SVM_PAY_TO is set (beside the EVM ones, which turn payments on).
 */
export const svmPaymentEnv = z.object({
  /** The owner (wallet) address paid; the USDC goes to its associated token account, which must exist. */
  X402_SVM_PAY_TO: solanaAddress.optional(),
  X402_SVM_USDC_MINT: solanaAddress.optional(),
  // Our JSON-RPC endpoint of the chain; the devnet's solana-devnet chain unless told otherwise.
  X402_SVM_RPC_URL: z.url().default('http://127.0.0.1:18900'),
  // CAIP-2 (`solana:` and the genesis hash's first 32 characters): Solana devnet's by default,
  // which the devnet's solana-devnet chain stands in for. x402 clients know only mainnet, devnet
  // and testnet.
  X402_SVM_NETWORK: z
    .string()
    .regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/, 'not a CAIP-2 Solana network (solana:<32 base58 characters>)')
    .default(SOLANA_DEVNET_CAIP2),
  // The facilitator's key: it co-signs each payment as fee payer and pays the fees.
  X402_SVM_FACILITATOR_PRIVATE_KEY: z
    .string()
    .transform((value, context) => {
      try {
        return parseSolanaKey(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `not a Solana key: ${(error as Error).message}` });
        return z.NEVER;
      }
    })
    .optional(),
});

export interface SvmPaymentConfig {
  /** CAIP-2, e.g. `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1`. */
  network: `solana:${string}`;
  rpcUrl: string;
  payTo: Address;
  usdcMint: Address;
  facilitatorKey: SolanaKey;
}

/** The Solana payments, or undefined when X402_SVM_PAY_TO is unset. */
export function svmPaymentConfigFromEnv(env: z.infer<typeof svmPaymentEnv>): SvmPaymentConfig | undefined {
  if (!env.X402_SVM_PAY_TO) return undefined;
  const missing = [
    ...(env.X402_SVM_USDC_MINT ? [] : ['X402_SVM_USDC_MINT']),
    ...(env.X402_SVM_FACILITATOR_PRIVATE_KEY ? [] : ['X402_SVM_FACILITATOR_PRIVATE_KEY']),
  ];
  if (missing.length > 0) throw new Error(`X402_SVM_PAY_TO is set, so Solana payments need ${missing.join(' and ')} too`);
  return {
    network: env.X402_SVM_NETWORK as `solana:${string}`,
    rpcUrl: env.X402_SVM_RPC_URL,
    payTo: env.X402_SVM_PAY_TO as Address,
    usdcMint: env.X402_SVM_USDC_MINT as Address,
    facilitatorKey: env.X402_SVM_FACILITATOR_PRIVATE_KEY!,
  };
}
