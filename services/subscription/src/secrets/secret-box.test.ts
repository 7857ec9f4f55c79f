import { randomBytes } from 'node:crypto';
import { createSecretBox, isSecretKey } from './secret-box.js';

const key = randomBytes(32).toString('base64');

describe('createSecretBox', () => {
  test('opens what it sealed', () => {
    const box = createSecretBox(key);
    for (const plaintext of [`whsec_${randomBytes(32).toString('base64')}`, '', 'ünïcödé ✓']) expect(box.open(box.seal(plaintext))).toBe(plaintext);
  });

  test('a fresh iv each time: the same plaintext seals differently, and the text is not in the ciphertext', () => {
    const box = createSecretBox(key);
    const plaintext = `whsec_${randomBytes(32).toString('base64')}`;
    const first = box.seal(plaintext);
    const second = box.seal(plaintext);
    expect(first).not.toBe(second);
    expect(first.startsWith('v1:')).toBe(true);
    expect(first).not.toContain(plaintext.slice(6));
    expect(Buffer.from(first.slice(3), 'base64').length).toBe(12 + 16 + Buffer.byteLength(plaintext));
  });

  test.each([
    ['a key of 31 bytes', randomBytes(31).toString('base64')],
    ['a key of 33 bytes', randomBytes(33).toString('base64')],
    ['an empty key', ''],
    ['a hex key', randomBytes(32).toString('hex')],
    ['not base64', '!'.repeat(44)],
  ])('refuses %s with a message naming the variable', (_, badKey) => {
    expect(isSecretKey(badKey)).toBe(false);
    expect(() => createSecretBox(badKey)).toThrow(/SUBSCRIPTION_SECRET_KEY must be 32 random bytes in base64/);
  });

  const tamper = (sealed: string, at: number) => {
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[at] = bytes[at]! ^ 0x01;
    return `v1:${bytes.toString('base64')}`;
  };

  test.each([
    ['a flipped iv bit', (sealed: string) => tamper(sealed, 0)],
    ['a flipped tag bit', (sealed: string) => tamper(sealed, 12)],
    ['a flipped ciphertext bit', (sealed: string) => tamper(sealed, 28)],
    ['a truncated ciphertext', (sealed: string) => sealed.slice(0, 20)],
    ['no version prefix', (sealed: string) => sealed.slice(3)],
    ['another version', (sealed: string) => `v2:${sealed.slice(3)}`],
    ['not base64', () => 'v1:***'],
  ])('refuses %s', (_, change) => {
    const box = createSecretBox(key);
    expect(() => box.open(change(box.seal('whsec_secret-text')))).toThrow(/does not open with SUBSCRIPTION_SECRET_KEY/);
  });

  test('another key does not open it', () => {
    const sealed = createSecretBox(key).seal('whsec_secret-text');
    expect(() => createSecretBox(randomBytes(32).toString('base64')).open(sealed)).toThrow(/does not open/);
  });
});
