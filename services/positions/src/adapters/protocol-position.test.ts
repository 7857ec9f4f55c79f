import { parseProtocolPositions, serializeProtocolPositions, type ProtocolPosition } from './protocol-position.js';

const positions: ProtocolPosition[] = [
  {
    protocol: 'uniswap-v2',
    type: 'deposit',
    token: '0x00000000000000000000000000000000000000a1',
    amount: 115792089237316195423570985008687907853269984665640564039457584007913129639935n,
    key: '0x00000000000000000000000000000000000000b1',
    contract: '0x00000000000000000000000000000000000000c1',
    poolAddress: '0x00000000000000000000000000000000000000b1',
    group: '0x00000000000000000000000000000000000000b1',
    parentType: '',
    receipt: { kind: 'fungible', token: '0x00000000000000000000000000000000000000b1', amount: 12n },
  },
  {
    protocol: 'uniswap-v3',
    type: 'reward',
    token: '0x00000000000000000000000000000000000000a2',
    amount: 1n,
    key: '0x00000000000000000000000000000000000000c2:7',
    contract: '0x00000000000000000000000000000000000000c2',
    poolAddress: '0x00000000000000000000000000000000000000d2',
    group: '0x00000000000000000000000000000000000000c2:7',
    parentType: 'deposit',
    receipt: { kind: 'nft', contract: '0x00000000000000000000000000000000000000c2', tokenId: '7' },
  },
  {
    protocol: 'lending',
    type: 'loan',
    token: '0x00000000000000000000000000000000000000a3',
    amount: 5n,
    key: '0x00000000000000000000000000000000000000e3',
    contract: '0x00000000000000000000000000000000000000e3',
    poolAddress: '',
    group: '',
    parentType: '',
  },
];

test('positions survive the snapshot JSON exactly, uint256 amounts included', () => {
  expect(parseProtocolPositions(JSON.parse(JSON.stringify(serializeProtocolPositions(positions))))).toEqual(positions);
});

test('a snapshot that is not the adapters’ shape is refused', () => {
  expect(() => parseProtocolPositions([{ ...(serializeProtocolPositions(positions)[0] as object), amount: '1.5' }])).toThrow();
});
