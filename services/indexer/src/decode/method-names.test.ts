import { methodOf } from './method-names.js';

describe('methodOf', () => {
  test.each([
    { name: 'plain transfer', input: '0x', expected: { id: '', name: '' } },
    {
      name: 'ERC-20 transfer',
      input: '0xa9059cbb0000000000000000000000000000000000000000000000000000000000000001',
      expected: { id: '0xa9059cbb', name: 'transfer' },
    },
    { name: 'upper-case hex', input: '0x095EA7B3', expected: { id: '0x095ea7b3', name: 'approve' } },
    { name: 'WETH deposit', input: '0xd0e30db0', expected: { id: '0xd0e30db0', name: 'deposit' } },
    { name: 'V2 swapExactETHForTokens', input: '0x7ff36ab5', expected: { id: '0x7ff36ab5', name: 'swapExactETHForTokens' } },
    { name: 'V3 exactInputSingle', input: '0x414bf389', expected: { id: '0x414bf389', name: 'exactInputSingle' } },
    { name: 'position manager multicall', input: '0xac9650d8', expected: { id: '0xac9650d8', name: 'multicall' } },
    { name: 'Safe execTransaction', input: '0x6a761202', expected: { id: '0x6a761202', name: 'execTransaction' } },
    { name: 'EntryPoint v0.6 handleOps', input: '0x1fad948c', expected: { id: '0x1fad948c', name: 'handleOps' } },
    { name: 'unknown selector', input: '0xdeadbeef', expected: { id: '0xdeadbeef', name: '' } },
    { name: 'shorter than a selector', input: '0xa9059c', expected: { id: '', name: '' } },
  ])('$name', ({ input, expected }) => {
    expect(methodOf(input)).toEqual(expected);
  });
});
