// The baseline of the endpoint benchmarks: a bare Express route answering a fixed JSON body, i.e.
// what the same HTTP stack costs without authentication, rate limiting, validation and gRPC.
// With `encoded`, the body is kept in the forms the gateway's answer cache keeps (plain, brotli,
// gzip) and sent as the client's Accept-Encoding asks, like a cached gateway answer.
//   bare-server.ts <body.json> <port> [route] [encoded]
import { readFileSync } from 'node:fs';
import express from 'express';
import { encodeAnswer, sendEncoded } from '../services/gateway/src/cache/encoded-answer.js';

const [bodyFile, port, route = '/v1/chains/', mode] = process.argv.slice(2);
// The same bytes every time, serialized once: the cheapest an Express route can answer them.
const body = readFileSync(bodyFile!);
const encoded = mode === 'encoded' ? await encodeAnswer(body.toString()) : undefined;
const app = express();
app.get(route, (req, res) => {
  if (encoded) sendEncoded(req, res, 200, encoded);
  else res.type('json').send(body);
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
