import type { TransactionResource } from '@wallet-api/core/resources';
import { rollbackBody, webhookBody } from './webhook-body.js';

const transaction = {
  type: 'transactions',
  id: 'ethereum:12:3',
  attributes: { hash: '0xabc', operation_type: 'send' },
  relationships: { chain: { links: { related: 'http://127.0.0.1:8080/v1/chains/ethereum' }, data: { type: 'chains', id: 'ethereum' } } },
} as unknown as TransactionResource;

const input = {
  deliveryId: 'msg_1',
  subscriptionId: 'sub_1',
  callbackUrl: 'https://hooks.example/tx',
  address: '0x00000000000000000000000000000000000000a1',
  timestamp: new Date('2026-11-24T10:00:00.000Z'),
  transaction,
  deleted: false,
};

describe('webhook body', () => {
  test('has the layout of decisions.md with the transaction in included', () => {
    expect(JSON.parse(webhookBody(input))).toEqual({
      data: {
        type: 'callback',
        id: 'msg_1',
        attributes: { timestamp: '2026-11-24T10:00:00.000Z', callback_url: 'https://hooks.example/tx', address: input.address },
        relationships: { subscription: { data: { type: 'tx_subscriptions', id: 'sub_1' } } },
      },
      included: [{ ...transaction, attributes: { hash: '0xabc', operation_type: 'send', deleted: false } }],
    });
  });

  test('a rollback re-delivers the same transaction marked deleted, under its own id and time', () => {
    const original = webhookBody(input);
    const rolledBack = JSON.parse(rollbackBody(original, 'msg_2', new Date('2026-11-24T10:05:00.000Z')));
    expect(rolledBack.data.id).toBe('msg_2');
    expect(rolledBack.data.attributes.timestamp).toBe('2026-11-24T10:05:00.000Z');
    expect(rolledBack.included[0].attributes).toEqual({ hash: '0xabc', operation_type: 'send', deleted: true });
    expect(rolledBack.data.relationships).toEqual(JSON.parse(original).data.relationships);
    expect('deleted' in rolledBack.data.attributes).toBe(false);
  });
});
