import { credentials, makeGenericClientConstructor, status, type ServiceError } from '@grpc/grpc-js';
import { createGrpcClient, startGrpcServer, type CallContext, type ServiceRegistration } from '../src/grpc/index.js';
import { shutdownService } from '../src/service/index.js';
import { checkHealth, jsonServiceDefinition, testLogger } from '../src/testing/index.js';

// A test-only service with a handler that takes as long as the request says, built without a
// .proto so the lifecycle is tested independently of the generated contracts.
const slowDefinition = jsonServiceDefinition('test.Slow', { sleep: {} });
const SlowClient = makeGenericClientConstructor(slowDefinition, 'Slow');

function slowService(): ServiceRegistration {
  return {
    name: 'test.Slow',
    definition: slowDefinition,
    implementation: {
      async sleep(request: { ms: number; fail?: string; padding?: number }, call: CallContext) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, request.ms);
          call.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('cancelled'));
          });
        });
        if (request.fail) throw new Error(request.fail);
        return { slept: request.ms, ...(request.padding ? { padding: 'x'.repeat(request.padding) } : {}) };
      },
    },
  };
}

function call(client: InstanceType<typeof SlowClient>, request: object): Promise<unknown> {
  return new Promise((resolve, reject) =>
    (client as unknown as { sleep: (...args: unknown[]) => void }).sleep(request, (error: ServiceError | null, response: unknown) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

describe('gRPC server lifecycle', () => {
  test('serves the standard health service for the server and each registered service', async () => {
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [slowService()], logger: testLogger });
    try {
      expect(await checkHealth(`127.0.0.1:${server.port}`, '')).toBe('SERVING');
      expect(await checkHealth(`127.0.0.1:${server.port}`, 'test.Slow')).toBe('SERVING');
    } finally {
      await server.shutdown(1_000);
    }
  });

  test("the platform's clients take answers beyond gRPC's 4 MB default (a page of busy wallets' transactions)", async () => {
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [slowService()], logger: testLogger });
    const platformClient = createGrpcClient(SlowClient, `127.0.0.1:${server.port}`);
    const defaultClient = new SlowClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    try {
      const padding = 6 * 1024 * 1024;
      expect(((await call(platformClient, { ms: 1, padding })) as { padding: string }).padding).toHaveLength(padding);
      await expect(call(defaultClient, { ms: 1, padding })).rejects.toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    } finally {
      platformClient.close();
      defaultClient.close();
      await server.shutdown(1_000);
    }
  });

  test('unexpected handler errors reach the client as INTERNAL without their message', async () => {
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [slowService()], logger: testLogger });
    const client = new SlowClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    try {
      await expect(call(client, { ms: 1, fail: 'secret database password in message' })).rejects.toMatchObject({
        code: status.INTERNAL,
        details: 'internal error',
      });
    } finally {
      client.close();
      await server.shutdown(1_000);
    }
  });

  test('shutdown finishes in-flight calls, refuses new ones, then runs closers in order, within the budget', async () => {
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [slowService()], logger: testLogger });
    const client = new SlowClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    await call(client, { ms: 1 });
    const inFlight = call(client, { ms: 1_500 });
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closed: string[] = [];
    const started = Date.now();
    const report = shutdownService(
      {
        grpc: server,
        closers: [
          { name: 'consumer', close: async () => void closed.push('consumer') },
          { name: 'pool', close: async () => void closed.push('pool') },
        ],
      },
      10_000,
      testLogger,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const late = new SlowClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    await expect(call(late, { ms: 1 })).rejects.toMatchObject({ code: status.UNAVAILABLE });
    late.close();

    await expect(inFlight).resolves.toEqual({ slept: 1_500 });
    const result = await report;
    expect(result).toMatchObject({ completed: true, failures: [] });
    expect(closed).toEqual(['consumer', 'pool']);
    expect(Date.now() - started).toBeLessThan(10_000);
    client.close();
  });

  test('a call that outlives the budget is cancelled and a hanging closer is reported', async () => {
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [slowService()], logger: testLogger });
    const client = new SlowClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const stuck = call(client, { ms: 60_000 });
    stuck.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const result = await shutdownService({ grpc: server, closers: [{ name: 'hangs', close: () => new Promise(() => undefined) }] }, 1_500, testLogger);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(result.completed).toBe(false);
    expect(result.failures).toEqual(['hangs: timed out']);
    await expect(stuck).rejects.toMatchObject({ code: expect.any(Number) });
    client.close();
  });
});
