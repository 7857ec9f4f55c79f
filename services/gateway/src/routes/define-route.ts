import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import express, { Router, type Request, type Response } from 'express';
import type { WalletChangeTokens, WalletData } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { z } from 'zod';
import type { Organization } from '../auth/authenticate.js';
import { encodeAnswer, sendEncoded } from '../cache/encoded-answer.js';
import type { ResponseCache } from '../cache/response-cache.js';
import { apiError, titles, type ErrorStatus } from '../http/api-error.js';
import { maxBodyBytes } from '../http/body-limit.js';
import { arrayFormKey, nulCharacterPath } from '../http/input-checks.js';
import { requestTarget } from './request-url.js';
import { isPayableRequest } from '../payments/payable-request.js';
import { errorResponseSchema } from '../schemas/common.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;
const empty = z.object({});
const noBody = z.undefined();
type NoBody = typeof noBody;

/** The `response` of a route answering `204 No Content`: its handler returns nothing. */
export const noContent = z.void();

/** Success statuses a handler may answer with besides its route's `successStatus`. */
export type AlternateStatus = 202;

/**
 * A handler's answer with another success status than its route's, one the route declares in
 * `alsoAnswers`: the NFT endpoints' 202 while a wallet is first indexed, with a body of the same
 * schema. A class, so that no body of any shape can be taken for one.
 */
export class StatusAnswer<T> {
  constructor(
    readonly status: AlternateStatus,
    readonly body: T,
  ) {}
}

export const answerWith = <T>(status: AlternateStatus, body: T): StatusAnswer<T> => new StatusAnswer(status, body);

export interface RouteInput<P extends AnyObject, Q extends AnyObject, H extends AnyObject, B extends z.ZodType = NoBody> {
  params: z.infer<P>;
  query: z.infer<Q>;
  headers: z.infer<H>;
  body: z.infer<B>;
}

export interface RouteContext {
  organization: Organization;
  requestId: string;
  /** Absolute URL of this request, for `links.self`. */
  selfUrl: string;
  /** Absolute URL of the API root (without `/v1`), for links to other resources. */
  baseUrl: string;
  /**
   * The wallet's change tokens the answer is kept under (cached routes, when Redis answered): the
   * handler's own caches key on them instead of reading them again.
   */
  changeTokens?: WalletChangeTokens;
}

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType, B extends z.ZodType = NoBody> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. `/v1/chains/{chain_id}`. */
  path: `/v1/${string}`;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  headers?: H;
  /**
   * A JSON request body (`Content-Type: application/json`). A request without a body is checked
   * as `{}`; routes without this read no body at all, whatever is sent.
   */
  body?: B;
  /** `noContent` with `successStatus: 204`. */
  response: R;
  successStatus?: 200 | 201 | 202 | 204;
  /**
   * Further success statuses the handler may answer with through `answerWith`, each with when it
   * does; same body schema. Such answers are never kept in the response cache: what ends them
   * (a wallet's first indexing finishing) is no change token a later request could see.
   */
  alsoAnswers?: Partial<Record<AlternateStatus, string>>;
  /** Error statuses beyond the 400/401/429/500/503 that every authenticated route may answer. */
  errors?: ErrorStatus[];
  handle(input: RouteInput<P, Q, H, B>, context: RouteContext): Promise<z.infer<R> | StatusAnswer<z.infer<R>>>;
  /**
   * For routes answering about one wallet (or a wallet set's): the wallet (wallets) and the kinds
   * of its data the answer reads, when this request's answer may be served from the response
   * cache until that data or prices change; undefined when it must be computed (such as
   * `sync=true`). `variant` is part of the key: answers that also change with the clock (a
   * chart's points move on) name the clock's step.
   */
  cachedFor?(input: RouteInput<P, Q, H, B>): { wallet: string | readonly string[]; data: readonly WalletData[]; variant?: string } | undefined;
}

export interface ApiRoutes {
  router: Router;
  add<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType, B extends z.ZodType = NoBody>(spec: RouteSpec<P, Q, H, R, B>): void;
}

