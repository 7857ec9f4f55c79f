import type { PaymentOption, RouteConfig } from '@x402/core/http';
import type { PaymentConfig } from './payment-config.js';

/**
 * The ways one request can be paid: USDC on the configured EVM chain by an EIP-3009
 * `transferWithAuthorization` (x402 scheme `exact`). The price is given in base units with the
 * asset and its EIP-712 domain, so no price table of the x402 packages decides which token is meant.
 */
export function paymentOptions(config: PaymentConfig): PaymentOption[] {
  return [
    {
      scheme: 'exact',
      network: config.evm.network,
      payTo: config.payTo,
      price: {
        amount: config.price.toString(),
        asset: config.evm.usdc,
        extra: { name: config.evm.eip712.name, version: config.evm.eip712.version },
      },
      maxTimeoutSeconds: config.maxTimeoutSeconds,
    },
  ];
}

/** One route configuration for every paid request (which requests are paid is payable-request.ts's). */
export function paidRouteConfig(config: PaymentConfig): RouteConfig {
  return {
    accepts: paymentOptions(config),
    description: 'One request to the wallet API, paid instead of presenting an API key',
    mimeType: 'application/json',
  };
}
