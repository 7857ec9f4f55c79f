import { createHmac, createPrivateKey, createSign, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Headers that sign one delivery attempt, in two schemes: Standard Webhooks (HMAC) and the
 * incumbent's RSA scheme, so receivers written against either keep verifying.
 */

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface StandardWebhookInput {
  /** The delivery id: the same on every retry so receivers can deduplicate. */
  id: string;
  timestampSeconds: number;
  body: string;
  /** Every secret currently valid; during a rotation both the new and the old one sign. */
  secrets: readonly string[];
}

export function standardWebhookHeaders(input: StandardWebhookInput): Record<string, string> {
  const { id, timestampSeconds, body, secrets } = input;
  if (!Number.isSafeInteger(timestampSeconds)) throw new Error(`webhook timestamp must be whole seconds, got ${timestampSeconds}`);
  if (secrets.length === 0) throw new Error('at least one signing secret is required');
  const signed = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signed).digest('base64')}`);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  };
}

/** Standard Webhooks keys the HMAC with the decoded bytes, not the secret's text. */
function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : undefined;
  // A malformed secret would still "sign", with a key no receiver has: fail loudly instead.
  if (encoded === undefined || !BASE64.test(encoded)) throw new Error('signing secret must be whsec_ followed by base64');
  return Buffer.from(encoded, 'base64');
}

/**
 * The RSA key of the X-Signature header, parsed once: parsing a PEM costs more than the
 * signature itself, which would cap deliveries at about 1,400/s on one core.
 */
export function loadRsaSigningKey(privateKeyPem: string): KeyObject {
  const key = createPrivateKey(privateKeyPem);
  // createSign('RSA-SHA256') would quietly produce ECDSA with an EC key; receivers expect RSA.
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`signing key must be RSA, got ${key.asymmetricKeyType}`);
  return key;
}

export interface RsaSignatureInput {
  timestamp: Date;
  body: string;
  /** From loadRsaSigningKey. */
  privateKey: KeyObject;
  certificateUrl: string;
}

export function rsaSignatureHeaders(input: RsaSignatureInput): Record<string, string> {
  const { timestamp, body, privateKey: key, certificateUrl } = input;
  const isoTimestamp = timestamp.toISOString();
  const signature = createSign('RSA-SHA256').update(`${isoTimestamp}\n${body}\n`).sign(key, 'base64');
  return {
    'X-Timestamp': isoTimestamp,
    'X-Signature': signature,
    'X-Certificate-URL': certificateUrl,
  };
}
