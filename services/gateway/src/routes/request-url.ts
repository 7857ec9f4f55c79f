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
