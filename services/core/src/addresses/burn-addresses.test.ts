import { isBuiltInBurnAddress } from './burn-addresses.js';

describe('isBuiltInBurnAddress', () => {
  test.each([
    ['0x0000000000000000000000000000000000000000', true],
    ['0x000000000000000000000000000000000000dEaD', true],
    ['0xdead000000000000000000000000000000000000', true],
    ['0x000000000000000000000000000000000000dea0', false],
    ['11111111111111111111111111111111', false],
  ])('%s is a built-in burn address: %s', (candidate, expected) => {
    expect(isBuiltInBurnAddress(candidate)).toBe(expected);
  });
});
