import type { TransactionResource } from '@wallet-api/core/resources';

export interface WebhookBodyInput {
  deliveryId: string;
  subscriptionId: string;
  callbackUrl: string;
  /** The subscribed wallet the delivery is for. */
  address: string;
  timestamp: Date;
  transaction: TransactionResource;
  /** A rollback took the transaction's block off the chain. */
  deleted: boolean;
}

/** The webhook body of decisions.md, as the exact text that is signed and sent. */
export function webhookBody(input: WebhookBodyInput): string {
  return JSON.stringify({
    data: {
      type: 'callback',
      id: input.deliveryId,
      attributes: { timestamp: input.timestamp.toISOString(), callback_url: input.callbackUrl, address: input.address },
      relationships: { subscription: { data: { type: 'tx_subscriptions', id: input.subscriptionId } } },
    },
    included: [{ ...input.transaction, attributes: { ...input.transaction.attributes, deleted: input.deleted } }],
  });
}

/**
 * The rollback notification of a delivered (or pending) one: the same transaction with
 * `included[0].attributes.deleted = true`, under its own delivery id and time.
 */
export function rollbackBody(original: string, deliveryId: string, timestamp: Date): string {
  const body = JSON.parse(original) as { data: { id: string; attributes: { timestamp: string } }; included: { attributes: Record<string, unknown> }[] };
  body.data.id = deliveryId;
  body.data.attributes.timestamp = timestamp.toISOString();
  body.included[0]!.attributes.deleted = true;
  return JSON.stringify(body);
}
