import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, testLogger } from '@wallet-api/core/testing';
import { createPublicClient, http, type PublicClient } from 'viem';
import { createGasTracker, type GasTracker } from '../src/gas/gas-tracker.js';
import type { GasSnapshot } from '../src/gas/gas-snapshot.js';
import { startGasAnvil, type GasAnvil } from './gas-anvil.js';
import { expectedClassic, expectedEip1559 } from './gas-truth.js';

const gwei = 1_000_000_000n;

function served(snapshot: GasSnapshot | undefined) {
  if (snapshot?.type !== 'eip1559') throw new Error(`expected an eip1559 snapshot, got ${snapshot?.type}`);
  const pick = (speed: keyof typeof snapshot.speeds) => ({ priorityFee: snapshot.speeds[speed].priorityFee, maxFee: snapshot.speeds[speed].maxFee });
  return { baseFee: snapshot.baseFee, slow: pick('slow'), standard: pick('standard'), fast: pick('fast'), rapid: pick('rapid') };
}

/** A client recording the JSON-RPC methods it sends, to see what a poll costs. */
function countingClient(rpcUrl: string, methods: string[]): PublicClient {
  return createPublicClient({
    transport: http(rpcUrl, {
      retryCount: 0,
      async onFetchRequest(request) {
        const body = JSON.parse(await request.clone().text()) as { method: string } | { method: string }[];
        for (const call of Array.isArray(body) ? body : [body]) methods.push(call.method);
      },
    }),
  });
}

/** A JSON-RPC proxy in front of anvil that answers 503 while `failing`: an RPC outage on demand. */
async function startFlakyProxy(target: string): Promise<{ url: string; failing: boolean; close(): Promise<void> }> {
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (state.failing) {
        res.writeHead(503).end('unavailable');
        return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

describe("gas tracker on a London chain of the test's own", () => {
  let anvil: GasAnvil;
  const methods: string[] = [];
  let tracker: GasTracker;

  beforeAll(async () => {
    anvil = await startGasAnvil();
    // Blocks of varied tips, one of them empty, so that medians and percentiles have something to pick.
    await anvil.mineBlockWith([{ tip: 1n * gwei }, { tip: 2n * gwei }, { tip: 3n * gwei }, { tip: 10n * gwei }]);
    await anvil.mineBlockWith([]);
    await anvil.mineBlockWith([{ tip: 5n * gwei }, { tip: 6n * gwei }]);
    await anvil.mineBlockWith([{ tip: 2n * gwei }, { tip: 40n * gwei }, { tip: 7n * gwei }]);
    tracker = createGasTracker({ chainId: 'own', client: countingClient(anvil.rpcUrl, methods), intervalMs: 100, logger: testLogger });
  }, 60_000);

  afterAll(async () => {
    await tracker.stop();
    await anvil.stop();
  });

  test('the snapshot equals eth_feeHistory read at the block it says it is from', async () => {
    await tracker.poll();
    const head = await anvil.client.getBlockNumber({ cacheTime: 0 });
    const snapshot = tracker.snapshot();
    expect(snapshot?.blockNumber).toBe(head);
    expect(snapshot?.chainId).toBe('own');
    expect(served(snapshot)).toEqual(await expectedEip1559(anvil.client, head));
    // Tips were paid: the speeds are not all zero and never cross.
    const { slow, rapid } = served(snapshot);
    expect(rapid.priorityFee).toBeGreaterThan(0n);
    expect(rapid.priorityFee).toBeGreaterThanOrEqual(slow.priorityFee);
    const speeds = snapshot!.type === 'eip1559' ? snapshot!.speeds : undefined;
    expect(speeds!.rapid.estimationSeconds).toBeGreaterThan(0);
    expect(speeds!.slow.estimationSeconds).toBeGreaterThan(speeds!.rapid.estimationSeconds);
  });

  test('idle chain: a poll only asks for the block number, and the snapshot stays', async () => {
    await tracker.poll();
    const before = tracker.snapshot();
    methods.length = 0;
    for (let poll = 0; poll < 3; poll++) await tracker.poll();
    expect(methods).toEqual(['eth_blockNumber', 'eth_blockNumber', 'eth_blockNumber']);
    expect(tracker.snapshot()).toBe(before);
  });

  test('a new block: one block read and one eth_feeHistory, and the snapshot follows it', async () => {
    const before = tracker.snapshot()!;
    const mined = await anvil.mineBlockWith([{ tip: 50n * gwei }, { tip: 60n * gwei }, { tip: 70n * gwei }]);
    methods.length = 0;
    await tracker.poll();
    expect(methods).toEqual(['eth_blockNumber', 'eth_getBlockByNumber', 'eth_feeHistory']);
    const after = tracker.snapshot();
    expect(after?.blockNumber).toBe(mined);
    expect(after?.blockNumber).toBe(before.blockNumber + 1n);
    expect(served(after)).toEqual(await expectedEip1559(anvil.client, mined));
    expect(served(after)).not.toEqual(served(before));
  });

  test('started, it polls by itself: a block mined later is picked up', async () => {
    tracker.start();
    const mined = await anvil.mineBlockWith([{ tip: 3n * gwei }]);
    await eventually(() => expect(tracker.snapshot()?.blockNumber).toBe(mined), 10_000);
    expect(served(tracker.snapshot())).toEqual(await expectedEip1559(anvil.client, mined));
    await tracker.stop();
  });
});

describe('gas tracker through an RPC outage', () => {
  let anvil: GasAnvil;
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>>;

  beforeAll(async () => {
    anvil = await startGasAnvil();
    await anvil.mineBlockWith([{ tip: 2n * gwei }]);
    proxy = await startFlakyProxy(anvil.rpcUrl);
  }, 60_000);

  afterAll(async () => {
    await proxy.close();
    await anvil.stop();
  });

  test('a failed poll is logged, keeps the last snapshot, and the next poll after recovery catches up', async () => {
    // The tracker's own logger, its warnings kept to be read.
    const warnings: string[] = [];
    const logger = testLogger.child({ test: 'gas outage' });
    logger.warn = ((_fields: unknown, message: string) => void warnings.push(message)) as typeof logger.warn;
    const tracker = createGasTracker({
      chainId: 'flaky',
      client: createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }),
      intervalMs: 100,
      logger,
    });
    proxy.failing = true;
    await expect(tracker.poll()).resolves.toBeUndefined();
    expect(tracker.snapshot()).toBeUndefined();
    proxy.failing = false;
    await tracker.poll();
    const first = tracker.snapshot()!;
    expect(first.blockNumber).toBe(await anvil.client.getBlockNumber({ cacheTime: 0 }));

    proxy.failing = true;
    const mined = await anvil.mineBlockWith([{ tip: 9n * gwei }]);
    await tracker.poll();
    expect(tracker.snapshot()).toBe(first);
    expect(warnings.some((line) => line.includes('gas prices: reading the chain failed'))).toBe(true);

    proxy.failing = false;
    await tracker.poll();
    expect(tracker.snapshot()?.blockNumber).toBe(mined);
    expect(served(tracker.snapshot())).toEqual(await expectedEip1559(anvil.client, mined));
  });
});

