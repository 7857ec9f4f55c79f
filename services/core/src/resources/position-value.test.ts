import type { Position } from '../generated/proto/positions.js';
import { sortByValue } from './position-order.js';
import { displayQuantity, valuePosition } from './position-value.js';

function position(id: string, amount: string, decimals: number, fields: Partial<Position> = {}): Position {
  return {
    id,
    chainId: 'ethereum',
    name: id,
    positionType: 'wallet',
    amount,
    token: { chainId: 'ethereum', address: '', interface: 1, name: '', symbol: '', decimals, fungibleId: '', iconUrl: '', verified: false, isSpam: false },
    protocol: '',
    protocolModule: '',
    poolAddress: '',
    groupId: '',
    parentId: '',
    dapp: undefined,
    isTrash: false,
    displayable: true,
    updatedAt: '0',
    updatedAtBlock: '0',
    ...fields,
  };
}

test.each([
  ['1500000', 6, 1.5],
  ['1', 18, 1e-18],
  ['123456789012345678901234567890', 18, 123456789012.34567],
  ['0', 0, 0],
])('%s base units at %i decimals is %d', (amount, decimals, expected) => {
  expect(displayQuantity(amount, { decimals })).toBe(expected);
});

test('a ScaledUiAmount token is shown and valued at the multiplier in force now', () => {
  const scaledUiAmount = { multiplier: '1.05', newMultiplier: '2.1', newMultiplierEffectiveTimestamp: String(Math.floor(Date.now() / 1000) - 60) };
  expect(displayQuantity('1500000', { decimals: 6, scaledUiAmount })).toBe(3.15);
  const pending = { ...scaledUiAmount, newMultiplierEffectiveTimestamp: String(Math.floor(Date.now() / 1000) + 3600) };
  expect(displayQuantity('1500000', { decimals: 6, scaledUiAmount: pending })).toBe(1.575);
  const token = { ...position('x', '2000000', 6).token!, scaledUiAmount };
  expect(valuePosition({ ...position('x', '2000000', 6), token }, { now: 10 })).toMatchObject({ value: 42 });
});

test('value is quantity times price; the change compares with the same quantity a day ago', () => {
  const valued = valuePosition(position('eth', '2000000000000000000', 18), { now: 3000, dayAgo: 2500 });
  expect(valued).toMatchObject({ price: 3000, value: 6000, changeAbsolute1d: 1000, changePercent1d: 20 });
});

test('a loan keeps a positive value', () => {
  expect(valuePosition(position('debt', '5000000', 6, { positionType: 'loan' }), { now: 1, dayAgo: 1 })).toMatchObject({ value: 5, changeAbsolute1d: 0 });
});

test('no price leaves price, value and change absent; no price a day ago leaves the change absent', () => {
  const unpriced = valuePosition(position('x', '1', 0), {});
  expect([unpriced.price, unpriced.value, unpriced.changeAbsolute1d]).toEqual([undefined, undefined, undefined]);
  const young = valuePosition(position('x', '1', 0), { now: 2 });
  expect([young.value, young.changeAbsolute1d, young.changePercent1d]).toEqual([2, undefined, undefined]);
});

test('a zero value a day ago gives a 0 % change rather than infinity', () => {
  expect(valuePosition(position('x', '1', 0), { now: 2, dayAgo: 0 })).toMatchObject({ changeAbsolute1d: 2, changePercent1d: 0 });
});

test('sorting: by value either way, unvalued last, ties by id', () => {
  const rows = [position('c', '1', 0, { value: 5 }), position('a', '1', 0), position('b', '1', 0, { value: 5 }), position('d', '1', 0, { value: 9 })];
  expect(sortByValue(rows, false).map((row) => row.id)).toEqual(['d', 'b', 'c', 'a']);
  expect(sortByValue(rows, true).map((row) => row.id)).toEqual(['b', 'c', 'd', 'a']);
});
