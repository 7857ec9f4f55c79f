import { testLogger } from '@wallet-api/core/testing';
import { AssetKind } from '@wallet-api/core/proto/events';
import { createPublicClient, decodeFunctionData, erc20Abi, http, parseEventLogs, type Address, type Hash, type Hex } from 'viem';
import type { OwnAnvil } from '../../reference-data/test/own-anvil.js';
import { startPendingFork, type PendingFork } from './pending-fork.js';
import { createPendingPool, type PendingPool } from '../src/pending/pending-pool.js';
import { createPendingSnapshotSource, pendingActionId } from '../src/pending/pending-snapshot-source.js';
import { startReferenceDataFixture, type RunningReferenceData } from './reference-data-fixture.js';

// The indexer's pending pool on a fork of the world's ethereum anvil with automine off: a world
// wallet's USDC transfer sits in the node's pool, and what the pool decodes is held against the
// transaction's calldata and, once mined, its receipt, both read with viem.

let fork: OwnAnvil;
let referenceData: RunningReferenceData;
let pool: PendingPool;
let usdc: Address;
let sender: Address;
let recipient: Address;

let chain: PendingFork;

const rpc = (method: string, params: unknown[] = []) => chain.rpc(method, params);

const sendTransfer = (amount: bigint): Promise<Hash> => chain.sendTransfer(recipient, amount);

beforeAll(async () => {
  chain = await startPendingFork();
  ({ fork, usdc, sender } = chain);
  recipient = chain.others[0]!;
  referenceData = await startReferenceDataFixture({ tokens: [], dapps: [] });
  pool = createPendingPool({ chainId: 'ethereum', client: fork.client, pollIntervalMs: 50, logger: testLogger });
}, 120_000);

afterAll(async () => {
  await referenceData?.stop();
  await fork?.stop();
});

describe("the indexer's pending pool on a fork with automine off", () => {
  test('an idle pool answers nothing', async () => {
    expect(await pool.poll()).toBe('polled');
    expect(pool.transactions()).toEqual([]);
  });

  test('a pending transfer is decoded like a mined one, keeps its first-seen time, and leaves when mined', async () => {
    const amount = 1_234_567n;
    const head = await fork.client.getBlock({ blockTag: 'latest' });
    const hash = await sendTransfer(amount);
    const before = Date.now();
    await pool.poll();
    const [pending] = pool.transactions();
    expect(pending?.transaction.hash).toBe(hash.toLowerCase());
    const { transaction, firstSeenMs } = pending!;

    // What the calldata says, read with viem.
    const pooled = (await rpc('eth_getTransactionByHash', [hash])) as { input: Hex; maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };
    const call = decodeFunctionData({ abi: erc20Abi, data: pooled.input });
    expect(call.functionName).toBe('transfer');
    const [to, value] = call.args as [Address, bigint];
    expect(transaction).toMatchObject({
      chainId: 'ethereum',
      blockNumber: '0',
      blockHash: '',
      blockTimestamp: String(Math.floor(firstSeenMs / 1000)),
      from: sender.toLowerCase(),
      to: usdc.toLowerCase(),
      failed: false,
      methodId: '0xa9059cbb',
      transfers: [
        {
          asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc.toLowerCase(), tokenId: '' },
          amount: value.toString(),
          sender: sender.toLowerCase(),
          recipient: to.toLowerCase(),
        },
      ],
    });
    expect(transaction.wallets).toEqual(expect.arrayContaining([sender.toLowerCase(), recipient.toLowerCase()]));

    // The source serves it to both wallets, each with its own view, under a stable action id.
    const source = createPendingSnapshotSource([pool], referenceData.client);
    const view = async (address: Address) => (await source.list({ organizationId: '', address: address.toLowerCase(), chainIds: ['ethereum'] }))[0];
    const [sent, received] = await Promise.all([view(sender), view(recipient)]);
    expect(sent).toMatchObject({
      actionId: pendingActionId('ethereum', hash.toLowerCase()),
      availableAtMs: String(firstSeenMs),
      blockNumber: '0',
      operationType: 'send',
      transfers: [{ direction: 'out', amount: amount.toString() }],
    });
    expect(received).toMatchObject({ actionId: sent!.actionId, operationType: 'receive', transfers: [{ direction: 'in', amount: amount.toString() }] });
    expect(await source.list({ organizationId: '', address: recipient.toLowerCase(), chainIds: ['base'] })).toEqual([]);

    // Still pending at the next poll: the same first-seen time.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await pool.poll();
    expect(pool.transactions().map((entry) => entry.firstSeenMs)).toEqual([firstSeenMs]);
    expect(firstSeenMs).toBeLessThanOrEqual(Date.now());
    expect(firstSeenMs).toBeGreaterThanOrEqual(before - 5_000);

    await rpc('evm_mine');
    const receipt = await fork.client.getTransactionReceipt({ hash });
    // The simulation's transfer is the mined log's; its fee the receipt's gas at the head's effective price.
    const [log] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transaction.transfers[0]!.amount).toBe(log!.args.value.toString());
    const headPrice =
      BigInt(pooled.maxFeePerGas) < head.baseFeePerGas! + BigInt(pooled.maxPriorityFeePerGas)
        ? BigInt(pooled.maxFeePerGas)
        : head.baseFeePerGas! + BigInt(pooled.maxPriorityFeePerGas);
    expect(transaction.fee).toBe((receipt.gasUsed * headPrice).toString());
    await pool.poll();
    expect(pool.transactions()).toEqual([]);
  });

  test('a dropped transaction leaves', async () => {
    const hash = await sendTransfer(5n);
    await pool.poll();
    expect(pool.transactions().map((entry) => entry.transaction.hash)).toEqual([hash.toLowerCase()]);
    await rpc('anvil_dropTransaction', [hash]);
    await pool.poll();
    expect(pool.transactions()).toEqual([]);
    expect(await fork.client.getTransactionReceipt({ hash }).catch(() => undefined)).toBeUndefined();
  });

  test('a node without a pending pool (Solana RPC answers method not found) has none, and is asked no more', async () => {
    const solanaRpc = 'http://127.0.0.1:18899';
    const solana = createPendingPool({
      chainId: 'solana',
      client: createPublicClient({ transport: http(solanaRpc, { retryCount: 0 }) }),
      pollIntervalMs: 10,
      logger: testLogger,
    });
    expect(await solana.poll()).toBe('unsupported');
    // run() returns at once instead of polling on.
    await solana.run(new AbortController().signal);
    expect(solana.transactions()).toEqual([]);
  });
});