describe("gas tracker on a pre-London (berlin) chain of the test's own", () => {
  let anvil: GasAnvil;

  beforeAll(async () => {
    anvil = await startGasAnvil({ hardfork: 'berlin' });
  }, 60_000);

  afterAll(async () => {
    await anvil.stop();
  });

  test('blocks without a base fee give classic prices from their transactions, following new blocks', async () => {
    const tracker = createGasTracker({ chainId: 'berlin', client: anvil.client, intervalMs: 100, logger: testLogger });
    // No transaction yet: the node's eth_gasPrice for every speed.
    await tracker.poll();
    const gasPrice = await anvil.client.getGasPrice();
    expect(tracker.snapshot()).toMatchObject({ type: 'classic', prices: { slow: gasPrice, standard: gasPrice, fast: gasPrice, rapid: gasPrice } });

    await anvil.mineBlockWith([{ gasPrice: 2n * gwei }, { gasPrice: 3n * gwei }, { gasPrice: 5n * gwei }, { gasPrice: 8n * gwei }]);
    const head = await anvil.mineBlockWith([{ gasPrice: 13n * gwei }, { gasPrice: 21n * gwei }]);
    expect((await anvil.client.getBlock({ blockNumber: head })).baseFeePerGas).toBeNull();
    await tracker.poll();
    const snapshot = tracker.snapshot();
    expect(snapshot?.blockNumber).toBe(head);
    expect(snapshot?.type === 'classic' && snapshot.prices).toEqual(await expectedClassic(anvil.client, head));
    expect(snapshot?.type === 'classic' && snapshot.prices.rapid).toBe(21n * gwei);
  });
});
