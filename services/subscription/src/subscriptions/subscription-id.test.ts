import { isSubscriptionId, newSubscriptionId } from './subscription-id.js';

describe('subscription ids', () => {
  test('sub_ and 32 lowercase hex digits, never the same twice', () => {
    const ids = Array.from({ length: 1000 }, newSubscriptionId);
    for (const id of ids) expect(id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each([
    ['sub_0123456789abcdef0123456789abcdef', true],
    ['sub_0123456789ABCDEF0123456789ABCDEF', false],
    ['sub_0123456789abcdef0123456789abcde', false],
    ['sub_0123456789abcdef0123456789abcdef0', false],
    ['0123456789abcdef0123456789abcdef', false],
    ['', false],
    ["sub_'; drop table tx_subscriptions; --", false],
  ])('isSubscriptionId(%j) is %s', (text, expected) => {
    expect(isSubscriptionId(text)).toBe(expected);
  });
});
