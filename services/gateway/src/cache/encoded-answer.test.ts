import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { compressionThreshold, encodeAnswer, encodedSize, sendEncoded, type EncodedAnswer } from './encoded-answer.js';

const large = JSON.stringify({ data: Array.from({ length: 400 }, (_, index) => ({ type: 'transactions', id: `tx-${index}`, attributes: { hash: `0x${index.toString(16).padStart(64, '0')}` } })) });
const small = JSON.stringify({ data: { type: 'portfolio', id: '0xabc' } });

describe('encodeAnswer', () => {
  test('a large answer gets brotli and gzip forms that decode to its bytes, smaller than them', async () => {
    const answer = await encodeAnswer(large);
    expect(answer.identity.toString()).toBe(large);
    expect(brotliDecompressSync(answer.br!).toString()).toBe(large);
    expect(gunzipSync(answer.gzip!).toString()).toBe(large);
    expect(answer.br!.length).toBeLessThan(answer.identity.length / 4);
    expect(encodedSize(answer)).toBe(answer.identity.length + answer.br!.length + answer.gzip!.length);
  });

  test('an answer under the threshold is kept plain only', async () => {
    expect(Buffer.byteLength(small)).toBeLessThan(compressionThreshold);
    expect(await encodeAnswer(small)).toEqual({ identity: Buffer.from(small) });
  });
});

describe('sendEncoded', () => {
  let server: Server;
  let port: number;
  const answers = new Map<string, EncodedAnswer>();

  beforeAll(async () => {
    answers.set('/large', await encodeAnswer(large));
    answers.set('/small', await encodeAnswer(small));
    const app = express();
    app.get(['/large', '/small'], (req, res) => sendEncoded(req, res, 200, answers.get(req.path)!));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The raw answer: headers and bytes as sent, nothing decoded. */
  function get(path: string, acceptEncoding?: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  test.each([
    ['gzip, deflate, br', 'gzip'],
    ['deflate, gzip, br, zstd', 'gzip'],
    ['br', 'br'],
    ['br;q=1, gzip;q=0.5', 'br'],
    ['gzip', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %p is answered with encoding %p', async (acceptEncoding, encoding) => {
    const { headers, body } = await get('/large', acceptEncoding);
    expect(headers['content-encoding']).toBe(encoding);
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers.vary).toBe('Accept-Encoding');
    const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
    expect(decoded.toString()).toBe(large);
    expect(Number(headers['content-length'])).toBe(body.length);
  });

  test('a small answer goes out plain whatever the client accepts', async () => {
    const { headers, body } = await get('/small', 'gzip, br');
    expect(headers['content-encoding']).toBeUndefined();
    expect(body.toString()).toBe(small);
  });
});
