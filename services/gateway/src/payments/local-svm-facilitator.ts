import { createKeyPairSignerFromPrivateKeyBytes, createSolanaRpc } from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';
import { toFacilitatorSvmSigner } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import type { SvmPaymentConfig } from './svm-payment-config.js';

/**
 * Our own x402 facilitator for Solana, in the gateway's process, on our own JSON-RPC endpoint
 * (`config.rpcUrl`, never a public default): it verifies a payment (the payer's signature, one
 * TransferChecked of exactly the price of the configured mint to the payee's associated token
 * account, the fee payer ours and touched by no instruction, capped compute budget, and a
 * simulation of the transaction) and settles it by co-signing as fee payer, sending it, and
 * polling getSignatureStatuses until it is confirmed (no websocket subscription). No outside service.
 */
export function createLocalSvmFacilitator(config: SvmPaymentConfig): FacilitatorClient {
  const rpc = createSolanaRpc(config.rpcUrl);
  const facilitator = createKeyPairSignerFromPrivateKeyBytes(config.facilitatorKey.privateKey).then((keyPair) => {
    // One RPC for the configured network only: the package's public RPC defaults are never used.
    const signer = toFacilitatorSvmSigner(keyPair, { [config.network]: rpc } as Parameters<typeof toFacilitatorSvmSigner>[1]);
    // The facilitator pays each payment's fee, so the payer's choices are bounded: at most 1,000
    // micro-lamports per compute unit (x402 clients ask 1) for at most 200,000 units (they ask
    // 20,000), and two signatures (payer and fee payer): at most 10,200 lamports a payment.
    const scheme = new ExactSvmScheme(signer, undefined, { maxPriorityFeeMicroLamports: 1_000, maxComputeUnits: 200_000, maxRequiredSignatures: 2 });
    return new x402Facilitator().register(config.network, scheme);
  });
  return {
    verify: async (payload, requirements) => (await facilitator).verify(payload, requirements),
    settle: async (payload, requirements) => (await facilitator).settle(payload, requirements),
    // The facilitator lists the networks it was registered with, CAIP-2 ids all, typed as plain strings.
    getSupported: async () => (await facilitator).getSupported() as SupportedResponse,
  };
}
