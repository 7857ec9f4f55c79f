import { invalidArgument, notFound, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import type { Logger } from '@wallet-api/core/logger';
import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import { SubscriptionService, type DeliveryRecord, type SubscriptionRecord, type SubscriptionServer } from '@wallet-api/core/proto/subscription';
import { generateSigningSecret } from '../deliver/webhook-signature.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { DeliveryLogStore, DeliveryLogEntry } from '../store/delivery-log-store.js';
import type { ChangeRef, StoredSubscription, SubscriptionNetwork, SubscriptionRef, SubscriptionStore } from '../store/subscription-store.js';
import {
  decodeDeliveriesCursor,
  decodeSubscriptionsCursor,
  decodeWalletsCursor,
  encodeDeliveriesCursor,
  encodeSubscriptionsCursor,
  encodeWalletsCursor,
} from '../subscriptions/page-cursor.js';
import { filtersFromStored, filtersToStored } from '../subscriptions/subscription-filters.js';
import { isSubscriptionId, newSubscriptionId } from '../subscriptions/subscription-id.js';
import { normalizeAddressList } from '../subscriptions/wallet-address.js';

/**
 * Decides whether a callback URL may be called; the reason of a refusal is shown to the client
 * as is, so it names `callback_url` (createCallbackUrlGuard of @wallet-api/core/outbound fits).
 */
export interface CallbackUrlChecker {
  check(url: string): Promise<{ ok: true; url: URL } | { ok: false; reason: string }>;
}

export interface SubscriptionServiceDeps {
  store: SubscriptionStore;
  deliveries: DeliveryLogStore;
  callbackUrls: CallbackUrlChecker;
  secrets: SecretBox;
  /** How long a rotated-out signing secret keeps signing. */
  rotationOverlapMs: number;
  /** Called after every committed change: the matcher reads the new change rows. */
  onChange?: () => void;
  /** Called after RetryDelivery: the dispatcher looks for due deliveries. */
  onRetry?: () => void;
  now?: () => Date;
  /** Where a throwing onChange/onRetry is reported (the change itself is committed). */
  logger?: Logger;
}

/** Request limits the service enforces itself (the gateway checks the same). */
export const limits = {
  createAddresses: 100,
  walletChanges: 100,
  replacedWallets: 10_000,
  subscriptionsPage: 100,
  walletsPage: 2000,
  deliveriesPage: 100,
} as const;

interface Caller {
  organizationId: string;
  addons: string[];
  network: SubscriptionNetwork;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function callerOf(context: RequestContext | undefined): Caller {
  const network = context?.network ?? Network.NETWORK_MAINNET;
  if (network !== Network.NETWORK_MAINNET && network !== Network.NETWORK_TESTNET) throw invalidArgument(`context.network ${network} is not a network`);
  return {
    organizationId: context?.organizationId ?? '',
    addons: [...new Set(context?.addons ?? [])].sort(),
    network: network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet',
  };
}

const subscriptionNotFound = (id: string) => notFound(`subscription ${id} not found`);

/** The caller's reference to a subscription; an id this service never makes is NOT_FOUND without a query. */
function refOf(context: RequestContext | undefined, subscriptionId: string): ChangeRef {
  const caller = callerOf(context);
  if (!isSubscriptionId(subscriptionId)) throw subscriptionNotFound(subscriptionId);
  return { organizationId: caller.organizationId, subscriptionId, addons: caller.addons };
}

function pageSize(requested: number, max: number): number {
  if (!Number.isInteger(requested) || requested < 1 || requested > max) throw invalidArgument(`page[size] must be an integer from 1 to ${max}`);
  return requested;
}

const found = <T>(value: T | null, ref: SubscriptionRef): T => {
  if (value === null) throw subscriptionNotFound(ref.subscriptionId);
  return value;
};

export function toSubscriptionRecord(subscription: StoredSubscription): SubscriptionRecord {
  return {
    id: subscription.id,
    callbackUrl: subscription.callbackUrl,
    chainIds: subscription.chainIds,
    enabled: subscription.enabled,
    filters: filtersFromStored(subscription.filters),
    walletsCount: String(subscription.walletsCount),
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
  };
}

export function toDeliveryRecord(delivery: DeliveryLogEntry): DeliveryRecord {
  return {
    id: delivery.id,
    subscriptionId: delivery.subscriptionId,
    address: delivery.address,
    chainId: delivery.chainId,
    transactionHash: delivery.transactionHash,
    blockNumber: delivery.blockNumber.toString(),
    deleted: delivery.deleted,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    createdAt: delivery.createdAt.toISOString(),
    nextAttemptAt: delivery.status === 'pending' && delivery.nextAttemptAt ? delivery.nextAttemptAt.toISOString() : '',
    deliveredAt: delivery.status === 'delivered' && delivery.deliveredAt ? delivery.deliveredAt.toISOString() : '',
    attempts: delivery.attempts.map((attempt) => ({
      number: attempt.number,
      startedAt: attempt.startedAt.toISOString(),
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
    })),
  };
}

export function subscriptionService(deps: SubscriptionServiceDeps): ServiceRegistration {
  const { store, deliveries, callbackUrls, secrets, rotationOverlapMs } = deps;
  const now = deps.now ?? (() => new Date());

  function notify(callback: (() => void) | undefined, what: string): void {
    try {
      callback?.();
    } catch (error) {
      deps.logger?.warn({ err: error }, `${what} callback failed`);
    }
  }
  const changed = () => notify(deps.onChange, 'onChange');

  /** The URL as kept and shown: its normalized form (scheme and host lowercased, default port and dot segments dropped). */
  async function checkCallbackUrl(url: string): Promise<string> {
    const verdict = await callbackUrls.check(url);
    if (!verdict.ok) throw invalidArgument(verdict.reason);
    return verdict.url.href;
  }

  async function owned(ref: SubscriptionRef): Promise<StoredSubscription> {
    return found(await store.get(ref), ref);
  }

  async function updateSettings(ref: ChangeRef, patch: Parameters<SubscriptionStore['updateSettings']>[1]): Promise<Record<string, never>> {
    found(await store.updateSettings(ref, patch), ref);
    changed();
    return {};
  }

  return registration<SubscriptionServer>('walletapi.subscription.Subscription', SubscriptionService, {
    async createSubscription(request) {
      const caller = callerOf(request.context);
      if (!uuidPattern.test(caller.organizationId)) throw invalidArgument('context.organization_id is not an organization id');
      if (request.addresses.length < 1 || request.addresses.length > limits.createAddresses) {
        throw invalidArgument(`addresses must hold 1 to ${limits.createAddresses} addresses`);
      }
      const addresses = normalizeAddressList(request.addresses, 'addresses');
      const filters = filtersToStored(request.filters);
      const callbackUrl = await checkCallbackUrl(request.callbackUrl);
      const signingSecret = generateSigningSecret();
      const subscription = await store.create({
        id: newSubscriptionId(),
        organizationId: caller.organizationId,
        network: caller.network,
        addons: caller.addons,
        callbackUrl,
        chainIds: request.chainIds,
        filters,
        addresses,
        secretCiphertext: secrets.seal(signingSecret),
      });
      changed();
      return { subscription: toSubscriptionRecord(subscription), signingSecret };
    },

    async listSubscriptions(request) {
      const caller = callerOf(request.context);
      const limit = pageSize(request.pageSize, limits.subscriptionsPage);
      const after = decodeSubscriptionsCursor(request.after);
      const page = await store.list(caller.organizationId, { after, limit });
      return { subscriptions: page.items.map(toSubscriptionRecord), nextCursor: page.next ? encodeSubscriptionsCursor(page.next) : '' };
    },

    async getSubscription(request) {
      return toSubscriptionRecord(await owned(refOf(request.context, request.subscriptionId)));
    },

    async deleteSubscription(request) {
      const ref = refOf(request.context, request.subscriptionId);
      if (!(await store.delete(ref))) throw subscriptionNotFound(ref.subscriptionId);
      changed();
      return {};
    },

    async listWallets(request) {
      const ref = refOf(request.context, request.subscriptionId);
      const limit = pageSize(request.pageSize, limits.walletsPage);
      const after = decodeWalletsCursor(request.after, ref.subscriptionId);
      const page = found(await store.listWallets(ref, { after, limit }), ref);
      return {
        addresses: page.items,
        nextCursor: page.next !== undefined ? encodeWalletsCursor({ subscriptionId: ref.subscriptionId, address: page.next }) : '',
      };
    },

    async countWallets(request) {
      const ref = refOf(request.context, request.subscriptionId);
      return { count: String(found(await store.countWallets(ref), ref)) };
    },

    async updateWallets(request) {
      const ref = refOf(request.context, request.subscriptionId);
      if (request.add.length > limits.walletChanges) throw invalidArgument(`add holds more than ${limits.walletChanges} addresses`);
      if (request.remove.length > limits.walletChanges) throw invalidArgument(`remove holds more than ${limits.walletChanges} addresses`);
      const add = normalizeAddressList(request.add, 'add');
      const remove = normalizeAddressList(request.remove, 'remove');
      const removing = new Set(remove);
      const both = add.find((address) => removing.has(address));
      if (both !== undefined) throw invalidArgument(`add and remove both hold ${both}`);
      found(await store.updateWallets(ref, { add, remove }), ref);
      changed();
      return {};
    },

    async replaceWallets(request) {
      const ref = refOf(request.context, request.subscriptionId);
      if (request.addresses.length > limits.replacedWallets) throw invalidArgument(`addresses holds more than ${limits.replacedWallets} addresses`);
      const addresses = normalizeAddressList(request.addresses, 'addresses');
      found(await store.replaceWallets(ref, addresses), ref);
      changed();
      return {};
    },

    async setCallbackUrl(request) {
      const ref = refOf(request.context, request.subscriptionId);
      // Ownership first: a refused URL must not tell another organization the subscription exists.
      await owned(ref);
      return updateSettings(ref, { callbackUrl: await checkCallbackUrl(request.callbackUrl) });
    },

    async setChainIds(request) {
      const ref = refOf(request.context, request.subscriptionId);
      // The gateway checked the chains against the caller's network (X-Env): it must be the subscription's.
      const stored = found(await store.get(ref), ref);
      const caller = callerOf(request.context);
      if (request.chainIds.length > 0 && stored.network !== caller.network) {
        throw invalidArgument(
          `chain_ids: subscription ${stored.id} watches ${stored.network} chains; send the request ${stored.network === 'testnet' ? 'with' : 'without'} X-Env: testnet`,
        );
      }
      return updateSettings(ref, { chainIds: request.chainIds });
    },

    async setFilters(request) {
      const ref = refOf(request.context, request.subscriptionId);
      return updateSettings(ref, { filters: filtersToStored(request.filters) });
    },

    async setEnabled(request) {
      return updateSettings(refOf(request.context, request.subscriptionId), { enabled: request.enabled });
    },

    async rotateSigningSecret(request) {
      const ref = refOf(request.context, request.subscriptionId);
      const signingSecret = generateSigningSecret();
      const rotated = found(await store.rotateSecret(ref, { ciphertext: secrets.seal(signingSecret), now: now(), overlapMs: rotationOverlapMs }), ref);
      changed();
      return { signingSecret, previousExpiresAt: rotated.previousExpiresAt.toISOString() };
    },

    async listDeliveries(request) {
      const ref = refOf(request.context, request.subscriptionId);
      const limit = pageSize(request.pageSize, limits.deliveriesPage);
      const before = decodeDeliveriesCursor(request.after, ref.subscriptionId);
      await owned(ref);
      const page = await deliveries.list(ref.subscriptionId, { before, limit });
      return {
        deliveries: page.items.map(toDeliveryRecord),
        nextCursor: page.next ? encodeDeliveriesCursor({ subscriptionId: ref.subscriptionId, ...page.next }) : '',
      };
    },

    async retryDelivery(request) {
      const ref = refOf(request.context, request.subscriptionId);
      await owned(ref);
      const delivery = await deliveries.retry(ref.subscriptionId, request.deliveryId);
      if (delivery === null) throw notFound(`delivery ${request.deliveryId} not found`);
      notify(deps.onRetry, 'onRetry');
      return toDeliveryRecord(delivery);
    },
  });
}
