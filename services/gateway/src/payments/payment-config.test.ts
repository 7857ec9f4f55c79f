import { paymentConfigFromEnv, paymentEnv, parsePrice } from './payment-config.js';

const payTo = '0x52908400098527886e0f7030069857d2e4169ee7';
const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const facilitatorKey = `0x${'11'.repeat(32)}`;

describe('parsePrice', () => {
  test.each([
    ['$0.001', 1_000n],
    ['$1', 1_000_000n],
    ['$0.000001', 1n],
    ['$12.5', 12_500_000n],
    ['1000', 1_000n],
    [' 7 ', 7n],
  ])('%s is %s base units', (text, expected) => {
    expect(parsePrice(text)).toBe(expected);
  });

  test.each(['0.001', '$0.0000001', '$', '1e3', '-5', '$-1', 'one dollar', ''])('%j is refused', (text) => {
    expect(() => parsePrice(text)).toThrow(/neither US dollars/);
  });
});

describe('paymentConfigFromEnv', () => {
  test('without X402_PAY_TO payments are off', () => {
    expect(paymentConfigFromEnv(paymentEnv.parse({}))).toBeUndefined();
  });

  test('reads every variable, checksums the addresses and names the chain in CAIP-2', () => {
    const config = paymentConfigFromEnv(
      paymentEnv.parse({
        X402_PAY_TO: payTo,
        X402_USDC_ADDRESS: usdc,
        X402_FACILITATOR_PRIVATE_KEY: facilitatorKey,
        X402_PRICE: '$0.01',
        X402_EVM_CHAIN_ID: '8453',
        X402_EVM_RPC_URL: 'http://127.0.0.1:18546',
        X402_MAX_TIMEOUT_SECONDS: '30',
      }),
    );
    expect(config).toEqual({
      price: 10_000n,
      payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
      maxTimeoutSeconds: 30,
      evm: {
        network: 'eip155:8453',
        chainId: 8453,
        rpcUrl: 'http://127.0.0.1:18546',
        usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        eip712: { name: 'USD Coin', version: '2' },
        facilitatorKey,
      },
    });
  });

  test("defaults: $0.001 on the devnet ethereum chain, 60 s, Circle's EIP-712 domain", () => {
    const config = paymentConfigFromEnv(paymentEnv.parse({ X402_PAY_TO: payTo, X402_USDC_ADDRESS: usdc, X402_FACILITATOR_PRIVATE_KEY: facilitatorKey }))!;
    expect(config.price).toBe(1_000n);
    expect(config.maxTimeoutSeconds).toBe(60);
    expect(config.evm).toMatchObject({ network: 'eip155:1', chainId: 1, rpcUrl: 'http://127.0.0.1:18545', eip712: { name: 'USD Coin', version: '2' } });
  });

  test('a payee without the token or the facilitator key is a configuration error naming both', () => {
    expect(() => paymentConfigFromEnv(paymentEnv.parse({ X402_PAY_TO: payTo }))).toThrow('X402_USDC_ADDRESS and X402_FACILITATOR_PRIVATE_KEY');
  });

  test.each([
    [{ X402_PAY_TO: 'not-an-address' }, 'X402_PAY_TO'],
    [{ X402_PRICE: '$0' }, 'X402_PRICE'],
    [{ X402_PRICE: '0.5' }, 'X402_PRICE'],
    [{ X402_FACILITATOR_PRIVATE_KEY: '0x1234' }, 'X402_FACILITATOR_PRIVATE_KEY'],
    [{ X402_MAX_TIMEOUT_SECONDS: '0' }, 'X402_MAX_TIMEOUT_SECONDS'],
    [{ X402_EVM_RPC_URL: 'not a url' }, 'X402_EVM_RPC_URL'],
  ])('%j is refused at %s', (env, variable) => {
    const result = paymentEnv.safeParse(env);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toEqual([variable]);
  });
});
