import { status } from '@grpc/grpc-js';
import type { SubscriptionFilters } from '@wallet-api/core/proto/subscription';
import { filtersFromStored, filtersToStored, parseStoredFilters, type StoredFilters } from './subscription-filters.js';

const solana = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const list = (...values: string[]) => ({ values });
const exclude = (fields: Partial<NonNullable<SubscriptionFilters['exclude']>>): SubscriptionFilters => ({
  exclude: { operationTypes: undefined, dappIds: undefined, addresses: undefined, ...fields },
});

describe('filters between proto and stored JSON', () => {
  test.each<[string, SubscriptionFilters | undefined, StoredFilters | null]>([
    ['absent filters are null', undefined, null],
    ['filters without exclude are {}', { exclude: undefined }, {}],
    ['exclude with nothing given', exclude({}), { exclude: {} }],
    [
      'every criterion',
      exclude({ operationTypes: list('send', 'trade'), trash: true, dappIds: list('uniswap'), addresses: list(solana) }),
      {
        exclude: { operation_types: ['send', 'trade'], trash: true, dapp_ids: ['uniswap'], addresses: [solana] },
      },
    ],
    ['an empty list is kept, not dropped', exclude({ operationTypes: list() }), { exclude: { operation_types: [] } }],
    ['trash false is kept', exclude({ trash: false }), { exclude: { trash: false } }],
  ])('%s', (_, proto, stored) => {
    expect(filtersToStored(proto)).toEqual(stored);
    expect(filtersFromStored(stored)).toEqual(proto);
    expect(parseStoredFilters(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });

  test('counterparty addresses are normalised and deduplicated', () => {
    expect(
      filtersToStored(exclude({ addresses: list('0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', solana) })),
    ).toEqual({ exclude: { addresses: ['0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', solana] } });
  });

  test('a counterparty of neither family is INVALID_ARGUMENT', () => {
    expect(() => filtersToStored(exclude({ addresses: list('0x12') }))).toThrow(
      expect.objectContaining({ code: status.INVALID_ARGUMENT, message: 'filters.exclude.addresses holds "0x12", which is not an EVM or Solana address' }),
    );
  });

  test.each([
    ['an array', []],
    ['a string', 'x'],
    ['an unknown top-level key', { include: {} }],
    ['an unknown exclude key', { exclude: { chains: [] } }],
    ['exclude not an object', { exclude: [] }],
    ['trash not a boolean', { exclude: { trash: 'yes' } }],
    ['a list of numbers', { exclude: { dapp_ids: [1] } }],
  ])('stored JSON that is %s fails loudly', (_, json) => {
    expect(() => parseStoredFilters(json)).toThrow(/stored subscription filters are malformed/);
  });
});
