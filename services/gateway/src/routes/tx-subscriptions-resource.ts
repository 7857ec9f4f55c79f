import type { DeliveryRecord, ExcludeFilters, StringList, SubscriptionFilters, SubscriptionRecord } from '@wallet-api/core/proto/subscription';
import type { DeliveryResource, SubscriptionFiltersBody, SubscriptionResource } from '../schemas/tx-subscription.js';
import { evmAddressPattern } from '../schemas/wallet-query.js';

type ExcludeBody = NonNullable<SubscriptionFiltersBody['exclude']>;

/** Absent stays absent ("not given"); present, even empty, is sent ("none"). */
const toList = (values: readonly string[] | undefined): StringList | undefined => (values === undefined ? undefined : { values: [...values] });

/** Counterparties as the service compares them: lowercase 0x-hex for EVM, base58 as given for Solana. */
const counterparty = (address: string) => (evmAddressPattern.test(address) ? address.toLowerCase() : address);

/** `filters` of a request body as the service stores it: `null` (or absent) is no filters at all. */
export function toProtoFilters(filters: SubscriptionFiltersBody | null | undefined): SubscriptionFilters | undefined {
  if (filters === null || filters === undefined) return undefined;
  const { exclude } = filters;
  if (exclude === undefined) return { exclude: undefined };
  const proto: ExcludeFilters = {
    operationTypes: toList(exclude.operation_types),
    dappIds: toList(exclude.dapp_ids),
    addresses: toList(exclude.addresses?.map(counterparty)),
  };
  if (exclude.trash !== undefined) proto.trash = exclude.trash;
  return { exclude: proto };
}

/** Stored filters as a client reads them: keys it gave, and only those. */
export function fromProtoFilters(filters: SubscriptionFilters | undefined): SubscriptionFiltersBody | null {
  if (filters === undefined) return null;
  const { exclude } = filters;
  if (exclude === undefined) return {};
  const body: ExcludeBody = {};
  if (exclude.operationTypes) body.operation_types = exclude.operationTypes.values as ExcludeBody['operation_types'];
  if (exclude.trash !== undefined) body.trash = exclude.trash;
  if (exclude.dappIds) body.dapp_ids = exclude.dappIds.values;
  if (exclude.addresses) body.addresses = exclude.addresses.values;
  return { exclude: body };
}

export const subscriptionUrl = (baseUrl: string, id: string) => `${baseUrl}/v1/tx-subscriptions/${encodeURIComponent(id)}`;

export function toSubscriptionResource(record: SubscriptionRecord, baseUrl: string): SubscriptionResource {
  return {
    type: 'tx_subscriptions',
    id: record.id,
    attributes: {
      callback_url: record.callbackUrl,
      chain_ids: record.chainIds,
      enabled: record.enabled,
      filters: fromProtoFilters(record.filters),
      wallets_count: Number(record.walletsCount),
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    },
    links: { self: subscriptionUrl(baseUrl, record.id) },
  };
}

const emptyToNull = (value: string) => (value === '' ? null : value);

export function toDeliveryResource(record: DeliveryRecord): DeliveryResource {
  return {
    type: 'webhook_deliveries',
    id: record.id,
    attributes: {
      address: record.address,
      chain_id: record.chainId,
      transaction_hash: record.transactionHash,
      block_number: Number(record.blockNumber),
      deleted: record.deleted,
      status: record.status,
      attempt_count: record.attemptCount,
      created_at: record.createdAt,
      next_attempt_at: emptyToNull(record.nextAttemptAt),
      delivered_at: emptyToNull(record.deliveredAt),
      attempts: record.attempts.map((attempt) => ({
        number: attempt.number,
        started_at: attempt.startedAt,
        status_code: attempt.statusCode === 0 ? null : attempt.statusCode,
        latency_ms: attempt.latencyMs,
        error: emptyToNull(attempt.error),
      })),
    },
  };
}

/** `links.next`: this request with `page[after]` moved to the service's cursor; none on the last page. */
export function pageLinks(selfUrl: string, nextCursor: string, size: number): { self: string; next?: string } {
  if (nextCursor === '') return { self: selfUrl };
  const url = new URL(selfUrl);
  url.searchParams.set('page[after]', nextCursor);
  url.searchParams.set('page[size]', String(size));
  return { self: selfUrl, next: url.toString() };
}
