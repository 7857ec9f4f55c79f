import { unary } from '@wallet-api/core/grpc';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import {
  callbackUrlBody,
  chainIdsBody,
  createdSubscriptionResponseSchema,
  createSubscriptionBody,
  filtersBody,
  signingSecretResponseSchema,
  subscriptionIdParam,
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  subscriptionsPageQuery,
} from '../schemas/tx-subscription.js';
import { noContent, type ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';
import { addTxSubscriptionDeliveryRoutes } from './tx-subscriptions-deliveries.js';
import { pageLinks, subscriptionUrl, toProtoFilters, toSubscriptionResource } from './tx-subscriptions-resource.js';
import { addTxSubscriptionWalletRoutes } from './tx-subscriptions-wallets.js';
import { checkAddressFamilies, checkChainIdsCarryWallets } from './subscription-families.js';
import { gateSubscriptionChains } from './wallet-scope.js';

const tag = 'tx-subscriptions';

/**
 * `/v1/tx-subscriptions` (spec 4.10, decisions.md "Transaction subscriptions"): the gateway checks
 * every parameter's shape and the chains' capabilities; the subscription service owns the rest
 * (ownership, callback URL reachability, cursors) and its INVALID_ARGUMENT and NOT_FOUND details
 * reach the client as 400 and 404.
 */
export function addTxSubscriptionRoutes(routes: ApiRoutes, backends: Backends): void {
  const { subscription } = backends;

  routes.add({
    method: 'post',
    path: '/v1/tx-subscriptions/',
    summary: 'Create a transaction subscription (enabled); its signing secret is answered here only',
    tag,
    headers: networkHeaders,
    body: createSubscriptionBody,
    response: createdSubscriptionResponseSchema,
    successStatus: 201,
    async handle({ headers, body }, { organization, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const chainIds = await gateSubscriptionChains(backends.chains, context, body.chain_ids ?? []);
      await checkAddressFamilies(backends.chains, context, body.addresses, chainIds);
      const created = await unary(
        subscription,
        subscription.createSubscription,
        {
          context,
          callbackUrl: body.callback_url,
          addresses: body.addresses,
          chainIds,
          filters: toProtoFilters(body.filters),
        },
        { name: 'Subscription/CreateSubscription' },
      );
      const record = created.subscription!;
      return {
        links: { self: subscriptionUrl(baseUrl, record.id) },
        data: toSubscriptionResource(record, baseUrl),
        meta: { signing_secret: created.signingSecret },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/tx-subscriptions/',
    summary: "The organization's transaction subscriptions, oldest first, with cursor pagination through links.next",
    tag,
    query: subscriptionsPageQuery,
    response: subscriptionListResponseSchema,
    async handle({ query }, { organization, selfUrl, baseUrl }) {
      const size = query['page[size]'];
      const page = await unary(
        subscription,
        subscription.listSubscriptions,
        {
          context: toRequestContext(organization, undefined),
          after: query['page[after]'] ?? '',
          pageSize: size,
        },
        { name: 'Subscription/ListSubscriptions' },
      );
      return {
        links: pageLinks(selfUrl, page.nextCursor, size),
        data: page.subscriptions.map((record) => toSubscriptionResource(record, baseUrl)),
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/tx-subscriptions/{subscription_id}',
    summary: 'One transaction subscription (never its signing secret)',
    tag,
    params: subscriptionIdParam,
    response: subscriptionResponseSchema,
    errors: [404],
    async handle({ params }, { organization, selfUrl, baseUrl }) {
      const record = await unary(
        subscription,
        subscription.getSubscription,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
        },
        { name: 'Subscription/GetSubscription' },
      );
      return { links: { self: selfUrl }, data: toSubscriptionResource(record, baseUrl) };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v1/tx-subscriptions/{subscription_id}',
    summary: 'Delete a transaction subscription, its wallets and its pending deliveries; nothing more is sent',
    tag,
    params: subscriptionIdParam,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params }, { organization }) {
      await unary(
        subscription,
        subscription.deleteSubscription,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
        },
        { name: 'Subscription/DeleteSubscription' },
      );
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/tx-subscriptions/{subscription_id}/callback_url',
    summary: 'Replace the callback URL',
    tag,
    params: subscriptionIdParam,
    body: callbackUrlBody,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params, body }, { organization }) {
      await unary(
        subscription,
        subscription.setCallbackUrl,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          callbackUrl: body.callback_url,
        },
        { name: 'Subscription/SetCallbackUrl' },
      );
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/tx-subscriptions/{subscription_id}/chain_ids',
    summary: 'Replace the chain list; each chain must support transactions and positions, and an empty list means every chain that does',
    tag,
    params: subscriptionIdParam,
    headers: networkHeaders,
    body: chainIdsBody,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params, headers, body }, { organization }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const chainIds = await gateSubscriptionChains(backends.chains, context, body.chain_ids);
      await checkChainIdsCarryWallets(backends, context, organization, params.subscription_id, chainIds);
      await unary(subscription, subscription.setChainIds, { context, subscriptionId: params.subscription_id, chainIds }, { name: 'Subscription/SetChainIds' });
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/tx-subscriptions/{subscription_id}/filters',
    summary: 'Replace the filters wholesale (null clears them, omitted leaves them); 204 in every case, a no-op included',
    tag,
    params: subscriptionIdParam,
    body: filtersBody,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params, body }, { organization }) {
      const ref = { context: toRequestContext(organization, undefined), subscriptionId: params.subscription_id };
      // Omitted: nothing changes, but the subscription must still be the caller's.
      if (body.filters === undefined) await unary(subscription, subscription.getSubscription, ref, { name: 'Subscription/GetSubscription' });
      else await unary(subscription, subscription.setFilters, { ...ref, filters: toProtoFilters(body.filters) }, { name: 'Subscription/SetFilters' });
    },
  });

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    routes.add({
      method: 'patch',
      path: `/v1/tx-subscriptions/{subscription_id}/${action}`,
      summary: enabled ? 'Resume notifications' : 'Pause notifications; the wallet list is kept',
      tag,
      params: subscriptionIdParam,
      response: noContent,
      successStatus: 204,
      errors: [404],
      async handle({ params }, { organization }) {
        await unary(
          subscription,
          subscription.setEnabled,
          {
            context: toRequestContext(organization, undefined),
            subscriptionId: params.subscription_id,
            enabled,
          },
          { name: 'Subscription/SetEnabled' },
        );
      },
    });
  }

  routes.add({
    method: 'post',
    path: '/v1/tx-subscriptions/{subscription_id}/signing-secret/rotate',
    summary: 'A new signing secret; the previous one keeps signing alongside it until previous_expires_at',
    tag,
    params: subscriptionIdParam,
    response: signingSecretResponseSchema,
    errors: [404],
    async handle({ params }, { organization, selfUrl }) {
      const rotated = await unary(
        subscription,
        subscription.rotateSigningSecret,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
        },
        { name: 'Subscription/RotateSigningSecret' },
      );
      return {
        links: { self: selfUrl },
        data: {
          type: 'tx_subscription_signing_secrets' as const,
          id: params.subscription_id,
          attributes: { signing_secret: rotated.signingSecret, previous_expires_at: rotated.previousExpiresAt },
        },
      };
    },
  });

  addTxSubscriptionWalletRoutes(routes, backends);
  addTxSubscriptionDeliveryRoutes(routes, backends);
}
