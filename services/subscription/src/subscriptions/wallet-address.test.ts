import { status } from '@grpc/grpc-js';
import { normalizeAddress, normalizeAddressList } from './wallet-address.js';

const solana = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

describe('normalizeAddress', () => {
  test.each([
    ['0xAbCdEf0123456789aBcDeF0123456789AbCdEf01', '0xabcdef0123456789abcdef0123456789abcdef01'],
    ['0xabcdef0123456789abcdef0123456789abcdef01', '0xabcdef0123456789abcdef0123456789abcdef01'],
    [solana, solana],
    ['11111111111111111111111111111111', '11111111111111111111111111111111'],
    ['0XABCDEF0123456789ABCDEF0123456789ABCDEF01', undefined],
    ['0xabcdef0123456789abcdef0123456789abcdef0', undefined],
    ['0xabcdef0123456789abcdef0123456789abcdef012', undefined],
    ['0xgbcdef0123456789abcdef0123456789abcdef01', undefined],
    ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAs0', undefined],
    ['short1111', undefined],
    ['', undefined],
  ])('%j -> %j', (address, expected) => {
    expect(normalizeAddress(address)).toBe(expected);
  });
});

describe('normalizeAddressList', () => {
  test('collapses duplicates after normalising, keeping the first order', () => {
    expect(
      normalizeAddressList(['0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', solana, '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', solana], 'addresses'),
    ).toEqual(['0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', solana]);
  });

  test('an address of neither family is INVALID_ARGUMENT naming the parameter', () => {
    expect(() => normalizeAddressList([solana, 'nope'], 'add')).toThrow(
      expect.objectContaining({ code: status.INVALID_ARGUMENT, message: 'add holds "nope", which is not an EVM or Solana address' }),
    );
  });
});
