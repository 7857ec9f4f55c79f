import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express from 'express';
import { z } from 'zod';
import type { ChangeVersions } from '@wallet-api/core/cache';
import { testLogger } from '@wallet-api/core/testing';
import { createResponseCache } from '../cache/response-cache.js';
import { errorHandler } from '../http/error-handler.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { answerWith, createApiRoutes } from './define-route.js';

// The wallet's tokens never change here: whatever is computed once may be served from the cache after.
const versions = { walletTokens: async () => ({ everything: '1', prices: '1', wallet: ['1'] }) } as unknown as ChangeVersions;
const response = z.object({ data: z.array(z.string()) });
const organization = { id: 'org', name: 'Org', roles: [], addons: [], rateLimitPerSecond: null, rateLimitBurst: null };

describe("define-route: another success status than the route's", () => {
  const registry = new OpenAPIRegistry();
  const state = { indexing: true, computed: 0 };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const responseCache = createResponseCache({ versions, logger: testLogger, maxBytes: 1024 * 1024, maxAgeMs: 60_000 });
    const routes = createApiRoutes({ registry, publicUrl: 'https://api.test', logger: testLogger, checkResponses: true, responseCache });
    const uncached = createApiRoutes({ registry: new OpenAPIRegistry(), publicUrl: 'https://api.test', logger: testLogger, checkResponses: true });
    for (const [router, path] of [
      [routes, '/v1/cached/{address}'],
      [uncached, '/v1/uncached/{address}'],
    ] as const) {
      router.add({
        method: 'get',
        path,
        summary: 'A wallet answer that is 202 while the wallet is indexed',
        tag: 'test',
        params: z.object({ address: z.string() }),
        response,
        alsoAnswers: { 202: 'Still indexing' },
        cachedFor: ({ params }) => ({ wallet: params.address, data: ['nfts'] }),
        async handle() {
          state.computed++;
          return state.indexing ? answerWith(202, { data: [] }) : { data: ['ready'] };
        },
      });
    }
    uncached.add({
      method: 'get',
      path: '/v1/undeclared',
      summary: 'A handler answering with a status its route does not declare',
      tag: 'test',
      response,
      handle: async () => answerWith(202, { data: [] }),
    });
    const app = express();
    app.use((_req, res, next) => {
      res.locals.organization = organization;
      res.locals.requestId = 'request';
      next();
    });
    app.use('/v1', routes.router, uncached.router);
    app.use(errorHandler(testLogger));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = async (path: string) => {
    const answer = await fetch(`${base}${path}`);
    return [answer.status, await answer.json()];
  };

  test('a 202 is sent with its body and never kept: the 200 that follows it is, once computed', async () => {
    Object.assign(state, { indexing: true, computed: 0 });
    expect(await get('/v1/cached/0xa')).toEqual([202, { data: [] }]);
    expect(await get('/v1/cached/0xa')).toEqual([202, { data: [] }]);
    expect(state.computed).toBe(2);
    state.indexing = false;
    expect(await get('/v1/cached/0xa')).toEqual([200, { data: ['ready'] }]);
    expect(await get('/v1/cached/0xa')).toEqual([200, { data: ['ready'] }]);
    expect(state.computed).toBe(3);
  });

  test('requests sharing the computation of a 202 all get the 202', async () => {
    Object.assign(state, { indexing: true, computed: 0 });
    const answers = await Promise.all([get('/v1/cached/0xb'), get('/v1/cached/0xb'), get('/v1/cached/0xb')]);
    expect(answers).toEqual([
      [202, { data: [] }],
      [202, { data: [] }],
      [202, { data: [] }],
    ]);
  });

  test('without the cache alike', async () => {
    state.indexing = true;
    expect(await get('/v1/uncached/0xc')).toEqual([202, { data: [] }]);
    state.indexing = false;
    expect(await get('/v1/uncached/0xc')).toEqual([200, { data: ['ready'] }]);
  });

  test('a status the route does not declare is a 500, not a silent 202', async () => {
    expect(await get('/v1/undeclared')).toEqual([500, { errors: [{ title: 'Internal Server Error', detail: 'the request could not be completed' }] }]);
  });

  test('the OpenAPI document lists the declared status with the same body schema', () => {
    const paths = buildOpenApiDocument(registry, 'https://api.test').paths as Record<string, Record<string, any>>;
    const responses = paths['/v1/cached/{address}']!.get.responses;
    expect(responses['202'].description).toBe('Still indexing');
    expect(responses['202'].content).toEqual(responses['200'].content);
  });
});
