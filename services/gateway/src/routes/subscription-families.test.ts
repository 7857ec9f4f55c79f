import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import { firstUncarriedAddress } from './subscription-families.js';

const families = new Map([
  ['ethereum', ChainFamily.CHAIN_FAMILY_EVM],
  ['base', ChainFamily.CHAIN_FAMILY_EVM],
  ['solana', ChainFamily.CHAIN_FAMILY_SOLANA],
]);
const evm = '0x1000000000000000000000000000000000000001';
const solana = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';

describe('firstUncarriedAddress', () => {
  test('the first address no named chain carries, by index', () => {
    expect(firstUncarriedAddress([evm, solana], ['ethereum', 'base'], families)).toBe(1);
    expect(firstUncarriedAddress([solana, evm], ['solana'], families)).toBe(1);
  });

  test('-1 when each address has a chain of its family, or no chain is named (every eligible chain)', () => {
    expect(firstUncarriedAddress([evm, solana], ['ethereum', 'solana'], families)).toBe(-1);
    expect(firstUncarriedAddress([evm, solana], [], families)).toBe(-1);
    expect(firstUncarriedAddress([], ['base'], families)).toBe(-1);
  });

  test('a chain the catalog does not know carries nothing', () => {
    expect(firstUncarriedAddress([evm], ['no-such-chain'], families)).toBe(0);
  });
});
