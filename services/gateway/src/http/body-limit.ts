import type { RequestHandler } from 'express';
import { apiError } from './api-error.js';

/** The largest request body any route reads: a JSON body (define-route parses them). */
export const maxBodyBytes = 1024 * 1024;

/**
 * A request that declares a longer body than any route reads is answered 413 at once, before
 * authentication, and its connection closed: without this, a route that reads no body answered
 * and the connection then waited for the declared bytes (99,999,999,999 of them) to arrive.
 */
export const refuseOversizedBodies: RequestHandler = (req, res, next) => {
  const declared = req.get('content-length');
  if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) <= maxBodyBytes) {
    next();
    return;
  }
  res.set('Connection', 'close');
  next(apiError(413, `request body: declared ${declared} bytes, more than the ${maxBodyBytes} any endpoint reads`));
};
