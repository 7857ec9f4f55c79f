import { unary } from '@wallet-api/core/grpc';
import type { Backends } from '../grpc/backends.js';
import {
  replaceWalletsBody,
  subscriptionIdParam,
  updateWalletsBody,
  walletCountResponseSchema,
  walletListResponseSchema,
  walletsPageQuery,
} from '../schemas/tx-subscription.js';
import { noContent, type ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';
import { checkNewWalletFamilies } from './subscription-families.js';
import { pageLinks } from './tx-subscriptions-resource.js';

const tag = 'tx-subscriptions';
/** A replacement of up to 10,000 wallets is one transaction in the service; it gets more time than a lookup. */
const replaceDeadlineMs = 30_000;

/** The wallet list of a subscription: paged reads, a count, changes of up to 100 each way, and whole replacement. */
export function addTxSubscriptionWalletRoutes(routes: ApiRoutes, backends: Backends): void {
  const { subscription } = backends;

  routes.add({
    method: 'get',
    path: '/v1/tx-subscriptions/{subscription_id}/wallets',
    summary: "A subscription's wallets in address order, with cursor pagination through links.next",
    tag,
    params: subscriptionIdParam,
    query: walletsPageQuery,
    response: walletListResponseSchema,
    errors: [404],
    async handle({ params, query }, { organization, selfUrl }) {
      const size = query['page[size]'];
      const page = await unary(
        subscription,
        subscription.listWallets,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          after: query['page[after]'] ?? '',
          pageSize: size,
        },
        { name: 'Subscription/ListWallets' },
      );
      return {
        links: pageLinks(selfUrl, page.nextCursor, size),
        data: page.addresses.map((address) => ({ type: 'tx_subscription_wallets' as const, id: address, attributes: { address } })),
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/tx-subscriptions/{subscription_id}/wallets/count',
    summary: 'How many wallets a subscription watches',
    tag,
    params: subscriptionIdParam,
    response: walletCountResponseSchema,
    errors: [404],
    async handle({ params }, { organization, selfUrl }) {
      const { count } = await unary(
        subscription,
        subscription.countWallets,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
        },
        { name: 'Subscription/CountWallets' },
      );
      return {
        links: { self: selfUrl },
        data: { type: 'tx_subscription_wallets_count' as const, id: params.subscription_id, attributes: { count: Number(count) } },
      };
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/tx-subscriptions/{subscription_id}/wallets',
    summary: 'Add and remove wallets (at most 100 each) without resending the list',
    tag,
    params: subscriptionIdParam,
    body: updateWalletsBody,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params, body }, { organization }) {
      await checkNewWalletFamilies(backends, organization, params.subscription_id, { parameter: 'add', list: body.add ?? [] });
      await unary(
        subscription,
        subscription.updateWallets,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          add: body.add ?? [],
          remove: body.remove ?? [],
        },
        { name: 'Subscription/UpdateWallets' },
      );
    },
  });

  routes.add({
    method: 'put',
    path: '/v1/tx-subscriptions/{subscription_id}/wallets',
    summary: 'Replace the whole wallet list (at most 10,000 addresses)',
    tag,
    params: subscriptionIdParam,
    body: replaceWalletsBody,
    response: noContent,
    successStatus: 204,
    errors: [404],
    async handle({ params, body }, { organization }) {
      await checkNewWalletFamilies(backends, organization, params.subscription_id, { parameter: 'addresses', list: body.addresses });
      await unary(
        subscription,
        subscription.replaceWallets,
        {
          context: toRequestContext(organization, undefined),
          subscriptionId: params.subscription_id,
          addresses: body.addresses,
        },
        { name: 'Subscription/ReplaceWallets', deadlineMs: replaceDeadlineMs },
      );
    },
  });
}
