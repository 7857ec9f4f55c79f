import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Organization } from '../auth/authenticate.js';
import { apiError } from '../http/api-error.js';

export interface RateLimitDefaults {
  perSecond: number;
  burst: number;
}

/**
 * A steady allowance of `perSecond` requests each second plus `burst - perSecond` extra requests
 * that refill over `ceil(burst / perSecond)` seconds: short bursts up to `burst` pass, sustained
 * traffic is held to `perSecond`.
 */
function createLimiter(redis: Redis, perSecond: number, burst: number): BurstyRateLimiter {
  const prefix = `ratelimit:${perSecond}:${burst}`;
  const steady = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:steady`,
    points: perSecond,
    duration: 1,
    // Keeps limiting, per process, if Redis is unreachable instead of failing every request.
    insuranceLimiter: new RateLimiterMemory({ points: perSecond, duration: 1 }),
  });
  const extra = Math.max(burst - perSecond, 0);
  const burstDuration = Math.max(1, Math.ceil(burst / perSecond));
  const bursty = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:burst`,
    points: extra,
    duration: burstDuration,
    insuranceLimiter: new RateLimiterMemory({ points: extra, duration: burstDuration }),
  });
  return new BurstyRateLimiter(steady, bursty);
}

function setRateLimitHeaders(headers: Record<string, string>, limit: number, result: RateLimiterRes): Record<string, string> {
  headers['RateLimit-Limit'] = String(limit);
  headers['RateLimit-Remaining'] = String(Math.max(0, result.remainingPoints));
  headers['RateLimit-Reset'] = String(Math.max(0, Math.ceil(result.msBeforeNext / 1000)));
  return headers;
}

/** Per-organization limits in Redis; an organization's own limits override the deployment defaults. */
export function rateLimit(redis: Redis, defaults: RateLimitDefaults): RequestHandler {
  const limiters = new Map<string, BurstyRateLimiter>();
  const limiterFor = (perSecond: number, burst: number) => {
    const key = `${perSecond}:${burst}`;
    let limiter = limiters.get(key);
    if (!limiter) limiters.set(key, (limiter = createLimiter(redis, perSecond, burst)));
    return limiter;
  };
  return async (_req, res, next) => {
    const organization = res.locals.organization as Organization;
    const perSecond = organization.rateLimitPerSecond ?? defaults.perSecond;
    const burst = Math.max(organization.rateLimitBurst ?? defaults.burst, perSecond);
    try {
      const result = await limiterFor(perSecond, burst).consume(organization.id);
      res.set(setRateLimitHeaders({}, burst, result));
      next();
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      const headers = setRateLimitHeaders({ 'Retry-After': String(retryAfter) }, burst, rejection);
      throw apiError(429, `rate limit of ${perSecond} requests per second (bursts of ${burst}) exceeded; retry after ${retryAfter} s`, headers);
    }
  };
}
