import { isExcluded, type FilterSubject } from './exclude-filter.js';

const subject: FilterSubject = {
  operationType: 'trade',
  isTrash: false,
  dappIds: ['uniswap-v2'],
  counterparties: ['0x00000000000000000000000000000000000000aa'],
};

describe('isExcluded', () => {
  test.each([
    ['no filters', undefined, subject, false],
    ['an empty exclude', {}, subject, false],
    ['its operation type', { operation_types: ['trade'] }, subject, true],
    ['another operation type', { operation_types: ['send', 'receive'] }, subject, false],
    ['trash when the reading is trash', { trash: true }, { ...subject, isTrash: true }, true],
    ['trash when the reading is not', { trash: true }, subject, false],
    ['trash: false keeps trash', { trash: false }, { ...subject, isTrash: true }, false],
    ['a dapp it touched', { dapp_ids: ['aave', 'uniswap-v2'] }, subject, true],
    ['a dapp it did not touch', { dapp_ids: ['aave'] }, subject, false],
    ['a counterparty', { addresses: ['0x00000000000000000000000000000000000000aa'] }, subject, true],
    ['another address', { addresses: ['0x00000000000000000000000000000000000000bb'] }, subject, false],
    ['one criterion of several', { operation_types: ['send'], addresses: ['0x00000000000000000000000000000000000000aa'] }, subject, true],
  ])('%s', (_name, exclude, reading, expected) => {
    expect(isExcluded(exclude, reading)).toBe(expected);
  });
});
