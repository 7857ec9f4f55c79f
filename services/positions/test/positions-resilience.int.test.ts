import { spawn, type ChildProcess } from 'node:child_process';
import { PositionsFilter, type Position } from '@wallet-api/core/proto/positions';
import { eventually } from '@wallet-api/core/testing';
import { createPublicClient, encodeFunctionData, http, parseAbi, parseEther, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { readWalletTruth } from '../../../devnet/src/truth/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { protocolHoldings, servedHoldings, servedWalletHoldings, walletHoldings } from './chain-truth.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from './setup-positions.js';

// The positions service when the chain and the service misbehave: a reorg that orphans blocks
// whose balance changes were already applied and whose protocol activity refreshed snapshots, a
// consumer killed with SIGKILL in the middle of the stream and started again, and a restarted
// service. Balances and positions are held against the chain each time.
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const consumerFixture = new URL('./fixtures/consume-positions.ts', import.meta.url).pathname;
const chainId = 'ethereum';
const erc20Abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

let world: ChainWorld;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  world = (await readManifest()).chains.find((chain) => chain.id === chainId)!;
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harnessFor(rpcUrls: Record<string, string> = {}): Promise<PositionsHarness> {
  const harness = await startPositionsHarness({ rpcUrls });
  cleanups.push(() => harness.close());
  return harness;
}

/** The wallet's balances and protocol positions equal the chain's at its head, to the base unit. */
async function expectChainTruth(service: PositionsService, client: PublicClient, wallets: readonly Address[], options: { sync: boolean }): Promise<void> {
  const head = await client.getBlockNumber();
  for (const wallet of wallets) {
    const truth = await readWalletTruth(client, world, wallet, head);
    const simple = await service.list({ address: wallet, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE });
    expect({ wallet, held: servedWalletHoldings(simple) }).toEqual({ wallet, held: walletHoldings(truth) });
    const complex = await service.list({ address: wallet, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX, sync: options.sync });
    expect({ wallet, positions: servedHoldings(complex) }).toEqual({ wallet, positions: protocolHoldings(truth, world) });
  }
}

const rowOf = (positions: readonly Position[], asset: string) =>
  positions.find((position) => position.positionType === 'wallet' && position.token!.address === asset);

test('after a reorg, balances and protocol positions equal the new branch: orphaned changes are taken back, stale snapshots re-read', async () => {
  const chain: OwnChain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  cleanups.push(() => chain.stop());
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  const harness = await harnessFor({ [chainId]: chain.rpcUrl });
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await harness.startConsumers();
  const service = await harness.startService();

  // A wallet with Uniswap V2 liquidity gives half its LP tokens away on the branch that is orphaned.
  const head = await client.getBlockNumber();
  const eoas = world.wallets.filter((wallet) => wallet.kind === 'eoa').map((wallet) => wallet.address.toLowerCase() as Address);
  const provider = await (async () => {
    for (const wallet of eoas) {
      const truth = await readWalletTruth(client, world, wallet, head);
      const share = truth.uniswapV2[0];
      if (share && truth.native > parseEther('1')) return { wallet, pair: share.pair.toLowerCase() as Address, lp: share.balance };
    }
    throw new Error('no EOA of the world holds Uniswap V2 liquidity');
  })();
  // On the new branch the recipient sends ether of its own (0.5), so it must hold some.
  const recipient = await (async () => {
    for (const wallet of eoas) {
      if (wallet !== provider.wallet && (await client.getBalance({ address: wallet, blockNumber: head })) > parseEther('1')) return wallet;
    }
    throw new Error('no other EOA of the world holds 1 ETH');
  })();
  const wallets = [provider.wallet, recipient];
  await eventually(() => expectChainTruth(service, client, wallets, { sync: false }), 180_000);
  const lpRows = async () =>
    Promise.all(
      wallets.map(async (wallet) => {
        const row = rowOf(await service.list({ address: wallet, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE }), provider.pair);
        return row && [row.amount, row.updatedAtBlock, row.updatedAt];
      }),
    );
  const lpRowsBefore = await lpRows();

  // A chain loaded from a state file refuses block times before the moment it was loaded.
  let clock = Math.max(await chain.session.latestTimestamp(), Math.floor(Date.now() / 1000));
  await chain.session.send({
    from: provider.wallet,
    to: provider.pair,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, provider.lp / 2n] }),
  });
  await chain.session.send({ from: provider.wallet, to: recipient, value: parseEther('0.25'), gas: 21_000n });
  await chain.session.mine((clock += 12));
  await chain.session.send({ from: recipient, to: provider.wallet, value: parseEther('0.01'), gas: 21_000n });
  await chain.session.mine((clock += 12));
  // Served from the snapshots, which the transfer marked stale and a background read replaced.
  await eventually(() => expectChainTruth(service, client, wallets, { sync: false }), 120_000);
  expect(
    servedHoldings(await service.list({ address: recipient, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX })).length,
  ).toBeGreaterThan(0);

  await chain.session.client.request({ method: 'anvil_rollback' as never, params: [2] as never });
  chain.session.resetNonces();
  await chain.session.send({ from: recipient, to: provider.wallet, value: parseEther('0.5'), gas: 21_000n });
  for (let block = 0; block < 3; block++) await chain.session.mine((clock += 12));

  await eventually(() => expectChainTruth(service, client, wallets, { sync: false }), 120_000);
  // The LP balances the orphaned transfer changed are back, down to the block they last changed in.
  expect(await lpRows()).toEqual(lpRowsBefore);
  await expectChainTruth(service, client, wallets, { sync: true });
}, 420_000);

