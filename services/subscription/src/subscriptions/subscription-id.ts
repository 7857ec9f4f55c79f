import { randomBytes } from 'node:crypto';

const subscriptionIdPattern = /^sub_[0-9a-f]{32}$/;

/** A new subscription id: `sub_` and 128 random bits in lowercase hex. */
export function newSubscriptionId(): string {
  return `sub_${randomBytes(16).toString('hex')}`;
}

/** True for an id `newSubscriptionId` could have made: anything else names no subscription. */
export function isSubscriptionId(text: string): boolean {
  return subscriptionIdPattern.test(text);
}
