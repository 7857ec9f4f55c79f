import { x402ResourceServer } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import type { PaymentConfig } from './payment-config.js';
import { paymentRequirements } from './payment-required-body.js';
import { paidRouteConfig, paymentOptions } from './payment-requirements.js';
import { parseSolanaKey } from './svm-payment-config.js';

const config: PaymentConfig = {
  price: 2_500n,
  payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
  maxTimeoutSeconds: 90,
  evm: {
    network: 'eip155:1',
    chainId: 1,
    rpcUrl: 'http://127.0.0.1:18545',
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    eip712: { name: 'USD Coin', version: '2' },
    facilitatorKey: `0x${'11'.repeat(32)}`,
  },
};

// What a facilitator supporting exact payments on the network answers; no payment is verified here.
const supportingFacilitator: FacilitatorClient = {
  verify: () => Promise.reject(new Error('not called')),
  settle: () => Promise.reject(new Error('not called')),
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:1' }], extensions: [], signers: {} }),
};

describe('payment requirements', () => {
  test('one exact USDC option: the price in base units, the payee, the EIP-712 domain', () => {
    expect(paymentOptions(config)).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:1',
        payTo: config.payTo,
        price: { amount: '2500', asset: config.evm.usdc, extra: { name: 'USD Coin', version: '2' } },
        maxTimeoutSeconds: 90,
      },
    ]);
    expect(paidRouteConfig(config).accepts).toEqual(paymentOptions(config));
  });

  test('the x402 server turns the options into exactly the requirements restated after a failed settlement', async () => {
    const server = new x402ResourceServer(supportingFacilitator).register('eip155:1', new ExactEvmScheme());
    await server.initialize();
    const built = await server.buildPaymentRequirementsFromOptions(paymentOptions(config), {} as never);
    expect(built).toHaveLength(1);
    const [requirement] = paymentRequirements(config);
    expect(built[0]).toMatchObject({ ...requirement, extra: expect.objectContaining(requirement!.extra) });
  });

  test('with Solana configured, the x402 server builds both requirements, the Solana one with our fee payer, as restated', async () => {
    const facilitatorKey = parseSolanaKey(`[${Array.from({ length: 32 }, (_, index) => index + 1).join(',')}]`);
    const withSolana: PaymentConfig = {
      ...config,
      svm: {
        network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        rpcUrl: 'http://127.0.0.1:18900',
        payTo: 'DYz7vtoBmErFLSJcr3NxmfLv7yxDtZkudFBgPrFosJNF' as never,
        usdcMint: '26616Hf9FU8iEHCtjQfFpEk1E93LZDsdGeDJG6AVrsHj' as never,
        facilitatorKey,
      },
    };
    // What our Solana facilitator answers: the network, and its fee payer in `extra` (as @x402/svm's facilitator does).
    const solanaFacilitator: FacilitatorClient = {
      ...supportingFacilitator,
      getSupported: async () => ({
        kinds: [{ x402Version: 2, scheme: 'exact', network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', extra: { feePayer: facilitatorKey.address } }],
        extensions: [],
        signers: {},
      }),
    };
    const server = new x402ResourceServer([supportingFacilitator, solanaFacilitator])
      .register('eip155:1', new ExactEvmScheme())
      .register('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', new ExactSvmScheme());
    await server.initialize();
    const built = await server.buildPaymentRequirementsFromOptions(paymentOptions(withSolana), {} as never);
    const restated = paymentRequirements(withSolana);
    expect(built.map((requirement) => requirement.network)).toEqual(['eip155:1', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1']);
    expect(built[0]).toMatchObject({ ...restated[0], extra: expect.objectContaining(restated[0]!.extra) });
    expect(built[1]).toEqual(restated[1]);
    expect(restated[1]).toMatchObject({
      asset: '26616Hf9FU8iEHCtjQfFpEk1E93LZDsdGeDJG6AVrsHj',
      amount: '2500',
      payTo: 'DYz7vtoBmErFLSJcr3NxmfLv7yxDtZkudFBgPrFosJNF',
      extra: { feePayer: facilitatorKey.address },
    });
  });
});
