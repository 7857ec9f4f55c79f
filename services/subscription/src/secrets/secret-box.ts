import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts signing secrets at rest (tx_subscription_secrets.ciphertext) with AES-256-GCM under
 * SUBSCRIPTION_SECRET_KEY: a database dump alone does not let anyone forge webhooks.
 */
export interface SecretBox {
  /** `v1:` and base64 of iv (12 bytes) | tag (16 bytes) | ciphertext; a fresh random iv each call. */
  seal(plaintext: string): string;
  /** The plaintext; throws for text `seal` with this key did not produce (tampered, truncated, another key). */
  open(ciphertext: string): string;
}

const version = 'v1:';
const ivLength = 12;
const tagLength = 16;
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for the base64 of exactly 32 bytes: what SUBSCRIPTION_SECRET_KEY must hold. */
export function isSecretKey(keyBase64: string): boolean {
  const text = keyBase64.trim();
  return text.length % 4 === 0 && base64.test(text) && Buffer.from(text, 'base64').length === 32;
}

export function createSecretBox(keyBase64: string): SecretBox {
  if (!isSecretKey(keyBase64)) {
    throw new Error('SUBSCRIPTION_SECRET_KEY must be 32 random bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`)');
  }
  const key = Buffer.from(keyBase64.trim(), 'base64');
  const unreadable = () => new Error('signing secret ciphertext does not open with SUBSCRIPTION_SECRET_KEY (tampered, truncated or sealed with another key)');

  return {
    seal(plaintext) {
      const iv = randomBytes(ivLength);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagLength });
      const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return version + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
    },
    open(ciphertext) {
      if (!ciphertext.startsWith(version)) throw unreadable();
      const encoded = ciphertext.slice(version.length);
      if (!base64.test(encoded)) throw unreadable();
      const bytes = Buffer.from(encoded, 'base64');
      if (bytes.length < ivLength + tagLength) throw unreadable();
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, ivLength), { authTagLength: tagLength });
      decipher.setAuthTag(bytes.subarray(ivLength, ivLength + tagLength));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(ivLength + tagLength)), decipher.final()]).toString('utf8');
      } catch {
        throw unreadable();
      }
    },
  };
}
