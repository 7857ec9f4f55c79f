import { randomUUID } from 'node:crypto';

/** A delivery's id: its `webhook-id` header and `data.id`, stable across retries. */
export const newDeliveryId = (): string => `msg_${randomUUID().replace(/-/g, '')}`;
