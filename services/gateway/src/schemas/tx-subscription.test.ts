import type { z } from 'zod';
import { describeBodyIssue } from '../routes/define-route.js';
import {
  callbackUrlBody,
  chainIdsBody,
  createSubscriptionBody,
  deliveryIdParams,
  filtersBody,
  replaceWalletsBody,
  subscriptionIdParam,
  subscriptionsPageQuery,
  updateWalletsBody,
  walletsPageQuery,
} from './tx-subscription.js';

// Never the zero address (a burn address, refused as a wallet to watch), in the order of n.
const evm = (n: number) => `0x1${n.toString(16).padStart(39, '0')}`;
const solana = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';
const callback = 'https://hooks.example.com/wallets';

/** The 400 detail define-route would answer, or the parsed value. */
function check(schema: z.ZodType, value: unknown): { detail: string } | { value: unknown } {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { detail: describeBodyIssue(result.error) };
}

describe('POST /v1/tx-subscriptions/ body', () => {
  test('callback_url and 1 to 100 EVM (any case) or Solana addresses; chain_ids and filters optional', () => {
    const body = { callback_url: callback, addresses: [evm(1).toUpperCase().replace('0X', '0x'), solana] };
    expect(check(createSubscriptionBody, body)).toEqual({ value: body });
    const full = { ...body, chain_ids: ['ethereum'], filters: { exclude: { trash: true } } };
    expect(check(createSubscriptionBody, full)).toEqual({ value: full });
    expect(check(createSubscriptionBody, { ...body, filters: null })).toEqual({ value: { ...body, filters: null } });
  });

  test.each([
    [{ addresses: [evm(1)] }, 'parameter callback_url: is required'],
    [{ callback_url: callback }, 'parameter addresses: is required'],
    [{ callback_url: 'not a url', addresses: [evm(1)] }, 'parameter callback_url: must be an absolute URL'],
    [{ callback_url: '/relative/path', addresses: [evm(1)] }, 'parameter callback_url: must be an absolute URL'],
    [{ callback_url: 'mailto:ops@example.com', addresses: [evm(1)] }, 'parameter callback_url: must be an absolute URL'],
    [{ callback_url: `https://x.test/${'a'.repeat(2048)}`, addresses: [evm(1)] }, 'parameter callback_url: must be at most 2048 characters'],
    [{ callback_url: callback, addresses: [] }, 'parameter addresses: must be a list of 1 to 100 addresses (got 0)'],
    [
      { callback_url: callback, addresses: Array.from({ length: 101 }, (_, i) => evm(i)) },
      'parameter addresses: must be a list of 1 to 100 addresses (got 101)',
    ],
    [{ callback_url: callback, addresses: [evm(0), evm(1), evm(2), '0x123'] }, 'parameter addresses[3]: is not an EVM or Solana address'],
    [{ callback_url: callback, addresses: [evm(0), 42] }, 'parameter addresses[1]: is not an EVM or Solana address'],
    [{ callback_url: callback, addresses: [evm(1)], chain_ids: ['ethereum', 'bad chain'] }, 'parameter chain_ids[1]: must be a chain id'],
    [{ callback_url: callback, addresses: [evm(1)], chain_ids: 'ethereum' }, 'parameter chain_ids: must be a list of chain ids'],
    [{ callback_url: callback, addresses: [evm(1)], chainIds: ['ethereum'] }, 'parameter chainIds: is not a known key'],
    [[callback], 'request body: must be a JSON object'],
  ])('%j -> %s', (body, detail) => {
    expect(check(createSubscriptionBody, body)).toEqual({ detail });
  });
});

describe('filters', () => {
  const withFilters = (filters: unknown) => check(filtersBody, { filters });

  test('omitted, null, {} and every exclude key are accepted as given', () => {
    expect(check(filtersBody, {})).toEqual({ value: {} });
    expect(withFilters(null)).toEqual({ value: { filters: null } });
    expect(withFilters({})).toEqual({ value: { filters: {} } });
    const exclude = { operation_types: ['trade', 'revoke_delegation'], trash: false, dapp_ids: ['uniswap-v3'], addresses: [evm(7), solana] };
    expect(withFilters({ exclude })).toEqual({ value: { filters: { exclude } } });
    expect(withFilters({ exclude: { operation_types: [] } })).toEqual({ value: { filters: { exclude: { operation_types: [] } } } });
  });

  test.each([
    [{ include: {} }, 'parameter filters.include: is not a known key'],
    [{ exclude: { spam: true } }, 'parameter filters.exclude.spam: is not a known key'],
    [{ exclude: { trash: 'yes', spam: true } }, 'parameter filters.exclude.spam: is not a known key'],
    [
      { exclude: { operation_types: ['trade', 'fee'] } },
      expect.stringMatching(/^parameter filters\.exclude\.operation_types\[1\]: must be one of approve, bid, .*withdraw$/),
    ],
    [{ exclude: { trash: 1 } }, 'parameter filters.exclude.trash: must be true or false'],
    [{ exclude: { dapp_ids: [''] } }, 'parameter filters.exclude.dapp_ids[0]: must be 1 to 32 characters'],
    [{ exclude: { addresses: ['nope'] } }, 'parameter filters.exclude.addresses[0]: is not an EVM or Solana address'],
    [{ exclude: { addresses: Array.from({ length: 101 }, (_, i) => evm(i)) } }, 'parameter filters.exclude.addresses: must hold at most 100 addresses'],
    [{ exclude: [] }, 'parameter filters.exclude: must be an object'],
    ['all', 'parameter filters: must be an object or null'],
  ])('%j -> %s', (filters, detail) => {
    expect(withFilters(filters)).toEqual({ detail });
  });

  test('an unknown key beside filters is named too', () => {
    expect(check(filtersBody, { filter: null })).toEqual({ detail: 'parameter filter: is not a known key' });
  });
});

