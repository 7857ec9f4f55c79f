import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http, publicActions } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import type { Logger } from '@wallet-api/core/logger';
import type { EvmPaymentConfig } from './payment-config.js';

/**
 * Our own x402 facilitator, in the gateway's process: it verifies a payment (signature, amount,
 * payee, asset, network, time window, and a simulated transferWithAuthorization, which the
 * token refuses for a used nonce) and settles it by submitting transferWithAuthorization with the
 * facilitator's key, returning only after the receipt says it succeeded. No outside service.
 */
export function createLocalFacilitator(config: EvmPaymentConfig, logger: Logger, { confirmationTimeoutMs = 30_000 } = {}): FacilitatorClient {
  // Settlements of concurrent requests are sent at once: the nonce manager gives each its own nonce.
  const account = privateKeyToAccount(config.facilitatorKey, { nonceManager });
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const client = createWalletClient({ account, chain, transport: http(config.rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract(args as Parameters<typeof client.readContract>[0]),
      verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
      writeContract: (args) => client.writeContract(args as Parameters<typeof client.writeContract>[0]),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      // @x402/evm starts this read in the background and abandons it when verification ends early: a
      // rejection here would go unhandled and end the process. A failed read answers "no code",
      // which refuses the payment (asset not a contract) instead: fail closed, never crash.
      getCode: (args) =>
        client.getCode(args).catch((error: unknown) => {
          logger.warn({ err: error, asset: args.address }, 'pay-per-request facilitator could not read the asset');
          return undefined;
        }),
    },
    { confirmationTimeoutMs },
  );
  const facilitator = new x402Facilitator().register(config.network, new ExactEvmScheme(signer));
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // The facilitator lists the networks it was registered with, CAIP-2 ids all, typed as plain strings.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}
