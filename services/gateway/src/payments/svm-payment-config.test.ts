import { createKeyPairSignerFromPrivateKeyBytes, getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { paymentConfigFromEnv, paymentEnv } from './payment-config.js';
import { parseSolanaKey } from './svm-payment-config.js';

const privateKey = Uint8Array.from({ length: 32 }, (_, index) => index * 7);
const base58 = getBase58Decoder();
const payTo = 'DYz7vtoBmErFLSJcr3NxmfLv7yxDtZkudFBgPrFosJNF';
const mint = '26616Hf9FU8iEHCtjQfFpEk1E93LZDsdGeDJG6AVrsHj';
const evm = {
  X402_PAY_TO: '0x52908400098527886e0f7030069857d2e4169ee7',
  X402_USDC_ADDRESS: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  X402_FACILITATOR_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
};

describe('parseSolanaKey', () => {
  test('reads base58 and JSON byte arrays, 32 private-key bytes or a 64-byte keypair, to the address @solana/kit derives', async () => {
    const { address } = await createKeyPairSignerFromPrivateKeyBytes(privateKey);
    const keypair = Uint8Array.from([...privateKey, ...getBase58Encoder().encode(address)]);
    for (const text of [base58.decode(privateKey), base58.decode(keypair), JSON.stringify([...privateKey]), JSON.stringify([...keypair])]) {
      const key = parseSolanaKey(text);
      expect({ text, address: key.address }).toEqual({ text, address });
      expect(key.privateKey).toEqual(privateKey);
    }
  });

  test.each([
    ['a 31-byte key', base58.decode(privateKey.slice(1)), /31 bytes/],
    ["a keypair whose public half is another key's", base58.decode(Uint8Array.from([...privateKey, ...new Uint8Array(32).fill(9)])), /public key/],
    ['a JSON array of non-bytes', JSON.stringify([...privateKey.slice(1), 256]), /array of bytes/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseSolanaKey(text)).toThrow(message);
  });
});

describe('Solana payment configuration', () => {
  test('is read beside the EVM one: Solana devnet CAIP-2 and the devnet solana-devnet RPC by default', () => {
    const config = paymentConfigFromEnv(
      paymentEnv.parse({ ...evm, X402_SVM_PAY_TO: payTo, X402_SVM_USDC_MINT: mint, X402_SVM_FACILITATOR_PRIVATE_KEY: JSON.stringify([...privateKey]) }),
    )!;
    expect(config.svm).toEqual({
      network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      rpcUrl: 'http://127.0.0.1:18900',
      payTo,
      usdcMint: mint,
      facilitatorKey: parseSolanaKey(JSON.stringify([...privateKey])),
    });
  });

  test('is absent without X402_SVM_PAY_TO, and the EVM payment alone is offered', () => {
    expect(paymentConfigFromEnv(paymentEnv.parse(evm))!.svm).toBeUndefined();
  });

  test('a Solana payee without the mint or the fee payer key, or without the EVM payee, is a configuration error', () => {
    expect(() => paymentConfigFromEnv(paymentEnv.parse({ ...evm, X402_SVM_PAY_TO: payTo }))).toThrow('X402_SVM_USDC_MINT and X402_SVM_FACILITATOR_PRIVATE_KEY');
    expect(() => paymentConfigFromEnv(paymentEnv.parse({ X402_SVM_PAY_TO: payTo }))).toThrow('without X402_PAY_TO');
  });

  test.each([
    [{ X402_SVM_PAY_TO: '0x52908400098527886e0f7030069857d2e4169ee7' }, 'X402_SVM_PAY_TO'],
    [{ X402_SVM_USDC_MINT: 'not-a-mint' }, 'X402_SVM_USDC_MINT'],
    [{ X402_SVM_NETWORK: 'eip155:1' }, 'X402_SVM_NETWORK'],
    [{ X402_SVM_RPC_URL: 'not a url' }, 'X402_SVM_RPC_URL'],
    [{ X402_SVM_FACILITATOR_PRIVATE_KEY: '[1,2,3]' }, 'X402_SVM_FACILITATOR_PRIVATE_KEY'],
    [{ X402_SVM_FACILITATOR_PRIVATE_KEY: '0OIl' }, 'X402_SVM_FACILITATOR_PRIVATE_KEY'],
  ])('%j is refused at %s', (env, variable) => {
    const result = paymentEnv.safeParse({ ...evm, ...env });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toEqual([variable]);
  });
});
