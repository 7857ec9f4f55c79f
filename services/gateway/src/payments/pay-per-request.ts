import type { RequestHandler, Response } from 'express';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient } from '@x402/core/server';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import { paymentMiddlewareFromHTTPServer } from '@x402/express';
import type { Logger } from '@wallet-api/core/logger';
import type { Organization } from '../auth/authenticate.js';
import { apiError, errorBody } from '../http/api-error.js';
import { isPayableRequest } from './payable-request.js';
import { paymentHeaderProblem } from './payment-header.js';
import type { PaymentConfig } from './payment-config.js';
import { isReasonCode, paymentRequiredBody, paymentRequirements } from './payment-required-body.js';
import { paidRouteConfig } from './payment-requirements.js';

/**
 * Who a paid request is served as: an organization of no roles or add-ons (so role-gated filters
 * answer 403 as for a key without them) whose requests no rate limit counts.
 */
export const payPerRequestOrganization: Organization = {
  id: 'x402',
  name: 'pay per request',
  roles: [],
  addons: [],
  rateLimitPerSecond: null,
  rateLimitBurst: null,
};

const paidFlag = 'paidPerRequest';

/** True when this request was paid for (settled after it is answered) rather than keyed. */
export const isPaidRequest = (res: Response): boolean => res.locals[paidFlag] === true;

/** Runs `handler` (authentication, rate limits) only for requests that were not paid for. */
export function unlessPaid(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (isPaidRequest(res) ? next() : handler(req, res, next));
}

/**
 * The decisions name `X-PAYMENT-RESPONSE` (x402 v1); @x402 2.x answers `PAYMENT-RESPONSE`. Both are
 * sent, and every 402 gets the requirements object with a JSON:API `errors` entry as its body
 * (the x402 server writes `{}` there).
 */
function rewritePaymentAnswers(res: Response, config: PaymentConfig, resourceUrl: string, logger: Logger, refusal: MalformedPayment | undefined): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) => {
    if (name.toLowerCase() === 'payment-response') setHeader('X-PAYMENT-RESPONSE', value);
    return setHeader(name, value);
  };
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    // x402's own failures (a facilitator error, 502; an exception, 500) come as `{ error }`: answered
    // in the API's error shape, without the facilitator's words.
    if (res.statusCode >= 500 && !(typeof body === 'object' && body !== null && 'errors' in body)) {
      logger.error({ status: res.statusCode, body }, 'pay-per-request payment processing failed');
      res.status(500);
      return json(errorBody(apiError(500, 'the payment could not be processed')));
    }
    if (res.statusCode !== 402) return json(body);
    const header = res.getHeader('PAYMENT-REQUIRED');
    let required: PaymentRequired;
    if (typeof header === 'string') {
      required = decodePaymentRequiredHeader(header);
      // x402 reasons are short codes; anything else is an exception's message (an RPC failure, with
      // its URL): logged, and answered as a code so no internals reach the client.
      if (required.error !== undefined && !isReasonCode(required.error)) {
        logger.warn({ reason: required.error }, 'pay-per-request verification failed');
        required = { ...required, error: 'payment_verification_failed' };
      }
      // x402 names the resource from the request's Host header and query: the configured public
      // URL of the path is named instead (a client's Host is not ours to echo, nor a key it sent in the query).
      required = { ...required, ...(refusal ? { error: 'invalid_payload' } : {}), resource: { ...required.resource, url: resourceUrl } };
      setHeader('PAYMENT-REQUIRED', encodePaymentRequiredHeader(required));
    } else {
      // A failed settlement: x402 sends only the failed receipt, so the requirements are restated.
      const receipt = res.getHeader('PAYMENT-RESPONSE');
      const reason = typeof receipt === 'string' ? decodePaymentResponseHeader(receipt).errorReason : undefined;
      required = {
        x402Version: 2,
        error: reason ?? 'settlement_failed',
        resource: { url: resourceUrl, description: paidRouteConfig(config).description ?? '', mimeType: 'application/json' },
        accepts: paymentRequirements(config),
      };
      setHeader('PAYMENT-REQUIRED', encodePaymentRequiredHeader(required));
    }
    return json(paymentRequiredBody(required, refusal && `header ${refusal.header}: ${refusal.problem}; nothing was charged or served`));
  };
}

/** A payment header refused before x402 read it: which header, and what is wrong with it. */
interface MalformedPayment {
  header: 'PAYMENT-SIGNATURE' | 'X-PAYMENT';
  problem: string;
}

/**
 * Pay per request (x402): a keyless GET of data answers 402 with the payment requirements; with a
 * payment header it is verified by `facilitator`, the request is served (buffered, not yet sent),
 * and only when it answered below 400 is the payment settled on chain, the answer then sent with
 * the receipt. A payment that fails verification or settlement gets 402 and nothing is served; a
 * request that fails (400, 404...) after a valid payment is answered without settling, so the
 * payer is charged only for answers. Keyed requests and keyless writes pass through untouched.
 */
export function payPerRequest(config: PaymentConfig, facilitator: FacilitatorClient | FacilitatorClient[], logger: Logger, publicUrl: string): RequestHandler {
  const origin = publicUrl.replace(/\/$/, '');
  const resourceServer = new x402ResourceServer(facilitator).register(config.evm.network, new ExactEvmScheme());
  // No RPC URL for the Solana scheme: the payer's client reads a fresh blockhash itself when it signs.
  if (config.svm) resourceServer.register(config.svm.network, new ExactSvmScheme());
  resourceServer.onAfterSettle(async ({ result }) => {
    logger.info({ transaction: result.transaction, payer: result.payer, network: result.network }, 'pay-per-request payment settled');
  });
  const httpServer = new x402HTTPResourceServer(resourceServer, paidRouteConfig(config));
  const middleware = paymentMiddlewareFromHTTPServer(httpServer);
  return (req, res, next) => {
    if (req.get('authorization') !== undefined || !isPayableRequest(req.method, `${req.baseUrl}${req.path}`)) {
      next();
      return;
    }
    // x402 v2 reads the payment from PAYMENT-SIGNATURE only; the decisions name X-PAYMENT (v1's
    // header), which carries the same base64 payload: it is read as PAYMENT-SIGNATURE when alone.
    const xPayment = req.headers['x-payment'];
    const header: MalformedPayment['header'] =
      req.headers['payment-signature'] === undefined && typeof xPayment === 'string' ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE';
    if (header === 'X-PAYMENT') req.headers['payment-signature'] = xPayment;
    const payment = req.headers['payment-signature'];
    // A malformed payment is refused here, and x402 answers as for none (its requirements).
    const problem = typeof payment === 'string' ? paymentHeaderProblem(payment) : undefined;
    if (problem) delete req.headers['payment-signature'];
    // x402 answers browsers (Accept: text/html, a Mozilla user agent) with an HTML paywall; this API
    // answers JSON only, so its 402 is the JSON requirements for every client.
    req.headers.accept = 'application/json';
    rewritePaymentAnswers(res, config, `${origin}${req.baseUrl}${req.path}`, logger, problem === undefined ? undefined : { header, problem });
    void middleware(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      res.locals[paidFlag] = true;
      res.locals.organization = payPerRequestOrganization;
      next();
    }).catch(next);
  };
}
