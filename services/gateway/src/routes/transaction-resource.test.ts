import { cursorFromPage, formatUnits, quantity, transactionId } from './transaction-resource.js';
import { transactionsQuery } from '../schemas/transaction.js';

describe('formatUnits and quantity', () => {
  test.each([
    ['1500000000000000000', 18, '1.5'],
    ['1', 18, '0.000000000000000001'],
    ['0', 6, '0'],
    ['2500000', 6, '2.5'],
    ['-1234', 2, '-12.34'],
    ['42', 0, '42'],
    ['115792089237316195423570985008687907853269984665640564039457584007913129639935', 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
  ])('%s with %i decimals is %s', (amount, decimals, numeric) => {
    expect(formatUnits(amount, decimals)).toBe(numeric);
    expect(quantity(amount, decimals)).toEqual({ int: amount, decimals, float: Number(numeric), numeric });
  });
});

describe('cursor', () => {
  test('the id and mined time of the last item read back as its cursor', () => {
    const cursor = { chainId: 'base-sepolia.x', blockNumber: '18446744073709551615', transactionIndex: 4, minedAtMs: '1700000000000' };
    const id = transactionId(cursor);
    expect(id).toBe('base-sepolia.x:18446744073709551615:4');
    const query = transactionsQuery.parse({ 'page[lastId]': id, 'page[lastTimestamp]': cursor.minedAtMs });
    expect(cursorFromPage(query['page[lastId]']!, query['page[lastTimestamp]']!)).toEqual(cursor);
  });

  test('the query defaults to usd, only_non_trash and 100 per page', () => {
    expect(transactionsQuery.parse({})).toEqual({ currency: 'usd', 'filter[trash]': 'only_non_trash', 'filter[include_pending]': 'false', 'page[size]': 100 });
  });
});
