import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { compressionThreshold, encodeAnswer, encodedSize, sendEncoded, type EncodedAnswer } from './encoded-answer.js';

const large = JSON.stringify({
  data: Array.from({ length: 400 }, (_, index) => ({
    type: 'transactions',
    id: `tx-${index}`,
    attributes: { hash: `0x${index.toString(16).padStart(64, '0')}` },
  })),
});
const small = JSON.stringify({ data: { type: 'portfolio', id: '0xabc' } });

describe('encodeAnswer', () => {
  test('an answer is kept as its plain bytes, counted with room for its compressed forms when large enough to get them', () => {
    const answer = encodeAnswer(large);
    expect(answer).toEqual({ identity: Buffer.from(large) });
    expect(encodedSize(answer)).toBe(Math.ceil(answer.identity.length * 1.25));
    expect(Buffer.byteLength(small)).toBeLessThan(compressionThreshold);
    expect(encodedSize(encodeAnswer(small))).toBe(Buffer.byteLength(small));
  });
});

describe('sendEncoded', () => {
  let server: Server;
  let port: number;
  const answers = new Map<string, EncodedAnswer>();

  beforeAll(async () => {
    answers.set('/large', encodeAnswer(large));
    answers.set('/plain-client', encodeAnswer(large));
    answers.set('/small', encodeAnswer(small));
    const app = express();
    app.get(['/large', '/plain-client', '/small'], (req, res) => sendEncoded(req, res, 200, answers.get(req.path)!));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The raw answer: headers and bytes as sent, nothing decoded. */
  function get(path: string, acceptEncoding?: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port, path, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        },
      );
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

  test('each compressed form is made once, when a client first accepts it, and none for clients that accept none', async () => {
    await get('/plain-client');
    await get('/plain-client', 'identity');
    expect(answers.get('/plain-client')!.compressed).toBeUndefined();
    const first = await get('/plain-client', 'br');
    const made = answers.get('/plain-client')!.compressed!;
    expect(Object.keys(made)).toEqual(['br']);
    const kept = made.br;
    const second = await get('/plain-client', 'br');
    expect(made.br).toBe(kept);
    expect(second.body.equals(first.body)).toBe(true);
    expect(brotliDecompressSync(second.body).toString()).toBe(large);
  });
});
