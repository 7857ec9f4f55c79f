// The baseline of bench/chains.ts: a bare Express route answering a fixed JSON body, i.e. what
// the same HTTP stack costs without authentication, rate limiting, validation and gRPC.
import { readFileSync } from 'node:fs';
import express from 'express';

const [bodyFile, port] = process.argv.slice(2);
const body = JSON.parse(readFileSync(bodyFile!, 'utf8'));
const app = express();
app.get('/v1/chains/', (_req, res) => {
  res.json(body);
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
