import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { testLogger } from '@wallet-api/core/testing';
import { maxBodyBytes, refuseOversizedBodies } from './body-limit.js';
import { errorHandler } from './error-handler.js';

describe('refuseOversizedBodies', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use(refuseOversizedBodies);
    // A route that reads no body, as every GET.
    app.all('/v1/anything', (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler(testLogger));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Sends the head of a request, no body bytes, and reads until the server closes the connection (or 5 s pass). */
  const sendHead = (head: string) =>
    new Promise<{ answer: string; closed: boolean }>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(head));
      let answer = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ answer, closed: false });
      }, 5_000);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ answer, closed: true });
      });
    });

  test.each([['POST'], ['GET']])('a %s declaring 99,999,999,999 body bytes is answered 413 at once and its connection closed', async (method) => {
    const { answer, closed } = await sendHead(
      `${method} /v1/anything HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n`,
    );
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"detail":"request body: declared 99999999999 bytes, more than the 1048576 any endpoint reads"');
  });

  test('a body within the limit is left to the route', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/anything`, { method: 'POST', body: 'x'.repeat(maxBodyBytes) });
    expect(response.status).toBe(200);
  });
});
