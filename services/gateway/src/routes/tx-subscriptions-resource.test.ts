import { ExcludeFilters, SubscriptionFilters, type DeliveryRecord, type SubscriptionRecord } from '@wallet-api/core/proto/subscription';
import { deliveryResourceSchema, subscriptionResourceSchema } from '../schemas/tx-subscription.js';
import { fromProtoFilters, pageLinks, toDeliveryResource, toProtoFilters, toSubscriptionResource } from './tx-subscriptions-resource.js';

const baseUrl = 'https://api.wallet.test';
const solana = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';

/** What the service receives: the message as it travels, so presence is checked on the wire, not on a JS object. */
const overTheWire = (filters: SubscriptionFilters | undefined) =>
  filters === undefined ? undefined : SubscriptionFilters.decode(SubscriptionFilters.encode(filters).finish());

describe('filters to proto', () => {
  test('null and omitted are no filters; {} is filters without exclude', () => {
    expect(toProtoFilters(null)).toBeUndefined();
    expect(toProtoFilters(undefined)).toBeUndefined();
    expect(overTheWire(toProtoFilters({}))).toEqual({ exclude: undefined });
  });

  test('a list given, even empty, is present; a list not given is absent', () => {
    const proto = overTheWire(toProtoFilters({ exclude: { operation_types: [], dapp_ids: ['uniswap-v3'] } }))!;
    expect(proto.exclude).toEqual({ operationTypes: { values: [] }, trash: undefined, dappIds: { values: ['uniswap-v3'] }, addresses: undefined });
  });

  test('trash keeps false apart from absent', () => {
    expect(overTheWire(toProtoFilters({ exclude: { trash: false } }))!.exclude!.trash).toBe(false);
    expect(overTheWire(toProtoFilters({ exclude: { trash: true } }))!.exclude!.trash).toBe(true);
    expect(overTheWire(toProtoFilters({ exclude: {} }))!.exclude).toEqual({
      operationTypes: undefined,
      trash: undefined,
      dappIds: undefined,
      addresses: undefined,
    });
  });

  test('counterparties: EVM lowercased, Solana as given', () => {
    const proto = toProtoFilters({ exclude: { addresses: ['0xABCDEF0000000000000000000000000000000001', solana] } })!;
    expect(proto.exclude!.addresses).toEqual({ values: ['0xabcdef0000000000000000000000000000000001', solana] });
  });
});

describe('filters from proto', () => {
  test('absent is null; without exclude is {}; keys appear only when stored', () => {
    expect(fromProtoFilters(undefined)).toBeNull();
    expect(fromProtoFilters({ exclude: undefined })).toEqual({});
    expect(fromProtoFilters({ exclude: ExcludeFilters.fromPartial({}) })).toEqual({ exclude: {} });
    expect(
      fromProtoFilters({ exclude: ExcludeFilters.fromPartial({ operationTypes: { values: [] }, trash: false, addresses: { values: [solana] } }) }),
    ).toEqual({ exclude: { operation_types: [], trash: false, addresses: [solana] } });
  });

  test.each([
    null,
    {},
    { exclude: {} },
    { exclude: { operation_types: ['trade' as const], trash: true, dapp_ids: [], addresses: ['0x00000000000000000000000000000000000000aa'] } },
  ])('round trip of %j', (filters) => {
    expect(fromProtoFilters(overTheWire(toProtoFilters(filters)))).toEqual(filters);
  });
});

describe('resources', () => {
  const record: SubscriptionRecord = {
    id: 'sub_0123456789abcdef0123456789abcdef',
    callbackUrl: 'https://hooks.example.com/x',
    chainIds: [],
    enabled: true,
    filters: undefined,
    walletsCount: '3',
    createdAt: '2026-01-02T03:04:05.678Z',
    updatedAt: '2026-01-02T03:04:05.678Z',
  };

  test('tx_subscriptions: attributes as stored, counts as numbers, filters null when absent, links.self', () => {
    const resource = toSubscriptionResource(record, baseUrl);
    expect(resource).toEqual({
      type: 'tx_subscriptions',
      id: record.id,
      attributes: {
        callback_url: record.callbackUrl,
        chain_ids: [],
        enabled: true,
        filters: null,
        wallets_count: 3,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      },
      links: { self: `${baseUrl}/v1/tx-subscriptions/${record.id}` },
    });
    expect(subscriptionResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('webhook_deliveries: empty service strings become null, status code 0 (no HTTP answer) becomes null', () => {
    const delivery: DeliveryRecord = {
      id: 'dlv_1',
      subscriptionId: record.id,
      address: '0x00000000000000000000000000000000000000aa',
      chainId: 'ethereum',
      transactionHash: `0x${'ab'.repeat(32)}`,
      blockNumber: '19000000',
      deleted: false,
      status: 'pending',
      attemptCount: 2,
      createdAt: '2026-01-02T03:04:05.000Z',
      nextAttemptAt: '2026-01-02T03:09:05.000Z',
      deliveredAt: '',
      attempts: [
        { number: 1, startedAt: '2026-01-02T03:04:05.000Z', statusCode: 0, latencyMs: 15000, error: 'timeout after 15 s' },
        { number: 2, startedAt: '2026-01-02T03:04:10.000Z', statusCode: 503, latencyMs: 42, error: '' },
      ],
    };
    const resource = toDeliveryResource(delivery);
    expect(resource.attributes).toEqual({
      address: delivery.address,
      chain_id: 'ethereum',
      transaction_hash: delivery.transactionHash,
      block_number: 19000000,
      deleted: false,
      status: 'pending',
      attempt_count: 2,
      created_at: delivery.createdAt,
      next_attempt_at: delivery.nextAttemptAt,
      delivered_at: null,
      attempts: [
        { number: 1, started_at: '2026-01-02T03:04:05.000Z', status_code: null, latency_ms: 15000, error: 'timeout after 15 s' },
        { number: 2, started_at: '2026-01-02T03:04:10.000Z', status_code: 503, latency_ms: 42, error: null },
      ],
    });
    expect(resource).toMatchObject({ type: 'webhook_deliveries', id: 'dlv_1' });
    expect(deliveryResourceSchema.safeParse(resource).success).toBe(true);
  });
});

describe('page links', () => {
  test('links.next carries the cursor and the size; none on the last page', () => {
    const self = `${baseUrl}/v1/tx-subscriptions/sub_1/wallets?page[size]=2`;
    expect(pageLinks(self, '', 2)).toEqual({ self });
    const next = new URL(pageLinks(self, 'eyJrIjoid2FsbGV0cyJ9', 2).next!);
    expect(next.pathname).toBe('/v1/tx-subscriptions/sub_1/wallets');
    expect(Object.fromEntries(next.searchParams)).toEqual({ 'page[size]': '2', 'page[after]': 'eyJrIjoid2FsbGV0cyJ9' });
  });
});
