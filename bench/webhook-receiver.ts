// A fast webhook receiver for bench/webhook-throughput.ts, in a process of its own so it does not
// share an event loop with what is measured: reads each request to the end and answers 204 at
// once, over keep-alive connections. Tells its parent the port, and answers "count" messages with
// how many requests it has answered.
//   webhook-receiver.ts (forked)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let answered = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    answered += 1;
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'count') process.send?.({ answered });
  if (message === 'stop') server.close(() => process.exit(0));
});
