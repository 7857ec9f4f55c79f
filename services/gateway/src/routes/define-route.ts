import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router, type Request, type Response } from 'express';
import type { Logger } from '@wallet-api/core/logger';
import { z } from 'zod';
import type { Organization } from '../auth/authenticate.js';
import { apiError, titles, type ErrorStatus } from '../http/api-error.js';
import { errorResponseSchema } from '../schemas/common.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;
const empty = z.object({});

export interface RouteInput<P extends AnyObject, Q extends AnyObject, H extends AnyObject> {
  params: z.infer<P>;
  query: z.infer<Q>;
  headers: z.infer<H>;
}

export interface RouteContext {
  organization: Organization;
  requestId: string;
  /** Absolute URL of this request, for `links.self`. */
  selfUrl: string;
  /** Absolute URL of the API root (without `/v1`), for links to other resources. */
  baseUrl: string;
}

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. `/v1/chains/{chain_id}`. */
  path: `/v1/${string}`;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  headers?: H;
  response: R;
  successStatus?: 200 | 201 | 202 | 204;
  /** Error statuses beyond the 400/401/429/500/503 that every authenticated route may answer. */
  errors?: ErrorStatus[];
  handle(input: RouteInput<P, Q, H>, context: RouteContext): Promise<z.infer<R>>;
}

export interface ApiRoutes {
  router: Router;
  add<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType>(spec: RouteSpec<P, Q, H, R>): void;
}

const commonErrors: ErrorStatus[] = [400, 401, 429, 500, 503];

/** The first problem, worded with the parameter's public name so the client knows what to fix. */
function describeIssue(location: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const name = issue.path.map(String).join('.') || location;
  return `${location === 'path' ? 'path parameter' : location === 'header' ? 'header' : 'parameter'} ${name}: ${issue.message}`;
}

function parse<S extends AnyObject>(schema: S, value: unknown, location: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw apiError(400, describeIssue(location, result.error));
  return result.data;
}

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
}): ApiRoutes {
  const router = Router();
  const baseUrl = options.publicUrl.replace(/\/$/, '');
  return {
    router,
    add<P extends AnyObject, Q extends AnyObject, H extends AnyObject, R extends z.ZodType>(spec: RouteSpec<P, Q, H, R>) {
      const successStatus = spec.successStatus ?? 200;
      const errors = [...new Set([...commonErrors, ...(spec.errors ?? [])])].sort();
      const openapi: RouteConfig = {
        method: spec.method,
        path: spec.path,
        summary: spec.summary,
        tags: [spec.tag],
        security: [{ basicAuth: [] }],
        request: {
          ...(spec.params ? { params: spec.params } : {}),
          ...(spec.query ? { query: spec.query } : {}),
          ...(spec.headers ? { headers: spec.headers } : {}),
        },
        responses: {
          [successStatus]: { description: 'Success', content: { 'application/json': { schema: spec.response } } },
          ...Object.fromEntries(
            errors.map((status) => [status, { description: titles[status], content: { 'application/json': { schema: errorResponseSchema } } }]),
          ),
        },
      };
      options.registry.registerPath(openapi);

      const expressPath = spec.path.slice('/v1'.length).replace(/\{([^}]+)\}/g, ':$1');
      router[spec.method](expressPath, async (req: Request, res: Response) => {
        const input = {
          params: parse(spec.params ?? empty, req.params, 'path'),
          query: parse(spec.query ?? empty, req.query, 'query'),
          headers: parse(spec.headers ?? empty, readHeaders(spec.headers ?? empty, req), 'header'),
        } as RouteInput<P, Q, H>;
        const body = await spec.handle(input, {
          organization: res.locals.organization as Organization,
          requestId: res.locals.requestId as string,
          selfUrl: `${baseUrl}${req.originalUrl}`,
          baseUrl,
        });
        if (options.checkResponses) {
          const checked = spec.response.safeParse(body);
          if (!checked.success) {
            options.logger.error({ path: spec.path, issues: checked.error.issues }, 'response does not match its declared schema');
            throw apiError(500, 'the response failed its schema check');
          }
        }
        res.status(successStatus).json(body);
      });
    },
  };
}
