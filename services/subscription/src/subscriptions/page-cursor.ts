import { invalidArgument } from '@wallet-api/core/grpc';

/**
 * Opaque page cursors: base64url of a small JSON object tagged with the list it belongs to.
 * A client only ever passes back what `links.next` gave it; anything else, including a cursor
 * of another list or another subscription, is INVALID_ARGUMENT.
 */

/** After this subscription in (created_at, id) order. */
export interface SubscriptionsCursor {
  createdAt: Date;
  id: string;
}

/** After this address of this subscription's wallet list. */
export interface WalletsCursor {
  subscriptionId: string;
  address: string;
}

/** Before this delivery of this subscription's log in (created_at, id) order, newest first. */
export interface DeliveriesCursor {
  subscriptionId: string;
  createdAt: Date;
  id: string;
}

export const notACursor = 'page[after] is not a cursor this endpoint returned';

const encode = (value: Record<string, string>) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function decode(text: string, kind: string, keys: readonly string[]): Record<string, string> {
  const fail = () => invalidArgument(notACursor);
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(text)) throw fail();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw fail();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail();
  const record = value as Record<string, unknown>;
  if (record.k !== kind || Object.keys(record).length !== keys.length + 1) throw fail();
  for (const key of keys) if (typeof record[key] !== 'string' || record[key] === '') throw fail();
  return record as Record<string, string>;
}

function instant(text: string): Date {
  const at = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) || Number.isNaN(at.getTime())) throw invalidArgument(notACursor);
  return at;
}

export function encodeSubscriptionsCursor(cursor: SubscriptionsCursor): string {
  return encode({ k: 'subscriptions', t: cursor.createdAt.toISOString(), i: cursor.id });
}

/** `undefined` for an empty `after` (the first page). */
export function decodeSubscriptionsCursor(text: string): SubscriptionsCursor | undefined {
  if (text === '') return undefined;
  const { t, i } = decode(text, 'subscriptions', ['t', 'i']);
  return { createdAt: instant(t!), id: i! };
}

export function encodeWalletsCursor(cursor: WalletsCursor): string {
  return encode({ k: 'wallets', s: cursor.subscriptionId, a: cursor.address });
}

/** The address to continue after; a cursor of another subscription's list is not accepted. */
export function decodeWalletsCursor(text: string, subscriptionId: string): string | undefined {
  if (text === '') return undefined;
  const { s, a } = decode(text, 'wallets', ['s', 'a']);
  if (s !== subscriptionId) throw invalidArgument(notACursor);
  return a;
}

export function encodeDeliveriesCursor(cursor: DeliveriesCursor): string {
  return encode({ k: 'deliveries', s: cursor.subscriptionId, t: cursor.createdAt.toISOString(), i: cursor.id });
}

export function decodeDeliveriesCursor(text: string, subscriptionId: string): { createdAt: Date; id: string } | undefined {
  if (text === '') return undefined;
  const { s, t, i } = decode(text, 'deliveries', ['s', 't', 'i']);
  if (s !== subscriptionId) throw invalidArgument(notACursor);
  return { createdAt: instant(t!), id: i! };
}
