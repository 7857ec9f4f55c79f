import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { titles } from '../http/api-error.js';
import type { PaymentConfig } from './payment-config.js';

/**
 * The requirements of one paid request as the wire carries them (what the x402 server builds from
 * paymentOptions): used where the x402 packages answer 402 without them (a failed settlement).
 */
export function paymentRequirements(config: PaymentConfig): PaymentRequirements[] {
  return [
    {
      scheme: 'exact',
      network: config.evm.network,
      asset: config.evm.usdc,
      amount: config.price.toString(),
      payTo: config.payTo,
      maxTimeoutSeconds: config.maxTimeoutSeconds,
      extra: { name: config.evm.eip712.name, version: config.evm.eip712.version },
    },
    ...(config.svm
      ? [
          {
            scheme: 'exact',
            network: config.svm.network,
            asset: config.svm.usdcMint,
            amount: config.price.toString(),
            payTo: config.svm.payTo,
            maxTimeoutSeconds: config.maxTimeoutSeconds,
            // What the x402 server adds from our facilitator: the address that co-signs and pays the fee.
            extra: { feePayer: config.svm.facilitatorKey.address },
          },
        ]
      : []),
  ];
}

/** An x402 reason (`invalid_exact_evm_signature`, `Payment required`), not an exception's message. */
export const isReasonCode = (reason: string): boolean => /^[A-Za-z0-9_ ]{1,100}$/.test(reason);

/** Why a 402 was answered, in words a client reads next to x402's machine reason. */
export function paymentRefusalDetail(reason: string | undefined): string {
  if (!reason || reason === 'Payment required') {
    return 'payment required: pay per request with x402 (header PAYMENT-SIGNATURE or X-PAYMENT, requirements in PAYMENT-REQUIRED and this body) or send an API key';
  }
  return `header PAYMENT-SIGNATURE / X-PAYMENT: the payment was refused (${reason}); nothing was charged or served`;
}

/**
 * The 402 body: the x402 requirements object (what x402 clients of protocol version 1 read from the
 * body; version 2 reads the PAYMENT-REQUIRED header, which carries the same object) plus the
 * JSON:API `errors` entry every other error of the API has.
 */
export function paymentRequiredBody(
  required: PaymentRequired,
  detail = paymentRefusalDetail(required.error),
): PaymentRequired & { errors: { title: string; detail: string }[] } {
  return { ...required, errors: [{ title: titles[402], detail }] };
}