describe('wallet list bodies', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => evm(i));

  test('PATCH: add, remove or both, each at most 100', () => {
    expect(check(updateWalletsBody, { add: hundred })).toEqual({ value: { add: hundred } });
    expect(check(updateWalletsBody, { remove: [solana] })).toEqual({ value: { remove: [solana] } });
    expect(check(updateWalletsBody, { add: [], remove: [] })).toEqual({ value: { add: [], remove: [] } });
  });

  test.each([
    [{}, 'request body: must contain add, remove or both'],
    [{ add: [...hundred, evm(100)] }, 'parameter add: must be a list of at most 100 addresses (got 101)'],
    [{ add: [evm(1)], remove: [...hundred, evm(100)] }, 'parameter remove: must be a list of at most 100 addresses (got 101)'],
    // The list's size is reported before a bad entry in it.
    [{ add: ['bad', ...hundred] }, 'parameter add: must be a list of at most 100 addresses (got 101)'],
    [{ remove: [evm(1), 'bad'] }, 'parameter remove[1]: is not an EVM or Solana address'],
    [{ add: evm(1) }, 'parameter add: must be a list of at most 100 addresses'],
    [{ addresses: [evm(1)] }, 'parameter addresses: is not a known key'],
  ])('PATCH %#: %s', (body, detail) => {
    expect(check(updateWalletsBody, body)).toEqual({ detail });
  });

  test('PUT: the whole list, at most 10,000 (empty allowed)', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => evm(i));
    expect(check(replaceWalletsBody, { addresses: many })).toEqual({ value: { addresses: many } });
    expect(check(replaceWalletsBody, { addresses: [] })).toEqual({ value: { addresses: [] } });
    expect(check(replaceWalletsBody, { addresses: [...many, evm(10_000)] })).toEqual({
      detail: 'parameter addresses: must be a list of at most 10000 addresses (got 10001)',
    });
    expect(check(replaceWalletsBody, {})).toEqual({ detail: 'parameter addresses: is required' });
  });
});

describe('settings bodies', () => {
  test('callback_url and chain_ids are required; chain_ids may be empty', () => {
    expect(check(callbackUrlBody, { callback_url: callback })).toEqual({ value: { callback_url: callback } });
    expect(check(callbackUrlBody, {})).toEqual({ detail: 'parameter callback_url: is required' });
    expect(check(chainIdsBody, { chain_ids: [] })).toEqual({ value: { chain_ids: [] } });
    expect(check(chainIdsBody, {})).toEqual({ detail: 'parameter chain_ids: is required' });
    expect(check(chainIdsBody, { chain_ids: Array.from({ length: 101 }, () => 'ethereum') })).toEqual({
      detail: 'parameter chain_ids: must hold at most 100 chain ids',
    });
  });
});

describe('path and page parameters', () => {
  test('ids: the opaque forms the service returns; anything else is malformed', () => {
    expect(subscriptionIdParam.safeParse({ subscription_id: 'sub_0123456789abcdef0123456789abcdef' }).success).toBe(true);
    expect(subscriptionIdParam.safeParse({ subscription_id: 'a b' }).success).toBe(false);
    expect(deliveryIdParams.safeParse({ subscription_id: 'sub_1', delivery_id: 'x'.repeat(129) }).success).toBe(false);
  });

  test('page[size]: default 100; subscriptions up to 100, wallets up to 2000', () => {
    expect(subscriptionsPageQuery.parse({})).toEqual({ 'page[size]': 100 });
    expect(subscriptionsPageQuery.safeParse({ 'page[size]': '101' }).error?.issues[0]?.message).toBe('must be an integer from 1 to 100');
    expect(subscriptionsPageQuery.safeParse({ 'page[size]': '0' }).success).toBe(false);
    expect(walletsPageQuery.parse({ 'page[size]': '2000', 'page[after]': 'eyJrIjoid2FsbGV0cyJ9' })).toEqual({
      'page[size]': 2000,
      'page[after]': 'eyJrIjoid2FsbGV0cyJ9',
    });
    expect(walletsPageQuery.safeParse({ 'page[size]': '2001' }).error?.issues[0]?.message).toBe('must be an integer from 1 to 2000');
    expect(walletsPageQuery.safeParse({ 'page[after]': '' }).error?.issues[0]?.message).toBe('must be the cursor links.next gave');
  });
});
