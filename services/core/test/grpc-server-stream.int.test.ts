import { makeGenericClientConstructor, status, type Client } from '@grpc/grpc-js';
import { createGrpcClient, GrpcError, serverStream, startGrpcServer, type CallContext, type GrpcServer } from '../src/grpc/index.js';
import { jsonServiceDefinition, testLogger } from '../src/testing/index.js';

// A server-streaming method through the shared server and client helpers: messages in order
// past the client's flow-control window, errors with their codes, and a reader that stops early
// ending the handler's iterator on the server. Built without a .proto, as the lifecycle test is.
const definition = jsonServiceDefinition('test.Counter', { count: { responseStream: true } });
interface CountRequest {
  to: number;
  /** Characters of padding per message: large messages fill the window and make the server wait. */
  padding?: number;
  failAt?: number;
  failWith?: 'grpc' | 'crash';
}
interface Counted {
  n: number;
  padding: string;
}
type CounterClient = Client & { count(request: CountRequest, metadata: never, options: never): never };
const CounterClient = makeGenericClientConstructor(definition, 'Counter') as unknown as new (...args: never[]) => CounterClient;

let server: GrpcServer;
let client: CounterClient;
const finished: { produced: number; aborted: boolean }[] = [];

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: [
      {
        name: 'test.Counter',
        definition,
        implementation: {
          async *count(request: CountRequest, call: CallContext) {
            let produced = 0;
            try {
              for (let n = 0; n < request.to; n += 1) {
                if (n === request.failAt)
                  throw request.failWith === 'grpc' ? new GrpcError(status.FAILED_PRECONDITION, `stopped at ${n}`) : new Error('secret internals');
                produced += 1;
                yield { n, padding: 'x'.repeat(request.padding ?? 0) };
              }
            } finally {
              finished.push({ produced, aborted: call.signal.aborted });
            }
          },
        },
      },
    ],
  });
  client = createGrpcClient(CounterClient as never, `127.0.0.1:${server.port}`);
});

afterAll(async () => {
  client.close();
  await server.shutdown(1_000);
});

const read = async (request: CountRequest, stopAfter = Infinity) => {
  const seen: number[] = [];
  for await (const message of serverStream(client, client.count as never, request) as AsyncGenerator<Counted>) {
    seen.push(message.n);
    if (seen.length >= stopAfter) break;
  }
  return seen;
};

test('every message arrives in order, past the flow-control window, and the handler ends', async () => {
  finished.length = 0;
  // 300 messages of 64 KiB: about 20 MB, beyond the client's window (createGrpcClient: the largest message).
  expect(await read({ to: 300, padding: 65_536 })).toEqual(Array.from({ length: 300 }, (_, n) => n));
  expect(finished).toEqual([{ produced: 300, aborted: false }]);
  expect(await read({ to: 0 })).toEqual([]);
});

test('errors reach the reader with their code; a crash is INTERNAL without its message', async () => {
  await expect(read({ to: 10, failAt: 4, failWith: 'grpc' })).rejects.toMatchObject({ code: status.FAILED_PRECONDITION, details: 'stopped at 4' });
  await expect(read({ to: 10, failAt: 4, failWith: 'crash' })).rejects.toMatchObject({ code: status.INTERNAL, details: 'internal error' });
});

test('a reader that stops early cancels the call, and the handler stops producing', async () => {
  finished.length = 0;
  expect(await read({ to: 100_000, padding: 65_536 }, 3)).toEqual([0, 1, 2]);
  // The server learns of the cancellation asynchronously.
  for (let waited = 0; finished.length === 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(finished).toHaveLength(1);
  expect(finished[0]!.aborted).toBe(true);
  expect(finished[0]!.produced).toBeLessThan(1_000);
});
