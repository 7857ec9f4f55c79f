import { walletAddressParam } from './wallet-query.js';

describe('walletAddressParam', () => {
  test('takes EVM addresses and base58 Solana addresses of 32 bytes', () => {
    expect(walletAddressParam.safeParse({ address: '0x9D129cf1BCc44F80C9F0e315c6Ef2ED21786Dc31' }).success).toBe(true);
    expect(walletAddressParam.safeParse({ address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' }).success).toBe(true);
  });

  test.each(['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '1111111111111111111111111111111', '0x9D129cf1BCc44F80C9F0e315c6Ef2ED21786Dc3', 'not-an-address'])(
    'refuses %s, naming both forms',
    (address) => {
      const result = walletAddressParam.safeParse({ address });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)');
    },
  );
});
