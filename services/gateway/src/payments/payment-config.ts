import { getAddress, isAddress, isHex, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { svmPaymentConfigFromEnv, svmPaymentEnv, type SvmPaymentConfig } from './svm-payment-config.js';

/** USDC has 6 decimals on every chain the payments accept. */
export const usdcDecimals = 6;

/**
 * `$0.001` (US dollars, at most 6 decimals) or `1000` (USDC base units): the price of one request.
 * The dollar sign tells them apart, so `1` is never read as a dollar when a base unit was meant.
 */
export function parsePrice(value: string): bigint {
  const text = value.trim();
  const dollars = /^\$(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (dollars) return BigInt(dollars[1]!) * 10n ** BigInt(usdcDecimals) + BigInt((dollars[2] ?? '').padEnd(usdcDecimals, '0'));
  if (/^\d+$/.test(text)) return BigInt(text);
  throw new Error(`"${value}" is neither US dollars ("$0.001", at most 6 decimals) nor USDC base units ("1000")`);
}

const address = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), 'not an EVM address')
  .transform((value) => getAddress(value));

/**
 * The pay-per-request variables (x402). Payments are on only when X402_PAY_TO is set: a deployment
 * without them answers keyless requests 401 as before.
 */
export const paymentEnv = z
  .object({
    X402_PAY_TO: address.optional(),
    X402_PRICE: z
      .string()
      .default('$0.001')
      .transform((value, context) => {
        try {
          const price = parsePrice(value);
          if (price > 0n) return price;
          context.addIssue({ code: 'custom', message: 'the price must be above zero' });
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
        }
        return z.NEVER;
      }),
    // The devnet's ethereum chain (chain id 1 on loopback port 18545) unless told otherwise.
    X402_EVM_RPC_URL: z.url().default('http://127.0.0.1:18545'),
    X402_EVM_CHAIN_ID: z.coerce.number().int().positive().default(1),
    X402_USDC_ADDRESS: address.optional(),
    // The EIP-712 domain of the USDC contract, which the payer signs over (Circle's: "USD Coin", "2").
    X402_USDC_EIP712_NAME: z.string().min(1).default('USD Coin'),
    X402_USDC_EIP712_VERSION: z.string().min(1).default('2'),
    // The key that submits transferWithAuthorization and pays its gas: the in-process facilitator's.
    X402_FACILITATOR_PRIVATE_KEY: z
      .string()
      .refine((value) => isHex(value) && value.length === 66, 'not a 32-byte hex private key')
      .optional(),
    X402_MAX_TIMEOUT_SECONDS: z.coerce.number().int().positive().max(3600).default(60),
  })
  .extend(svmPaymentEnv.shape);

export interface EvmPaymentConfig {
  /** CAIP-2, e.g. `eip155:1`. */
  network: `eip155:${number}`;
  chainId: number;
  rpcUrl: string;
  usdc: Address;
  eip712: { name: string; version: string };
  facilitatorKey: Hex;
}

export interface PaymentConfig {
  /** USDC base units per request. */
  price: bigint;
  payTo: Address;
  maxTimeoutSeconds: number;
  evm: EvmPaymentConfig;
  /** USDC on Solana, offered beside the EVM payment when X402_SVM_PAY_TO is set. */
  svm?: SvmPaymentConfig;
}

/** The payments the gateway accepts, or undefined when X402_PAY_TO is unset (keyless stays 401). */
export function paymentConfigFromEnv(env: z.infer<typeof paymentEnv>): PaymentConfig | undefined {
  if (!env.X402_PAY_TO) {
    // Solana is offered beside the EVM payment, not alone: a lone Solana payee is a mistake to report.
    if (env.X402_SVM_PAY_TO) throw new Error('X402_SVM_PAY_TO is set without X402_PAY_TO: Solana payments are offered beside the EVM one');
    return undefined;
  }
  const missing = [...(env.X402_USDC_ADDRESS ? [] : ['X402_USDC_ADDRESS']), ...(env.X402_FACILITATOR_PRIVATE_KEY ? [] : ['X402_FACILITATOR_PRIVATE_KEY'])];
  if (missing.length > 0) throw new Error(`X402_PAY_TO is set, so pay per request needs ${missing.join(' and ')} too`);
  const svm = svmPaymentConfigFromEnv(env);
  return {
    price: env.X402_PRICE,
    payTo: env.X402_PAY_TO,
    maxTimeoutSeconds: env.X402_MAX_TIMEOUT_SECONDS,
    evm: {
      network: `eip155:${env.X402_EVM_CHAIN_ID}`,
      chainId: env.X402_EVM_CHAIN_ID,
      rpcUrl: env.X402_EVM_RPC_URL,
      usdc: env.X402_USDC_ADDRESS!,
      eip712: { name: env.X402_USDC_EIP712_NAME, version: env.X402_USDC_EIP712_VERSION },
      facilitatorKey: env.X402_FACILITATOR_PRIVATE_KEY as Hex,
    },
    ...(svm ? { svm } : {}),
  };
}
