import { randomBytes } from 'node:crypto';
import { defaultSecretOverlapMs, parseSubscriptionConfig } from './subscription-config.js';

const key = randomBytes(32).toString('base64');

describe('parseSubscriptionConfig', () => {
  test('defaults: 24 h overlap, empty allow-list', () => {
    expect(parseSubscriptionConfig({ SUBSCRIPTION_SECRET_KEY: key })).toEqual({
      secretKey: key,
      secretOverlapMs: defaultSecretOverlapMs,
      callbackAllowList: '',
    });
    expect(defaultSecretOverlapMs).toBe(86_400_000);
  });

  test('reads every variable', () => {
    expect(parseSubscriptionConfig({ SUBSCRIPTION_SECRET_KEY: key, SUBSCRIPTION_SECRET_OVERLAP_MS: '60000', CALLBACK_ALLOW_LIST: 'loopback' })).toEqual({
      secretKey: key,
      secretOverlapMs: 60_000,
      callbackAllowList: 'loopback',
    });
  });

  test.each([
    [{}, /SUBSCRIPTION_SECRET_KEY: required/],
    [{ SUBSCRIPTION_SECRET_KEY: randomBytes(16).toString('base64') }, /SUBSCRIPTION_SECRET_KEY: must be 32 bytes in base64/],
    [{ SUBSCRIPTION_SECRET_KEY: key, SUBSCRIPTION_SECRET_OVERLAP_MS: '1h' }, /SUBSCRIPTION_SECRET_OVERLAP_MS: must be a whole number/],
    [{ SUBSCRIPTION_SECRET_KEY: key, SUBSCRIPTION_SECRET_OVERLAP_MS: '-5' }, /SUBSCRIPTION_SECRET_OVERLAP_MS: must be a whole number/],
  ])('refuses %j', (env, message) => {
    expect(() => parseSubscriptionConfig(env)).toThrow(message);
  });

  test('reports every bad variable at once', () => {
    expect(() => parseSubscriptionConfig({ SUBSCRIPTION_SECRET_OVERLAP_MS: 'x' })).toThrow(/SUBSCRIPTION_SECRET_KEY[\s\S]*SUBSCRIPTION_SECRET_OVERLAP_MS/);
  });
});
