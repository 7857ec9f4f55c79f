import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express from 'express';
import { z } from 'zod';
import { testLogger } from '@wallet-api/core/testing';
import { errorHandler } from '../http/error-handler.js';
import { createApiRoutes } from './define-route.js';

const organization = { id: 'org', name: 'Org', roles: [], addons: [], rateLimitPerSecond: null, rateLimitBurst: null };

describe('define-route: input no schema should have to expect', () => {
  const handled: unknown[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const routes = createApiRoutes({ registry: new OpenAPIRegistry(), publicUrl: 'https://api.test', logger: testLogger, checkResponses: true });
    routes.add({
      method: 'get',
      path: '/v1/things/{id}',
      summary: 'A route with a path parameter and list and text query parameters',
      tag: 'test',
      params: z.object({ id: z.string() }),
      query: z.object({ 'filter[chain_ids]': z.string().optional(), 'filter[search_query]': z.string().optional(), currency: z.string().default('usd') }),
      response: z.object({ data: z.unknown() }),
      async handle(input) {
        handled.push(input);
        return { data: input.query };
      },
    });
    routes.add({
      method: 'post',
      path: '/v1/things',
      summary: 'A route with a JSON body',
      tag: 'test',
      body: z.object({ callback_url: z.string(), filters: z.object({ dapp_ids: z.array(z.string()) }).optional() }),
      response: z.object({ data: z.unknown() }),
      successStatus: 201,
      async handle(input) {
        handled.push(input);
        return { data: input.body };
      },
    });
    routes.add({
      method: 'get',
      path: '/v1/self',
      summary: 'A route answering with its links.self',
      tag: 'test',
      response: z.object({ data: z.string() }),
      handle: async (_input, { selfUrl }) => ({ data: selfUrl }),
    });
    const app = express();
    app.use((_req, res, next) => {
      res.locals.organization = organization;
      res.locals.requestId = 'request';
      next();
    });
    app.use('/v1', routes.router);
    app.use(errorHandler(testLogger));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => handled.splice(0));

  const refused = async (response: Promise<Response>) => {
    const answer = await response;
    const body = (await answer.json()) as { errors: { detail: string }[] };
    return [answer.status, body.errors?.[0]?.detail];
  };
  const post = (body: string) => fetch(`${base}/v1/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  test.each([
    ['/v1/things/1?filter[search_query]=%00', 'parameter filter[search_query]: must not contain NUL characters'],
    ['/v1/things/1?filter[search_query]=a%00b&currency=usd', 'parameter filter[search_query]: must not contain NUL characters'],
    ['/v1/things/1?currency=usd&currency=%00', 'parameter currency: must not contain NUL characters'],
    ['/v1/things/%00', 'path parameter id: must not contain NUL characters'],
  ])('%s answers 400 naming where the NUL is, before the handler runs', async (path, detail) => {
    expect(await refused(fetch(`${base}${path}`))).toEqual([400, detail]);
    expect(handled).toEqual([]);
  });

  test.each([
    ['{"callback_url":"https://example.com/\\u0000"}', 'parameter callback_url: must not contain NUL characters'],
    ['{"callback_url":"https://example.com/","filters":{"dapp_ids":["uniswap","\\u0000"]}}', 'parameter filters.dapp_ids[1]: must not contain NUL characters'],
    ['{"callback_url":"https://example.com/","\\u0000":1}', 'parameter \u0000: must not contain NUL characters'],
    ['"\\u0000"', 'request body: must not contain NUL characters'],
  ])('a JSON body %s answers 400 naming the field', async (body, detail) => {
    expect(await refused(post(body))).toEqual([400, detail]);
    expect(handled).toEqual([]);
  });

  test.each([
    ['currency[]=usd', 'currency[]', 'currency'],
    ['filter[chain_ids][]=base', 'filter[chain_ids][]', 'filter[chain_ids]'],
    ['filter[chain_ids][0]=base&filter[chain_ids][1]=ethereum', 'filter[chain_ids][0]', 'filter[chain_ids]'],
    ['filter[search_query][]=weth', 'filter[search_query][]', 'filter[search_query]'],
  ])('the array-form key of %s answers 400 naming it and the parameter to send instead', async (query, key, parameter) => {
    expect(await refused(fetch(`${base}/v1/things/1?${query}`))).toEqual([
      400,
      `parameter ${key}: is not a parameter (array-form keys are not read); send ${parameter}= instead, a list as comma-separated values`,
    ]);
    expect(handled).toEqual([]);
  });

  test('ordinary values, and keys of no parameter, still reach the handler', async () => {
    const answer = await fetch(`${base}/v1/things/1?filter[chain_ids]=base,ethereum&filter[search_query]=we%09th&_=1700000000`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { 'filter[chain_ids]': 'base,ethereum', 'filter[search_query]': 'we\tth', currency: 'usd' } });
    expect(await (await post('{"callback_url":"https://example.com/","filters":{"dapp_ids":["uniswap"]}}')).json()).toEqual({
      data: { callback_url: 'https://example.com/', filters: { dapp_ids: ['uniswap'] } },
    });
  });

  test('links.self is the public URL with the path and query as sent: an absolute-form target gives its path alone, a fragment is left out', async () => {
    const sent = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(base);
        // http.request sends `path` verbatim as the request target.
        const request = httpRequest({ hostname, port, path: target }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve((JSON.parse(body) as { data: string }).data));
        });
        request.on('error', reject);
        request.end();
      });
    expect(await sent('/v1/self?currency=usd')).toBe('https://api.test/v1/self?currency=usd');
    expect(await sent(`${base}/v1/self?currency=usd`)).toBe('https://api.test/v1/self?currency=usd');
    expect(await sent('http://evil.invalid/v1/self')).toBe('https://api.test/v1/self');
    expect(await sent('/v1/self?currency=usd#fragment')).toBe('https://api.test/v1/self?currency=usd');
  });
});
