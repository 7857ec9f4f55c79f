import { encodeAbiParameters, stringToHex } from 'viem';
import { decodeDecimals, decodeSupportsInterface, decodeTokenText, tokenMetadataFromAnswers } from './token-decode.js';

const abiString = (text: string) => encodeAbiParameters([{ type: 'string' }], [text]);
const uint = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value]);

describe('token call results', () => {
  test.each([
    ['an ABI string', abiString('USD Coin'), 'USD Coin'],
    ['a bytes32 padded with zeros (MKR style)', stringToHex('MKR', { size: 32 }), 'MKR'],
    ['control characters and padding', abiString('\u0000Frog\u0007 '), 'Frog'],
    ['no data', '0x', undefined],
    ['a short answer', '0x1234', undefined],
    ['an offset pointing nowhere', uint(4096n) + '0'.repeat(64), undefined],
  ] as const)('name/symbol from %s', (_name, data, expected) => {
    expect(decodeTokenText(data as `0x${string}`)).toBe(expected);
  });

  test.each([
    [uint(6n), 6],
    [uint(255n), 255],
    [uint(256n), undefined],
    ['0x', undefined],
  ] as const)('decimals %s', (data, expected) => {
    expect(decodeDecimals(data as `0x${string}`)).toBe(expected);
  });

  test('supportsInterface is true only for an encoded true', () => {
    expect(decodeSupportsInterface(uint(1n))).toBe(true);
    expect(decodeSupportsInterface(uint(0n))).toBe(false);
    expect(decodeSupportsInterface(uint(2n))).toBe(false);
    expect(decodeSupportsInterface(`${uint(1n)}00`)).toBe(false);
  });

  test.each([
    ['ERC-1155 wins', { erc721: false, erc1155: true, name: 'Passes', decimals: 0 }, { interface: 'erc1155', name: 'Passes', symbol: '', decimals: 0 }],
    ['ERC-721', { erc721: true, erc1155: false, name: 'Birds', symbol: 'BIRD' }, { interface: 'erc721', name: 'Birds', symbol: 'BIRD', decimals: 0 }],
    [
      'decimals make an ERC-20',
      { erc721: false, erc1155: false, name: 'USD Coin', symbol: 'USDC', decimals: 6 },
      { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    ],
    ['an ERC-20 without name', { erc721: false, erc1155: false, decimals: 18 }, { interface: 'erc20', name: '', symbol: '', decimals: 18 }],
    ['a name alone is not a token', { erc721: false, erc1155: false, name: 'Uniswap V3 Factory' }, undefined],
  ] as const)('%s', (_name, answers, expected) => {
    expect(tokenMetadataFromAnswers(answers)).toEqual(expected);
  });
});
