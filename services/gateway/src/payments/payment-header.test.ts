import { paymentHeaderProblem } from './payment-header.js';

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64');
const authorization = {
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: '0x52908400098527886E0F7030069857D2E4169EE7',
  value: '2500',
  validAfter: '0',
  validBefore: '1795954004',
  nonce: `0x${'ab'.repeat(32)}`,
};
const evm = (payload: unknown) => ({ x402Version: 2, accepted: { scheme: 'exact', network: 'eip155:1', amount: '2500' }, payload });
const svm = (payload: unknown) => ({ x402Version: 2, accepted: { scheme: 'exact', network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }, payload });

describe('paymentHeaderProblem', () => {
  test.each([
    ['an EIP-3009 payment', evm({ signature: `0x${'12'.repeat(65)}`, authorization })],
    ['a Solana payment', svm({ transaction: Buffer.from('a transaction').toString('base64') })],
    ['a payment for a network no requirement names (x402 refuses it)', { x402Version: 2, accepted: { scheme: 'exact', network: 'cosmos:1' }, payload: {} }],
  ])('%s is well-formed', (_name, payload) => {
    expect(paymentHeaderProblem(encode(payload))).toBeUndefined();
  });

  test.each([
    ['not base64', 'abc\0def', 'is not base64'],
    ['URL-safe base64', `${encode(evm({})).replaceAll('+', '-').replaceAll('/', '_')}-_`, 'is not base64'],
    ['base64 of no JSON', encode('abc\u0000\u0001def'), 'is not base64 of a JSON payment payload'],
    ['a JSON string', encode('"str"'), 'is not a JSON payment payload (an object of x402Version, accepted and payload)'],
    ['a string payload', encode({ ...evm(null), payload: 'str' }), 'payload: Invalid input: expected record, received string'],
    ['no accepted requirement', encode({ x402Version: 2, payload: {} }), 'accepted: Invalid input: expected object, received undefined'],
    [
      'an authorization value of no string',
      encode(evm({ signature: '0x12', authorization: { ...authorization, value: 5 } })),
      'payload.authorization.value: must be a decimal integer in a string',
    ],
    ['a missing authorization', encode(evm({ signature: '0x12' })), 'payload.authorization: Invalid input: expected object, received undefined'],
    [
      'a short nonce',
      encode(evm({ signature: '0x12', authorization: { ...authorization, nonce: '0x12' } })),
      'payload.authorization.nonce: must be 32 bytes of 0x-hex',
    ],
    ['a Solana payment without its transaction', encode(svm({})), 'payload.transaction: must be a base64 transaction'],
  ])('%s is refused naming the field', (_name, header, problem) => {
    expect(paymentHeaderProblem(header)).toBe(problem);
  });
});