const commonErrors: ErrorStatus[] = [400, 401, 429, 500, 503];

/** The first problem, worded with the parameter's public name so the client knows what to fix. */
function describeIssue(location: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const name = issue.path.map(String).join('.') || location;
  return `${location === 'path' ? 'path parameter' : location === 'header' ? 'header' : 'parameter'} ${name}: ${issue.message}`;
}

const locationNames: Record<string, string> = { path: 'path parameter', header: 'header', query: 'parameter' };

function parse<S extends AnyObject>(schema: S, value: Record<string, unknown>, location: string): z.infer<S> {
  const nul = nulCharacterPath(value);
  if (nul) throw apiError(400, `${locationNames[location]} ${String(nul[0])}: must not contain NUL characters`);
  if (location === 'query') {
    const arrayForm = arrayFormKey(value, Object.keys(schema.shape));
    if (arrayForm) {
      throw apiError(
        400,
        `parameter ${arrayForm.key}: is not a parameter (array-form keys are not read); send ${arrayForm.parameter}= instead, a list as comma-separated values`,
      );
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) throw apiError(400, describeIssue(location, result.error));
  return result.data;
}

/** A body field as a client writes it: `addresses[3]`, `filters.exclude.trash`. */
function bodyFieldName(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * The body problem to report: an unknown key first (a misspelt field explains the rest), then the
 * outermost problem (a list too long before a bad entry in it). Worded like the query parameters':
 * `parameter addresses[3]: is not an EVM or Solana address`, `parameter filters.exclude.foo: is not a known key`.
 */
export function describeBodyIssue(error: z.ZodError): string {
  const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') return `parameter ${bodyFieldName([...unknown.path, unknown.keys[0]!])}: is not a known key`;
  const issue = error.issues.reduce((outermost, candidate) => (candidate.path.length < outermost.path.length ? candidate : outermost));
  return issue.path.length === 0 ? `request body: ${issue.message}` : `parameter ${bodyFieldName(issue.path)}: ${issue.message}`;
}

function parseBody<B extends z.ZodType>(schema: B, req: Request): z.infer<B> {
  // null: no body at all; false: a body of another type. An empty body (Content-Length: 0, what
  // most clients send for a POST without one) is no body either, whatever its Content-Type.
  const json = req.get('content-length') === '0' ? null : req.is('application/json');
  if (json === false) throw apiError(400, 'request body: Content-Type must be application/json');
  const nul = json === null ? undefined : nulCharacterPath(req.body);
  if (nul)
    throw apiError(
      400,
      nul.length === 0 ? 'request body: must not contain NUL characters' : `parameter ${bodyFieldName(nul)}: must not contain NUL characters`,
    );
  const result = schema.safeParse(json === null ? {} : req.body);
  if (!result.success) throw apiError(400, describeBodyIssue(result.error));
  return result.data;
}

// Only routes declaring a body parse one, after authentication and rate limiting. Any JSON value
// parses (not only objects and arrays), so that `"text"` is answered as the wrong shape, not as invalid JSON.
const jsonBody = express.json({ limit: maxBodyBytes, strict: false });

function readHeaders(schema: AnyObject, req: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, req.get(name)]));
}

/**
 * Routes are declared once, with zod schemas for their inputs and response: the same declaration
 * validates requests, checks responses outside production, and produces the OpenAPI document.
 */
