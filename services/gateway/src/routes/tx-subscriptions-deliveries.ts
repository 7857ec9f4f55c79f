import { unary } from '@wallet-api/core/grpc';
import type { Backends } from '../grpc/backends.js';
import { deliveriesPageQuery, deliveryIdParams, deliveryListResponseSchema, deliveryResponseSchema, subscriptionIdParam } from '../schemas/tx-subscription.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';
import { pageLinks, toDeliveryResource } from './tx-subscriptions-resource.js';

const tag = 'tx-subscriptions';

/** The delivery log of a subscription and replay of one delivery. */
export function addTxSubscriptionDeliveryRoutes(routes: ApiRoutes, backends: Backends): void {
  const { subscription } = backends;

  routes.add({
    method: 'get',
    path: '/v1/tx-subscriptions/{subscription_id}/deliveries',
    summary: "A subscription's webhook deliveries, newest first, with every attempt (status code, latency, error)",
    tag,
    params: subscriptionIdParam,
    query: deliveriesPageQuery,
    response: deliveryListResponseSchema,
    errors: [404],
    async handle({ params, query }, { organization, selfUrl }) {
      const size = query['page[size]'];
      const page = await unary(
        subscription,
        subscription.listDeliveries,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          after: query['page[after]'] ?? '',
          pageSize: size,
        },
        { name: 'Subscription/ListDeliveries' },
      );
      return { links: pageLinks(selfUrl, page.nextCursor, size), data: page.deliveries.map(toDeliveryResource) };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/tx-subscriptions/{subscription_id}/deliveries/{delivery_id}/retry',
    summary: 'Send a delivery again now (same webhook id and body), whatever its state',
    tag,
    params: deliveryIdParams,
    response: deliveryResponseSchema,
    successStatus: 202,
    errors: [404],
    async handle({ params }, { organization, selfUrl }) {
      const record = await unary(
        subscription,
        subscription.retryDelivery,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          deliveryId: params.delivery_id,
        },
        { name: 'Subscription/RetryDelivery' },
      );
      return { links: { self: selfUrl }, data: toDeliveryResource(record) };
    },
  });
}
