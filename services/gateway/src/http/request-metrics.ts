import type { Request, RequestHandler, Response } from 'express';
import { httpRequestDuration, httpRequests, secondsSince } from '@wallet-api/core/metrics';

/**
 * The route a request is counted under: the API route's documented template
 * (`/v1/wallets/{address}/positions/`, set by define-route), another route's Express path, or
 * `unmatched` for requests answered before routing (authentication, rate limit, unknown paths),
 * so labels never carry addresses or ids.
 */
function routeLabel(req: Request, res: Response): string {
  if (typeof res.locals.route === 'string') return res.locals.route;
  if (req.route && typeof req.route.path === 'string') return `${req.baseUrl}${req.route.path}`;
  return 'unmatched';
}

/** Records every answered request's duration and status in the process registry. */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const labels = { method: req.method, route: routeLabel(req, res), status: String(res.statusCode) };
    httpRequestDuration.observe(labels, secondsSince(started));
    httpRequests.inc(labels);
  });
  next();
};
