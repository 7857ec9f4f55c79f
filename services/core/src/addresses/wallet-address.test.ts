import { addressFamily, canonicalWallet, isSolanaAddress } from './wallet-address.js';

describe('wallet addresses', () => {
  test.each([
    ['11111111111111111111111111111111', true], // the System program: 32 zero bytes
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', true],
    ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', true],
    // Base58 alphabet and length 32-44, but 33 bytes once decoded.
    ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', false],
    // 31 bytes.
    ['1111111111111111111111111111111', false],
    ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWW0', false], // 0 is not base58
    ['0x9d129cf1bcc44f80c9f0e315c6ef2ed21786dc31', false],
  ])('isSolanaAddress(%s) is %s, asked again from the kept verdicts too', (value, expected) => {
    expect(isSolanaAddress(value)).toBe(expected);
    expect(isSolanaAddress(value)).toBe(expected);
  });

  test('family and canonical form', () => {
    expect(addressFamily('0x9D129cf1BCc44F80C9F0e315c6Ef2ED21786Dc31')).toBe('evm');
    expect(addressFamily('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).toBe('solana');
    expect(addressFamily('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBeUndefined();
    expect(canonicalWallet('0x9D129cf1BCc44F80C9F0e315c6Ef2ED21786Dc31')).toBe('0x9d129cf1bcc44f80c9f0e315c6ef2ed21786dc31');
    expect(canonicalWallet('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).toBe('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
  });
});
