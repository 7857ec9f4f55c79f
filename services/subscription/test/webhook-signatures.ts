import { createHmac, createVerify } from 'node:crypto';
import type { ReceivedWebhook } from './setup-webhooks.js';

// How a receiver checks a webhook, written from the schemes' documents rather than the service's code.

/** Standard Webhooks verification as a receiver writes it: HMAC-SHA256 of `id.timestamp.body` with the base64 key after `whsec_`. */
export function verifiesStandardWebhook(webhook: ReceivedWebhook, secret: string): boolean {
  const id = webhook.headers['webhook-id'] as string;
  const timestamp = webhook.headers['webhook-timestamp'] as string;
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${webhook.body}`)
    .digest('base64');
  const signatures = (webhook.headers['webhook-signature'] as string).split(' ').map((entry) => entry.split(',')[1]);
  return signatures.includes(expected) && Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
}

/** The incumbent's scheme: RSA-SHA256 over `timestamp + "\n" + body + "\n"`, checked with the service's certificate. */
export function verifiesRsa(webhook: ReceivedWebhook, certificate: string): boolean {
  const timestamp = webhook.headers['x-timestamp'] as string;
  return createVerify('RSA-SHA256')
    .update(`${timestamp}\n${webhook.body}\n`)
    .verify(certificate, webhook.headers['x-signature'] as string, 'base64');
}
