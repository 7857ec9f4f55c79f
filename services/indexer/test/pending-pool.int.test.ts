import { testLogger } from '@wallet-api/core/testing';
import { AssetKind } from '@wallet-api/core/proto/events';
import { createPublicClient, decodeFunctionData, encodeFunctionData, erc20Abi, http, parseEventLogs, type Address, type Hash, type Hex } from 'viem';
import type { TokensManifest } from '../../devnet/src/protocols/tokens/index.js';
import { readManifest, type ChainWorld } from '../../devnet/src/manifest/index.js';
import { startForkAnvil, type OwnAnvil } from '../../reference-data/test/own-anvil.js';
import { createPendingPool, type PendingPool } from '../src/pending/pending-pool.js';
import { createPendingSnapshotSource, pendingActionId } from '../src/pending/pending-snapshot-source.js';
import { startReferenceDataFixture, type RunningReferenceData } from './reference-data-fixture.js';

// The indexer's pending pool on a fork of the world's ethereum anvil with automine off: a world
// wallet's USDC transfer sits in the node's pool, and what the pool decodes is held against the
// transaction's calldata and, once mined, its receipt, both read with viem.

let world: ChainWorld;
let fork: OwnAnvil;
let referenceData: RunningReferenceData;
let pool: PendingPool;
let usdc: Address;
let sender: Address;
let recipient: Address;

const rpc = (method: string, params: unknown[] = []) => fork.client.request({ method: method as never, params: params as never });

/** Sends `amount` USDC from the sender (impersonated) into the pool; anvil leaves it unmined. */
async function sendTransfer(amount: bigint): Promise<Hash> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
  return (await rpc('eth_sendTransaction', [{ from: sender, to: usdc, data }])) as Hash;
}

beforeAll(async () => {
  world = (await readManifest()).chains.find((chain) => chain.id === 'ethereum')!;
  fork = await startForkAnvil(world.rpcUrl);
  await rpc('evm_setAutomine', [false]);
  usdc = (world.protocols.tokens as TokensManifest).tokens.find((token) => token.symbol === 'USDC')!.address as Address;
  // Any world EOA holding USDC at the fork's head sends; another EOA receives.
  const eoas = world.wallets.filter((wallet) => wallet.kind === 'eoa').map((wallet) => wallet.address as Address);
  const balances = await Promise.all(eoas.map((address) => fork.client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })));
  sender = eoas[balances.findIndex((balance) => balance > 1_000_000n)]!;
  recipient = eoas.find((address) => address !== sender)!;
  await rpc('anvil_impersonateAccount', [sender]);
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
      transfers: [{ asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc.toLowerCase(), tokenId: '' }, amount: value.toString(), sender: sender.toLowerCase(), recipient: to.toLowerCase() }],
    });
    expect(transaction.wallets).toEqual(expect.arrayContaining([sender.toLowerCase(), recipient.toLowerCase()]));

    // The source serves it to both wallets, each with its own view, under a stable action id.
    const source = createPendingSnapshotSource([pool], referenceData.client);
    const view = async (address: Address) => (await source.list({ organizationId: '', address: address.toLowerCase(), chainIds: ['ethereum'] }))[0];
    const [sent, received] = await Promise.all([view(sender), view(recipient)]);
    expect(sent).toMatchObject({ actionId: pendingActionId('ethereum', hash.toLowerCase()), availableAtMs: String(firstSeenMs), blockNumber: '0', operationType: 'send', transfers: [{ direction: 'out', amount: amount.toString() }] });
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
    const headPrice = BigInt(pooled.maxFeePerGas) < head.baseFeePerGas! + BigInt(pooled.maxPriorityFeePerGas) ? BigInt(pooled.maxFeePerGas) : head.baseFeePerGas! + BigInt(pooled.maxPriorityFeePerGas);
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
    const solana = createPendingPool({ chainId: 'solana', client: createPublicClient({ transport: http(solanaRpc, { retryCount: 0 }) }), pollIntervalMs: 10, logger: testLogger });
    expect(await solana.poll()).toBe('unsupported');
    // run() returns at once instead of polling on.
    await solana.run(new AbortController().signal);
    expect(solana.transactions()).toEqual([]);
  });
});
