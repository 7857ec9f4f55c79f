import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { testLogger } from '@wallet-api/core/testing';
import { errorHandler } from './error-handler.js';

describe('errorHandler', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    const app = express();
    // What the API-key lookup throws while PostgreSQL is down, and what a programming mistake throws.
    app.get('/database-down', () => {
      throw Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { name: 'PrismaClientKnownRequestError', code: 'P1001' });
    });
    app.get('/redis-down', () => {
      throw Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' });
    });
    app.get('/bug', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    app.use(errorHandler(testLogger));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test.each(['/database-down', '/redis-down'])('%s: 503 with Retry-After, nothing of the failure in the body', async (path) => {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      errors: [{ title: 'Service is temporarily unavailable', detail: 'a dependency of the service is unavailable; retry later' }],
    });
  });

  test('any other failure is a 500 that tells nothing', async () => {
    const response = await fetch(`${baseUrl}/bug`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ errors: [{ title: 'Internal Server Error', detail: 'the request could not be completed' }] });
  });
});
