import { apiError } from '../http/api-error.js';

/** Spec 8: filtered requests keep their URL within 2000 characters. */
export const maxRequestUrlLength = 2000;

/**
 * Refuses a request whose absolute URL, as `links.self` states it (the public base URL, path and
 * query as sent, percent-encoding included), is longer than the spec allows.
 */
export function checkRequestUrlLength(selfUrl: string): void {
  if (selfUrl.length > maxRequestUrlLength) {
    throw apiError(400, `request URL: must be at most ${maxRequestUrlLength} characters (got ${selfUrl.length})`);
  }
}

/**
 * The path and query of a request as sent, what `links.self` puts after the public base URL: an
 * absolute-form target (`GET http://host/v1/chains/`, which HTTP/1.1 servers must accept) gives
 * its path and query alone, and a fragment (never meant for the server) is left out.
 */
export function requestTarget(originalUrl: string): string {
  const withoutFragment = originalUrl.split('#', 1)[0]!;
  if (withoutFragment.startsWith('/')) return withoutFragment;
  try {
    const url = new URL(withoutFragment);
    return `${url.pathname}${url.search}`;
  } catch {
    return withoutFragment;
  }
}
