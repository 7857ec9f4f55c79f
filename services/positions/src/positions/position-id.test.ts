import { groupId, protocolPositionId, stableId, walletPositionId } from './position-id.js';

const wallet = '0x00000000000000000000000000000000000000aa';

test('an id is 43 base64url characters and the same for the same parts', () => {
  const id = walletPositionId(wallet, 'ethereum', '');
  expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(walletPositionId(wallet, 'ethereum', '')).toBe(id);
});

test.each([
  ['another chain', walletPositionId(wallet, 'base', '')],
  ['another asset', walletPositionId(wallet, 'ethereum', '0x00000000000000000000000000000000000000bb')],
  ['a protocol position in the same asset', protocolPositionId(wallet, 'ethereum', 'lending', '0x01', 'deposit', '')],
  ['a group', groupId(wallet, 'ethereum', 'wallet', '')],
])('%s gets another id', (_name, other) => {
  expect(other).not.toBe(walletPositionId(wallet, 'ethereum', ''));
});

test('parts are not merely concatenated', () => {
  expect(stableId(['ab', 'c'])).not.toBe(stableId(['a', 'bc']));
});

test('deposit and loan, or two tokens, of one protocol instance differ', () => {
  const deposit = protocolPositionId(wallet, 'ethereum', 'lending', '0x01', 'deposit', '0x02');
  expect(protocolPositionId(wallet, 'ethereum', 'lending', '0x01', 'loan', '0x02')).not.toBe(deposit);
  expect(protocolPositionId(wallet, 'ethereum', 'lending', '0x01', 'deposit', '0x03')).not.toBe(deposit);
});
