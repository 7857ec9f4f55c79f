import type { PaymentConfig } from './payment-config.js';
import { isReasonCode, paymentRefusalDetail, paymentRequiredBody, paymentRequirements } from './payment-required-body.js';

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

describe('the 402 body', () => {
  test('the 402 body is the requirements object with a JSON:API error naming the payment header', () => {
    const required = {
      x402Version: 2,
      error: 'invalid_exact_evm_signature',
      resource: { url: 'https://api.wallet.test/v1/chains/' },
      accepts: paymentRequirements(config),
    };
    const body = paymentRequiredBody(required);
    expect(body).toEqual({ ...required, errors: [{ title: 'Payment Required', detail: paymentRefusalDetail('invalid_exact_evm_signature') }] });
    expect(body.errors[0]!.detail).toBe(
      'header PAYMENT-SIGNATURE / X-PAYMENT: the payment was refused (invalid_exact_evm_signature); nothing was charged or served',
    );
    expect(paymentRefusalDetail(undefined)).toMatch(/^payment required: .*PAYMENT-SIGNATURE or X-PAYMENT/);
    expect(paymentRefusalDetail('Payment required')).toBe(paymentRefusalDetail(undefined));
  });
});

describe('isReasonCode', () => {
  test.each([
    ['invalid_exact_evm_signature', true],
    ['Payment required', true],
    ['No matching payment requirements', true],
    ['HTTP request failed.\n\nURL: http://10.0.0.5:8545/secret-key', false],
    ['', false],
  ])('%j: %s', (reason, expected) => {
    expect(isReasonCode(reason)).toBe(expected);
  });
});
