import type { SubscriptionEntry } from './subscription-entry.js';
import { createSubscriptionIndex } from './subscription-index.js';

const entry = (id: string): SubscriptionEntry => ({
  id,
  organizationId: '00000000-0000-0000-0000-000000000001',
  network: 'mainnet',
  callbackUrl: 'https://hooks.example/tx',
  addons: [],
  chainIds: [],
  enabled: true,
  filters: null,
});

const ids = (entries: SubscriptionEntry[]) => entries.map((found) => found.id).sort();

describe('subscription index', () => {
  test('an address watched by several subscriptions finds each once', () => {
    const index = createSubscriptionIndex();
    index.put(entry('a'));
    index.put(entry('b'));
    index.addWallets('a', ['0x1', '0x2']);
    index.addWallets('b', ['0x2', '0x2']);
    index.addWallets('a', ['0x2']);
    expect(ids(index.watching('0x1'))).toEqual(['a']);
    expect(ids(index.watching('0x2'))).toEqual(['a', 'b']);
    expect(index.watching('0x3')).toEqual([]);
    expect(index.walletCount).toBe(3);
  });

  test('removing wallets and subscriptions leaves the others', () => {
    const index = createSubscriptionIndex();
    for (const id of ['a', 'b', 'c']) index.put(entry(id));
    index.addWallets('a', ['0x1', '0x2']);
    index.addWallets('b', ['0x2']);
    index.addWallets('c', ['0x2', '0x3']);
    index.removeWallets('b', ['0x2', '0x9']);
    expect(ids(index.watching('0x2'))).toEqual(['a', 'c']);
    index.remove('c');
    expect(ids(index.watching('0x2'))).toEqual(['a']);
    expect(index.watching('0x3')).toEqual([]);
    expect(index.subscription('c')).toBeUndefined();
    expect(index.walletCount).toBe(2);
    expect(index.subscriptionCount).toBe(2);
  });

  test("clearing a subscription's wallets keeps the subscription", () => {
    const index = createSubscriptionIndex();
    index.put(entry('a'));
    index.put(entry('b'));
    index.addWallets('a', ['0x1', '0x2']);
    index.addWallets('b', ['0x1']);
    index.clearWallets('a');
    expect(ids(index.watching('0x1'))).toEqual(['b']);
    expect(index.watching('0x2')).toEqual([]);
    expect(index.subscription('a')?.id).toBe('a');
    expect(index.walletCount).toBe(1);
  });

  test('settings replaced in place apply to every wallet', () => {
    const index = createSubscriptionIndex();
    index.put(entry('a'));
    index.addWallets('a', ['0x1']);
    index.put({ ...entry('a'), enabled: false });
    expect(index.watching('0x1')[0]?.enabled).toBe(false);
  });
});
