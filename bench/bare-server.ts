// The baseline of the endpoint benchmarks: a bare Express route answering a fixed JSON body, i.e.
// what the same HTTP stack costs without authentication, rate limiting, validation and gRPC.
//   bare-server.ts <body.json> <port> [route]
import { readFileSync } from 'node:fs';
import express from 'express';

const [bodyFile, port, route = '/v1/chains/'] = process.argv.slice(2);
// The same bytes every time, serialized once: the cheapest an Express route can answer them.
const body = readFileSync(bodyFile!);
const app = express();
app.get(route, (_req, res) => {
  res.type('json').send(body);
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
