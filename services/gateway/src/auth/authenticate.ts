import type { RequestHandler } from 'express';
import { apiError } from '../http/api-error.js';

export interface Organization {
  id: string;
  name: string;
  roles: string[];
  addons: string[];
  rateLimitPerSecond: number | null;
  rateLimitBurst: number | null;
  /** When the key that authenticated the request expires (unix ms); absent: it does not. */
  keyExpiresAt?: number;
}

export type OrganizationLookup = (apiKey: string) => Promise<Organization | null>;

/** A lookup whose answers are kept: forgetAll drops them (a key was revoked somewhere). */
export type CachedLookup = OrganizationLookup & { forgetAll(): void };

const challenge = { 'WWW-Authenticate': 'Basic realm="wallet-api", charset="UTF-8"' };

/** Standard base64 (RFC 4648 section 4) with its padding: what RFC 7617 puts after `Basic`. */
const basicCredentials = /^Basic ((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/i;

/**
 * The API key of `Authorization: Basic base64(<key>:)` (spec 8.1: the key is the username, the
 * password is empty), or what is wrong with the header. One rule, no leniency: the scheme in any
 * case (RFC 7617), standard padded base64, and the decoded credentials exactly the key and one
 * colon. A password, a missing colon and URL-safe or unpadded base64 are refused, each saying so.
 */
export function parseBasicApiKey(header: string | undefined): { key: string } | { problem: string } {
  if (!header) return { problem: 'an API key is required: send it as the username of HTTP Basic authentication with an empty password' };
  const match = basicCredentials.exec(header.trim());
  if (!match || match[1] === '') return { problem: 'the Authorization header must be Basic followed by the standard base64 of the API key and a colon' };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return { problem: 'the Authorization header must carry the API key followed by a colon (an empty password); the colon is missing' };
  if (colon !== decoded.length - 1)
    return { problem: 'the Authorization header must carry the API key followed by a colon and no password; a password was sent' };
  if (colon === 0) return { problem: 'the Authorization header carries no API key before the colon' };
  return { key: decoded.slice(0, colon) };
}

export function authenticate(lookup: OrganizationLookup): RequestHandler {
  return async (req, res, next) => {
    const credentials = parseBasicApiKey(req.get('authorization'));
    if ('problem' in credentials) throw apiError(401, credentials.problem, challenge);
    const organization = await lookup(credentials.key);
    if (!organization) throw apiError(401, 'the API key is invalid', challenge);
    res.locals.organization = organization;
    next();
  };
}

/**
 * Caches key lookups briefly so the hot path does not hit PostgreSQL on every request. Unknown
 * keys are cached too (for less time), so a flood of bad keys cannot flood the database either.
 * A revoked key stops working within `ttlMs` of the lookup that last saw it valid.
 *
 * Requests with a key being looked up wait for that lookup instead of starting their own (32
 * clients starting with a new key made 32 lookups, each a few PostgreSQL queries, before any was
 * answered). A known key in use is looked up again in the background once three quarters of its
 * time are gone, and served from the cache meanwhile: a busy key's requests never all stop for
 * PostgreSQL when its entry expires.
 */
export function cachedLookup(
  lookup: OrganizationLookup,
  {
    ttlMs = 30_000,
    negativeTtlMs = 5_000,
    maxEntries = 10_000,
    now = Date.now,
  }: { ttlMs?: number; negativeTtlMs?: number; maxEntries?: number; now?: () => number } = {},
): CachedLookup {
  const cache = new Map<string, { organization: Organization | null; expiresAt: number; refreshAt: number }>();
  const running = new Map<string, Promise<Organization | null>>();
  /** Bumped by forgetAll: a lookup begun before it keeps nothing. */
  let generation = 0;

  function load(key: string): Promise<Organization | null> {
    const existing = running.get(key);
    if (existing) return existing;
    // Times count from the lookup's start: what it read may have been revoked since.
    const startedAt = now();
    const begun = generation;
    const loading = lookup(key)
      .then((organization) => {
        if (begun !== generation) return organization;
        cache.delete(key);
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        const ttl = organization ? ttlMs : negativeTtlMs;
        const expiresAt = Math.min(startedAt + ttl, organization?.keyExpiresAt ?? Infinity);
        cache.set(key, { organization, expiresAt, refreshAt: organization ? startedAt + (ttl * 3) / 4 : Infinity });
        return organization;
      })
      .finally(() => running.get(key) === loading && running.delete(key));
    running.set(key, loading);
    return loading;
  }

  const cached = async (key: string) => {
    const at = now();
    const hit = cache.get(key);
    if (!hit || hit.expiresAt <= at) return load(key);
    // A failed refresh leaves the entry to expire; the lookup after that reports the failure.
    if (hit.refreshAt <= at) load(key).catch(() => undefined);
    return hit.organization;
  };
  return Object.assign(cached, {
    forgetAll() {
      generation++;
      cache.clear();
      running.clear();
    },
  });
}
