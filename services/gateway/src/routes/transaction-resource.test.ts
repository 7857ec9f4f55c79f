import { cursorFromPage, transactionId } from './transaction-resource.js';
import { transactionsQuery } from '../schemas/transaction.js';

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
