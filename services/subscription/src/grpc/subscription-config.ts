import { ConfigError } from '@wallet-api/core/config';
import { isSecretKey } from '../secrets/secret-box.js';

/** What the subscription gRPC service reads from the environment. */
export interface SubscriptionConfig {
  /** SUBSCRIPTION_SECRET_KEY: base64 of 32 bytes, the AES-256-GCM key of stored signing secrets. Required. */
  secretKey: string;
  /** SUBSCRIPTION_SECRET_OVERLAP_MS: how long a rotated-out secret keeps signing (default 24 h). */
  secretOverlapMs: number;
  /** CALLBACK_ALLOW_LIST: operator exceptions to the callback_url rules (`loopback,10.0.0.0/8,...`; default empty). */
  callbackAllowList: string;
}

export const defaultSecretOverlapMs = 24 * 60 * 60 * 1000;

/**
 * Reads the subscription variables, reporting every bad one at once like core's `parseEnv`.
 * (Plain code rather than a zod fragment: zod is not a dependency of this package.)
 */
export function parseSubscriptionConfig(env: NodeJS.ProcessEnv = process.env): SubscriptionConfig {
  const problems: string[] = [];
  const secretKey = env.SUBSCRIPTION_SECRET_KEY?.trim() ?? '';
  if (secretKey === '') problems.push('SUBSCRIPTION_SECRET_KEY: required (32 random bytes in base64, e.g. `openssl rand -base64 32`)');
  else if (!isSecretKey(secretKey)) problems.push('SUBSCRIPTION_SECRET_KEY: must be 32 bytes in base64 (44 characters)');
  const overlapText = env.SUBSCRIPTION_SECRET_OVERLAP_MS?.trim() ?? '';
  const secretOverlapMs = overlapText === '' ? defaultSecretOverlapMs : Number(overlapText);
  if (!/^\d*$/.test(overlapText) || !Number.isSafeInteger(secretOverlapMs))
    problems.push('SUBSCRIPTION_SECRET_OVERLAP_MS: must be a whole number of milliseconds');
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return { secretKey, secretOverlapMs, callbackAllowList: env.CALLBACK_ALLOW_LIST ?? '' };
}
