import { status } from '@grpc/grpc-js';
import {
  decodeDeliveriesCursor,
  decodeSubscriptionsCursor,
  decodeWalletsCursor,
  encodeDeliveriesCursor,
  encodeSubscriptionsCursor,
  encodeWalletsCursor,
} from './page-cursor.js';

const sub = 'sub_0123456789abcdef0123456789abcdef';
const other = 'sub_fedcba9876543210fedcba9876543210';
const createdAt = new Date('2026-11-24T05:40:00.123Z');
const notACursor = expect.objectContaining({ code: status.INVALID_ARGUMENT, message: 'page[after] is not a cursor this endpoint returned' });
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('page cursors', () => {
  test('round trips, URL-safe', () => {
    const subscriptions = encodeSubscriptionsCursor({ createdAt, id: sub });
    const wallets = encodeWalletsCursor({ subscriptionId: sub, address: '0xabc' });
    const deliveries = encodeDeliveriesCursor({ subscriptionId: sub, createdAt, id: 'dlv_1' });
    for (const cursor of [subscriptions, wallets, deliveries]) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSubscriptionsCursor(subscriptions)).toEqual({ createdAt, id: sub });
    expect(decodeWalletsCursor(wallets, sub)).toBe('0xabc');
    expect(decodeDeliveriesCursor(deliveries, sub)).toEqual({ createdAt, id: 'dlv_1' });
  });

  test('empty is the first page', () => {
    expect(decodeSubscriptionsCursor('')).toBeUndefined();
    expect(decodeWalletsCursor('', sub)).toBeUndefined();
    expect(decodeDeliveriesCursor('', sub)).toBeUndefined();
  });

  test.each([
    ['garbage', 'not a cursor!'],
    ['base64 of non-JSON', Buffer.from('hello').toString('base64url')],
    ['JSON of a string', raw('x')],
    ['JSON of an array', raw([])],
    ["another list's cursor", encodeWalletsCursor({ subscriptionId: sub, address: '0xabc' })],
    ['a missing field', raw({ k: 'subscriptions', t: createdAt.toISOString() })],
    ['an extra field', raw({ k: 'subscriptions', t: createdAt.toISOString(), i: sub, x: '1' })],
    ['a number id', raw({ k: 'subscriptions', t: createdAt.toISOString(), i: 5 })],
    ['a time that is not ISO', raw({ k: 'subscriptions', t: 'yesterday', i: sub })],
    ['a time without milliseconds', raw({ k: 'subscriptions', t: '2026-11-24T05:40:00Z', i: sub })],
    ['an impossible date', raw({ k: 'subscriptions', t: '2026-13-45T05:40:00.000Z', i: sub })],
    ['too long', 'A'.repeat(2000)],
  ])('subscriptions: %s is INVALID_ARGUMENT', (_, text) => {
    expect(() => decodeSubscriptionsCursor(text)).toThrow(notACursor);
  });

  test('a wallets or deliveries cursor of another subscription is INVALID_ARGUMENT', () => {
    expect(() => decodeWalletsCursor(encodeWalletsCursor({ subscriptionId: other, address: '0xabc' }), sub)).toThrow(notACursor);
    expect(() => decodeDeliveriesCursor(encodeDeliveriesCursor({ subscriptionId: other, createdAt, id: 'd' }), sub)).toThrow(notACursor);
    expect(() => decodeDeliveriesCursor(encodeSubscriptionsCursor({ createdAt, id: sub }), sub)).toThrow(notACursor);
  });
});
