import { figuresOf, historyOrder, readBlockTransactions, replay, walletSteps, type Figures } from '../../pnl/test/independent-fifo.js';
import { createGrpcClient } from '../src/grpc/index.js';
import { Network, type RequestContext } from '../src/generated/proto/common.js';
import { ReferenceDataClient } from '../src/generated/proto/reference_data.js';
import { createTokenDirectory, pricesAt } from '../src/reference-data/index.js';
import { eventually } from '../src/testing/index.js';
import { api, chainClient, type ChainTraffic } from './chain-traffic.js';
import type { ProcessStack } from './process-stack.js';

// After a fault, what the API values for the traffic's wallets, held against the chain: each
// wallet's PnL against the independent FIFO (pnl/test/independent-fifo.ts) over the transfers'
// blocks as the chain's blocks, receipts and traces show them, and every point of its hour chart
// against its balance read at the newest block at or before the point's time. Both priced by
// reference-data's GetPrices at the time in question, as the pnl and chart services are.

const context: RequestContext = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };
const native = { chainId: 'ethereum', address: '' };
/** 1e-9 relative with an absolute floor: both sides sum the same floats in other orders. */
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) + 1e-9;

async function withReferenceData<T>(stack: ProcessStack, use: (client: ReferenceDataClient) => Promise<T>): Promise<T> {
  const client = createGrpcClient(ReferenceDataClient, stack.grpcAddress('reference-data'));
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Each wallet's figures through the API equal the independent FIFO's over the chain's record of its transfers. */
export async function expectPnlAgrees(stack: ProcessStack, traffic: ChainTraffic): Promise<void> {
  const receipts = await Promise.all(traffic.sent.map(({ hash }) => chainClient.getTransactionReceipt({ hash })));
  const blocks = [...new Set(receipts.map((receipt) => Number(receipt.blockNumber)))].sort((a, b) => a - b);
  const transactions = (await readBlockTransactions(chainClient, native.chainId, blocks)).sort(historyOrder);
  await withReferenceData(stack, async (referenceData) => {
    const eth = (await createTokenDirectory(referenceData).load([native], context)).info(native.chainId, native.address)!;
    const times = [...new Set(transactions.map((transaction) => transaction.timestamp))];
    const facts = (prices: (number | undefined)[]) => ({
      counting: (chainId: string, address: string) =>
        chainId === native.chainId && address === native.address ? { key: eth.fungibleId, decimals: eth.decimals } : undefined,
      priceAt: (_chainId: string, _address: string, timestamp: number) => prices[times.indexOf(timestamp)],
    });
    for (const address of traffic.recipients) {
      const steps = walletSteps(address, transactions);
      expect(steps.length).toBe(traffic.sent.filter(({ to }) => to === address).length);
      // A restarted reference-data answers from what it stored until it has folded the pool events again.
      await eventually(async () => {
        // Timestamp 0 asks for the price now, which values open lots.
        const prices = await pricesAt(referenceData, {
          context,
          currency: 'usd',
          queries: [...times, 0].map((time) => ({ token: native, timestamp: String(time) })),
        });
        expect(prices.filter((price) => price === undefined)).toEqual([]);
        const expected = figuresOf([...replay(steps, facts(prices)).values()], () => prices.at(-1)!);
        const { status, body } = await api<{ data: { attributes: Record<string, number> } }>(stack, `/v1/wallets/${address}/pnl?filter[chain_ids]=ethereum`);
        const served = body.data?.attributes ?? {};
        const differing = (Object.keys(expected) as (keyof Figures)[]).filter((name) => !close(served[snakeCase(name)] ?? NaN, expected[name]));
        expect({ address, status, differing: differing.map((name) => ({ name, served: served[snakeCase(name)], fifo: expected[name] })) }).toEqual({
          address,
          status: 200,
          differing: [],
        });
      }, 90_000);
    }
  });
}

/** Every point of each wallet's hour chart is its balance at the newest block at or before the point's time, times the price then. */
export async function expectChartPointsAgree(stack: ProcessStack, traffic: ChainTraffic): Promise<void> {
  const receipts = await Promise.all(traffic.sent.map(({ hash }) => chainClient.getTransactionReceipt({ hash })));
  // Before the traffic's first block the fresh wallets held nothing.
  const first = receipts.reduce((lowest, receipt) => (receipt.blockNumber < lowest ? receipt.blockNumber : lowest), receipts[0]!.blockNumber) - 1n;
  const head = await chainClient.getBlockNumber();
  const numbers = Array.from({ length: Number(head - first) + 1 }, (_, offset) => first + BigInt(offset));
  const times: number[] = [];
  for (let start = 0; start < numbers.length; start += 32) {
    for (const block of await Promise.all(numbers.slice(start, start + 32).map((blockNumber) => chainClient.getBlock({ blockNumber }))))
      times.push(Number(block.timestamp));
  }
  /** The newest block at or before `time`; undefined before the traffic's first block. */
  const blockAt = (time: number): bigint | undefined => {
    const index = times.findLastIndex((blockTime) => blockTime <= time);
    return index === -1 ? undefined : numbers[index];
  };
  await withReferenceData(stack, async (referenceData) => {
    for (const address of traffic.recipients) {
      const balances = new Map<bigint, Promise<bigint>>();
      const balanceAt = (blockNumber: bigint) =>
        balances.get(blockNumber) ?? balances.set(blockNumber, chainClient.getBalance({ address, blockNumber })).get(blockNumber)!;
      await eventually(async () => {
        const { status, body } = await api<{ data: { attributes: { points: [number, number][] } } }>(
          stack,
          `/v1/wallets/${address}/charts/hour?filter[chain_ids]=ethereum`,
        );
        expect(status).toBe(200);
        const points = body.data.attributes.points;
        const prices = await pricesAt(referenceData, {
          context,
          currency: 'usd',
          queries: points.map(([time]) => ({ token: native, timestamp: String(time) })),
        });
        const differing: object[] = [];
        for (const [index, [time, value]] of points.entries()) {
          const block = blockAt(time);
          const held = block === undefined ? 0n : await balanceAt(block);
          const expected = (Number(held) / 1e18) * (prices[index] ?? 0);
          if (!close(value, expected)) differing.push({ time, served: value, chain: expected, block: block?.toString() });
        }
        expect({ address, differing: differing.slice(0, 5) }).toEqual({ address, differing: [] });
        // The chart covers the traffic, priced: a restarted reference-data prices again once it has folded the pool events.
        expect(points.filter(([, value]) => value > 0).length).toBeGreaterThan(0);
      }, 90_000);
    }
  });
}
