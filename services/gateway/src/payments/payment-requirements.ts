import type { PaymentOption, RouteConfig } from '@x402/core/http';
import type { PaymentConfig } from './payment-config.js';

/**
 * The ways one request can be paid: USDC on the configured EVM chain by an EIP-3009
 * `transferWithAuthorization` (x402 scheme `exact`) and, when configured, USDC on Solana by an SPL
 * `TransferChecked` (the same scheme; the facilitator adds its fee payer). The price is given in
 * base units with the asset (and the EIP-712 domain), so no price table of the x402 packages
 * decides which token is meant.
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
    ...(config.svm
      ? [
          {
            scheme: 'exact',
            network: config.svm.network,
            payTo: config.svm.payTo,
            price: { amount: config.price.toString(), asset: config.svm.usdcMint },
            maxTimeoutSeconds: config.maxTimeoutSeconds,
          },
        ]
      : []),
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
