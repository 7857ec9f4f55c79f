import { generateApiKey, hashApiKey } from './api-keys.js';

describe('generateApiKey', () => {
  test('is wak_ followed by 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^wak_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
  });

  test('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });
});

describe('hashApiKey', () => {
  test.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('sha256(%p) in lowercase hex', (key, hash) => {
    expect(hashApiKey(key)).toBe(hash);
  });

  test('is deterministic and tells keys apart', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toBe(hashApiKey(generateApiKey()));
  });
});