test('consumers killed with SIGKILL mid-stream and started again, and a restarted service, still equal the chain', async () => {
  // A chain of the test's own: the shared one may be mining live activity, and its head must stand still.
  const chain: OwnChain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  cleanups.push(() => chain.stop());
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  const harness = await harnessFor({ [chainId]: chain.rpcUrl });
  const start = (): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', consumerFixture], {
      env: {
        ...process.env,
        DATABASE_URL: harness.database.url,
        TOPIC_SUFFIX: harness.suffix,
        REFERENCE_DATA_ADDRESS: harness.referenceDataAddress,
        REDIS_KEY_PREFIX: harness.changes.keyPrefix,
        LOG_LEVEL: 'error',
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
    return child;
  };
  const entries = async () => harness.database.prisma.balanceEntry.count();

  const first = start();
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await eventually(async () => expect(await entries()).toBeGreaterThan(0), 120_000);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const appliedWhenKilled = await entries();

  start();
  const wallets = world.wallets.map((wallet) => wallet.address.toLowerCase() as Address);
  let service = await harness.startService();
  await eventually(() => expectChainTruth(service, client, wallets, { sync: false }), 240_000);
  // Killed mid-stream, not after it: most of the entries came after the restart.
  expect(appliedWhenKilled).toBeLessThan(await entries());
  // Every balance is its opening plus its entries after it: none was counted twice on redelivery,
  // and none was applied without its opening.
  const [mismatches] = await harness.database.prisma.$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS count FROM wallet_balances b
    FULL JOIN (
      SELECT o.chain_id, o.wallet, o.asset, o.amount + coalesce(sum(e.amount) FILTER (WHERE e.block_number > o.block_number), 0) AS amount
      FROM balance_openings o
      LEFT JOIN balance_entries e ON e.chain_id = o.chain_id AND e.wallet = o.wallet AND e.asset = o.asset
      GROUP BY o.chain_id, o.wallet, o.asset, o.amount
    ) e USING (chain_id, wallet, asset)
    WHERE b.amount IS NULL OR e.amount IS NULL OR b.amount <> e.amount`;
  expect(mismatches!.count).toBe(0n);

  // Ids and amounts survive a restart of the service (protocol positions from the stored snapshots).
  const rows = async () =>
    (await service.list({ address: wallets[0]!, chainIds: [chainId] }))
      .map((position) => [position.id, position.positionType, position.amount, position.updatedAtBlock])
      .sort();
  const before = await rows();
  await service.stop();
  service = await harness.startService();
  expect(await rows()).toEqual(before);
  await expectChainTruth(service, client, wallets, { sync: false });
}, 420_000);