export function createApiRoutes(options: {
  registry: OpenAPIRegistry;
  publicUrl: string;
  logger: Logger;
  checkResponses: boolean;
  /** Absent: every answer is computed. */
  responseCache?: ResponseCache;
}): ApiRoutes {
  const router = Router();
  const baseUrl = options.publicUrl.replace(/\/$/, '');
  return {
    router,
    add<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType, B extends z.ZodType = NoBody>(spec: RouteSpec<P, Q, H, R, B>) {
      const successStatus = spec.successStatus ?? 200;
      // Keyless GETs of data may be paid for (x402) instead: they also answer 402 with the requirements.
      const payable = isPayableRequest(spec.method.toUpperCase(), spec.path);
      const errors = [...new Set([...commonErrors, ...(payable ? [402 as const] : []), ...(spec.errors ?? [])])].sort();
      const openapi: RouteConfig = {
        method: spec.method,
        path: spec.path,
        summary: spec.summary,
        tags: [spec.tag],
        security: payable ? [{ basicAuth: [] }, { x402Payment: [] }] : [{ basicAuth: [] }],
        request: {
          ...(spec.params ? { params: spec.params } : {}),
          ...(spec.query ? { query: spec.query } : {}),
          ...(spec.headers ? { headers: spec.headers } : {}),
          ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
        },
        responses: {
          [successStatus]:
            successStatus === 204 ? { description: 'No Content' } : { description: 'Success', content: { 'application/json': { schema: spec.response } } },
          ...Object.fromEntries(
            Object.entries(spec.alsoAnswers ?? {}).map(([status, description]) => [
              status,
              { description, content: { 'application/json': { schema: spec.response } } },
            ]),
          ),
          ...Object.fromEntries(
            errors.map((status) => [status, { description: titles[status], content: { 'application/json': { schema: errorResponseSchema } } }]),
          ),
        },
      };
      options.registry.registerPath(openapi);

      const expressPath = spec.path.slice('/v1'.length).replace(/\{([^}]+)\}/g, ':$1');
      router[spec.method](expressPath, ...(spec.body ? [jsonBody] : []), async (req: Request, res: Response) => {
        res.locals.route = spec.path;
        const input = {
          params: parse(spec.params ?? empty, req.params, 'path'),
          query: parse(spec.query ?? empty, req.query, 'query'),
          headers: parse(spec.headers ?? empty, readHeaders(spec.headers ?? empty, req), 'header'),
          body: spec.body ? parseBody(spec.body, req) : undefined,
        } as RouteInput<P, Q, H, B>;
        const organization = res.locals.organization as Organization;
        const respond = async (changeTokens?: WalletChangeTokens): Promise<{ status: number; body: unknown }> => {
          const answer = await spec.handle(input, {
            organization,
            requestId: res.locals.requestId as string,
            selfUrl: `${baseUrl}${requestTarget(req.originalUrl)}`,
            baseUrl,
            ...(changeTokens ? { changeTokens } : {}),
          });
          const { status, body } = answer instanceof StatusAnswer ? answer : { status: successStatus, body: answer };
          if (status !== successStatus && spec.alsoAnswers?.[status as AlternateStatus] === undefined) {
            // The OpenAPI document would not list it: a programming error, not the client's.
            options.logger.error({ path: spec.path, status }, 'a handler answered with a status its route does not declare');
            throw apiError(500, 'the request could not be completed');
          }
          if (options.checkResponses) {
            const checked = spec.response.safeParse(body);
            if (!checked.success) {
              options.logger.error({ path: spec.path, issues: checked.error.issues }, 'response does not match its declared schema');
              throw apiError(500, 'the response failed its schema check');
            }
          }
          return { status, body };
        };
        const cached = options.responseCache && spec.cachedFor?.(input);
        if (options.responseCache && cached) {
          // Everything an answer depends on besides the wallet's data: the URL as sent (links.self
          // repeats it), the headers the route reads, and the caller's entitlements.
          const { variant = '', ...served } = cached;
          const key = [
            spec.path,
            requestTarget(req.originalUrl),
            JSON.stringify(input.headers),
            organization.roles.join(','),
            organization.addons.join(','),
            variant,
          ].join('\n');
          const { body } = await options.responseCache.serve({ route: spec.path, ...served, key }, async (tokens) => {
            const { status, body: computed } = await respond(tokens);
            const encoded = encodeAnswer(JSON.stringify(computed));
            // Another status than the route's travels with the bytes, and keeps them out of the cache.
            return status === successStatus ? encoded : { ...encoded, status };
          });
          await sendEncoded(req, res, body.status ?? successStatus, body);
          return;
        }
        const { status, body } = await respond();
        if (status === 204) res.status(204).end();
        else res.status(status).json(body);
      });
    },
  };
}
