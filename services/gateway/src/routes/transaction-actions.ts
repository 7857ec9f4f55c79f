import { unary } from '@wallet-api/core/grpc';
import type { ActionTransaction } from '@wallet-api/core/proto/actions';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { buildActionBody, dismissActionBody, transactionBuildResponseSchema } from '../schemas/transaction-action.js';
import { noContent, type ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

/** Unsigned actions belong to organizations with the pending-orders role (spec 4.5): 403 otherwise. */
function checkPendingOrders(roles: readonly string[], path: string): void {
  if (!roles.includes('pending-orders')) throw apiError(403, `${path} requires the pending-orders role`);
}

/** An EVM transaction's fields, or a Solana action's serialized transaction. */
export const toTransactionBuild = (transaction: ActionTransaction | undefined) => {
  const { chainId = '', from = '', to = '', data = '', value = '', gas = '', serialized = '' } = transaction ?? {};
  return serialized !== '' ? { chain_id: chainId, from, serialized } : { chain_id: chainId, from, to, data, value, gas };
};

/** POST /v1/transactions/build-action/ and /dismiss-action/ over the indexer's Actions service. */
export function addTransactionActionRoutes(routes: ApiRoutes, backends: Backends): void {
  routes.add({
    method: 'post',
    path: '/v1/transactions/build-action/',
    summary: "An open unsigned action's transaction, for the wallet to sign and broadcast; records the reported hashes",
    tag: 'transactions',
    body: buildActionBody,
    response: transactionBuildResponseSchema,
    errors: [403, 404],
    async handle({ body }, { organization }) {
      checkPendingOrders(organization.roles, 'POST /v1/transactions/build-action/');
      const { transaction } = await unary(
        backends.actions,
        backends.actions.buildAction,
        {
          context: toRequestContext(organization, undefined),
          actionId: body.action_id,
          signatureApprove: body.signature_approve?.toLowerCase() ?? '',
          signatureSwap: body.signature_swap?.toLowerCase() ?? '',
        },
        { name: 'Actions/BuildAction' },
      );
      return { data: { type: 'transaction_builds' as const, attributes: { transaction: toTransactionBuild(transaction) } } };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/transactions/dismiss-action/',
    summary: "Dismisses an open unsigned action with the wallet's signature of its id",
    tag: 'transactions',
    body: dismissActionBody,
    response: noContent,
    successStatus: 204,
    errors: [403, 404],
    async handle({ body }, { organization }) {
      checkPendingOrders(organization.roles, 'POST /v1/transactions/dismiss-action/');
      await unary(
        backends.actions,
        backends.actions.dismissAction,
        { context: toRequestContext(organization, undefined), actionId: body.action_id, signature: body.signature },
        { name: 'Actions/DismissAction' },
      );
    },
  });
}
