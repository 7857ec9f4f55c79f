import type { BalanceEntry } from '../store/balance-store.js';
import { firstReadPoints } from './read-points.js';

const entry = (wallet: string, blockNumber: number, transactionIndex: number, blockHash = `0xb${blockNumber}`): BalanceEntry => ({
  chainId: 'ethereum',
  blockHash,
  transactionIndex,
  wallet,
  asset: '',
  blockNumber: BigInt(blockNumber),
  blockTimestamp: BigInt(1_000 + blockNumber),
  amount: 1n,
});
const key = (wallet: string) => ({ chainId: 'ethereum', wallet, asset: '' });

test.each([
  {
    name: 'the earliest entry, by block then transaction, whatever the order of arrival',
    entries: [entry('0xa', 7, 3), entry('0xa', 5, 9), entry('0xa', 5, 2)],
    orphaned: [],
    expected: { blockHash: '0xb5', blockNumber: 5n, blockTimestamp: 1_005n },
  },
  {
    name: 'an entry of an orphaned block is passed over for a counted one',
    entries: [entry('0xa', 5, 0), entry('0xa', 6, 0, '0xc6')],
    orphaned: ['0xb5'],
    expected: { blockHash: '0xc6', blockNumber: 6n, blockTimestamp: 1_006n },
  },
  {
    name: 'only orphaned blocks: the earliest, whose rollback ancestor is read',
    entries: [entry('0xa', 6, 0), entry('0xa', 5, 1)],
    orphaned: ['0xb5', '0xb6'],
    expected: { orphaned: '0xb5' },
  },
])('$name', ({ entries, orphaned, expected }) => {
  const points = firstReadPoints([...entries, entry('0xother', 1, 0)], [key('0xa')], (_, hash) => orphaned.includes(hash));
  expect([...points]).toEqual([['ethereum:0xa:', expected]]);
});

test('balances that already have an opening get no read point', () => {
  expect(firstReadPoints([entry('0xa', 5, 0)], [], () => false).size).toBe(0);
});
