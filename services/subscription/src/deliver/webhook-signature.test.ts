import { createHmac, createVerify, generateKeyPairSync } from 'node:crypto';
import { generateSigningSecret, loadRsaSigningKey, rsaSignatureHeaders, standardWebhookHeaders } from './webhook-signature.js';

const hmac = (secret: string, signed: string) =>
  createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(signed, 'utf8')
    .digest('base64');

describe('generateSigningSecret', () => {
  it('is whsec_ and base64 of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});

describe('standardWebhookHeaders', () => {
  it('reproduces the Standard Webhooks published test vector', () => {
    const headers = standardWebhookHeaders({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestampSeconds: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  const secretA = generateSigningSecret();
  const secretB = generateSigningSecret();
  it.each([
    { name: 'one secret', secrets: [secretA], body: '{"a":1}' },
    { name: 'rotation signs with new then old', secrets: [secretB, secretA], body: '{"a":1}' },
    { name: 'non-ASCII body is signed as UTF-8', secrets: [secretA], body: '{"memo":"café ✓"}' },
    { name: 'empty body', secrets: [secretA], body: '' },
  ])('$name', ({ secrets, body }) => {
    const headers = standardWebhookHeaders({ id: 'dlv_1', timestampSeconds: 1700000000, body, secrets });
    const expected = secrets.map((s) => `v1,${hmac(s, `dlv_1.1700000000.${body}`)}`).join(' ');
    expect(headers['webhook-signature']).toBe(expected);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(secrets.length);
  });

  it.each([
    { name: 'missing prefix', secrets: ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], timestampSeconds: 1, error: /whsec_/ },
    { name: 'not base64', secrets: ['whsec_not base64!'], timestampSeconds: 1, error: /whsec_/ },
    { name: 'empty key', secrets: ['whsec_'], timestampSeconds: 1, error: /whsec_/ },
    { name: 'no secrets', secrets: [], timestampSeconds: 1, error: /at least one/ },
    { name: 'milliseconds by mistake', secrets: [secretA], timestampSeconds: 1.5, error: /whole seconds/ },
  ])('rejects $name', ({ secrets, timestampSeconds, error }) => {
    expect(() => standardWebhookHeaders({ id: 'x', timestampSeconds, body: '', secrets })).toThrow(error);
  });
});

describe('rsaSignatureHeaders', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const timestamp = new Date('2024-05-06T07:08:09.123Z');
  const certificateUrl = 'https://example.com/webhooks/cert.pem';

  it.each([
    { name: 'JSON body', body: '{"tx":"0xabc"}' },
    { name: 'body with newlines', body: '{\n"a": 1\n}' },
    { name: 'non-ASCII body', body: '{"memo":"café"}' },
  ])('signs timestamp + \\n + body + \\n: $name', ({ body }) => {
    const headers = rsaSignatureHeaders({ timestamp, body, privateKey: loadRsaSigningKey(privateKeyPem), certificateUrl });
    expect(headers['X-Timestamp']).toBe('2024-05-06T07:08:09.123Z');
    expect(headers['X-Certificate-URL']).toBe(certificateUrl);
    const verify = (signed: string) => createVerify('RSA-SHA256').update(signed).verify(publicKey, headers['X-Signature']!, 'base64');
    expect(verify(`2024-05-06T07:08:09.123Z\n${body}\n`)).toBe(true);
    expect(verify(`2024-05-06T07:08:09.123Z\n${body}`)).toBe(false);
    expect(verify(`2024-05-06T07:08:10.123Z\n${body}\n`)).toBe(false);
  });

  it('refuses a non-RSA key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadRsaSigningKey(ec)).toThrow(/must be RSA/);
  });
});
