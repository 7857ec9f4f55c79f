import type { Redis } from 'ioredis';
import type { Logger } from '@wallet-api/core/logger';

/** The Redis channel on which key revocations are announced, one per deployment (REDIS_KEY_PREFIX). */
export const keyRevocationChannel = (keyPrefix: string): string => `${keyPrefix}:api-key-revocations`;

/**
 * Tells every gateway replica that a key stopped working (revoked or rotated out): each drops the
 * authenticated keys it keeps, so the key answers 401 within a second instead of within its
 * cache's 30 s. Resolves with how many replicas were listening.
 */
export function announceKeyRevocation(redis: Pick<Redis, 'publish'>, keyPrefix: string): Promise<number> {
  return redis.publish(keyRevocationChannel(keyPrefix), 'revoked');
}

/**
 * Follows the announcements on `subscriber` (a connection of its own: a subscribed connection
 * issues no other command) and calls `forget` for each. Also after every reconnection, since an
 * announcement made while disconnected is lost. Resolves once subscribed.
 */
export async function followKeyRevocations(subscriber: Redis, keyPrefix: string, forget: () => void, logger: Logger): Promise<void> {
  const channel = keyRevocationChannel(keyPrefix);
  subscriber.on('message', (received: string) => {
    if (received === channel) forget();
  });
  subscriber.on('ready', () => {
    forget();
  });
  await subscriber.subscribe(channel);
  logger.debug({ channel }, 'following API key revocations');
}
