import type { CallFrame } from '../fetch/block-bundle.js';
import { nativeAsset } from './movement.js';
import { nativeTransfers } from './native-transfers.js';

const a = '0x000000000000000000000000000000000000000a';
const b = '0x000000000000000000000000000000000000000b';
const c = '0x000000000000000000000000000000000000000c';
const d = '0x000000000000000000000000000000000000000d';

const frame = (type: string, from: string, to: string | undefined, value: bigint | undefined, fields: Partial<CallFrame> = {}): CallFrame => ({
  type,
  from: from as CallFrame['from'],
  ...(to ? { to: to as CallFrame['to'] } : {}),
  ...(value !== undefined ? { value: `0x${value.toString(16)}` as CallFrame['value'] } : {}),
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...fields,
});

const move = (sender: string, recipient: string, amount: bigint) => ({ asset: nativeAsset, amount, sender, recipient });

describe('nativeTransfers', () => {
  test.each([
    { name: 'plain transfer', root: frame('CALL', a, b, 5n), expected: [move(a, b, 5n)] },
    { name: 'zero value moves nothing', root: frame('CALL', a, b, 0n), expected: [] },
    {
      name: 'internal transfers in call order after the top-level value',
      root: frame('CALL', a, b, 5n, { calls: [frame('CALL', b, c, 2n, { calls: [frame('CALL', c, d, 1n)] }), frame('CALL', b, a, 3n)] }),
      expected: [move(a, b, 5n), move(b, c, 2n), move(c, d, 1n), move(b, a, 3n)],
    },
    {
      name: 'a reverted frame and its children move nothing',
      root: frame('CALL', a, b, 5n, {
        calls: [frame('CALL', b, c, 2n, { error: 'execution reverted', calls: [frame('CALL', c, d, 1n)] }), frame('CALL', b, d, 4n)],
      }),
      expected: [move(a, b, 5n), move(b, d, 4n)],
    },
    {
      name: 'a reverted transaction moves nothing',
      root: frame('CALL', a, b, 5n, { error: 'execution reverted', calls: [frame('CALL', b, c, 2n)] }),
      expected: [],
    },
    {
      name: 'delegate and static calls carry no value of their own',
      root: frame('CALL', a, b, 0n, {
        calls: [frame('DELEGATECALL', b, c, 7n, { calls: [frame('CALL', b, d, 1n)] }), frame('STATICCALL', b, c, undefined), frame('CALLCODE', b, c, 2n)],
      }),
      expected: [move(b, d, 1n)],
    },
    {
      name: 'contract creation with value',
      root: frame('CREATE', a, c, 9n, { calls: [frame('CREATE2', c, d, 3n)] }),
      expected: [move(a, c, 9n), move(c, d, 3n)],
    },
    { name: 'root creation without a target in the frame', root: frame('CREATE', a, undefined, 9n), expected: [move(a, d, 9n)] },
    {
      name: 'self-destruct sends the balance to the beneficiary',
      root: frame('CALL', a, b, 0n, { calls: [frame('SELFDESTRUCT', b, c, 6n)] }),
      expected: [move(b, c, 6n)],
    },
    {
      name: 'addresses are lowercased',
      root: frame('CALL', '0x00000000000000000000000000000000000000AA', '0x00000000000000000000000000000000000000BB', 1n),
      expected: [move('0x00000000000000000000000000000000000000aa', '0x00000000000000000000000000000000000000bb', 1n)],
    },
  ])('$name', ({ root, expected }) => {
    expect(nativeTransfers(root, d)).toEqual(expected);
  });
});
