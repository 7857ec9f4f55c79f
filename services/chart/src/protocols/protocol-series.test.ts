import type { ProtocolAmount } from '@wallet-api/core/proto/positions';
import { poolNames, selects, type PositionSelection } from './protocol-series.js';

const pair = '0x00000000000000000000000000000000000000a1';
const pool = '0x00000000000000000000000000000000000000b2';
const manager = '0x00000000000000000000000000000000000000c3';
const token = '0x00000000000000000000000000000000000000d4';

const v2: ProtocolAmount = { positionType: 'deposit', token, amount: '5', poolAddress: pair, fungibleReceipt: pair, receiptAmount: '7' };
const v3: ProtocolAmount = { positionType: 'deposit', token, amount: '5', poolAddress: pool, nftReceipt: `${manager}:12`, receiptAmount: '' };
const loan: ProtocolAmount = { positionType: 'loan', token, amount: '5', poolAddress: '', receiptAmount: '' };

const selection = (fields: Partial<PositionSelection>): PositionSelection => ({
  positions: 'no_filter',
  poolAddresses: [],
  excludePoolAddresses: [],
  ...fields,
});

test('a position answers to its pool, its share token and its LP NFT, as spec 4.1 names pools', () => {
  expect(poolNames(v2)).toEqual([pair, pair]);
  expect(poolNames(v3)).toEqual([pool, `${manager}:12`]);
  expect(poolNames(loan)).toEqual([]);
});

test.each([
  ['only_simple charts no protocol position', selection({ positions: 'only_simple' }), [false, false, false]],
  ['only_complex charts every one', selection({ positions: 'only_complex' }), [true, true, true]],
  ['no_filter charts every one', selection({}), [true, true, true]],
  ['a pool filter by pool address keeps that pool alone', selection({ poolAddresses: [pool] }), [false, true, false]],
  ['a pool filter by LP NFT keeps that NFT alone', selection({ poolAddresses: [`${manager}:12`] }), [false, true, false]],
  ['another NFT of the same manager is another position', selection({ poolAddresses: [`${manager}:13`] }), [false, false, false]],
  ['an exclusion by share token removes that pool and keeps the rest', selection({ excludePoolAddresses: [pair] }), [false, true, true]],
  ['an exclusion naming nothing held removes nothing', selection({ positions: 'only_complex', excludePoolAddresses: [manager] }), [true, true, true]],
] as const)('%s', (_name, chosen, expected) => {
  expect([v2, v3, loan].map((position) => selects(chosen, position))).toEqual(expected);
});
