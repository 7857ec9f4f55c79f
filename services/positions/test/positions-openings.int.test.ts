import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { PositionsFilter } from '@wallet-api/core/proto/positions';
import { eventually } from '@wallet-api/core/testing';
import { createPublicClient, encodeFunctionData, http, parseAbi, parseEther, type Address, type Hash, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { readWalletTruth } from '../../../devnet/src/truth/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { etherAndTokenHolder, servedWalletHoldings, walletHoldings } from './chain-truth.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from './setup-positions.js';

// Opening balances: what a wallet held before the first entry the positions service applied for it
// (a genesis allocation, a credit in no transaction, everything held before the indexer's start
// block) is read from the chain, so the served balances equal the chain's. Each test runs an anvil
// of its own from the test world's ethereum state and holds the service against the truth readers.
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

async function ownChain(): Promise<{ chain: OwnChain; client: PublicClient }> {
  const chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  cleanups.push(() => chain.stop());
  return { chain, client: createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) };
}

async function harnessFor(rpcUrl: string): Promise<PositionsHarness> {
  const harness = await startPositionsHarness({ rpcUrls: { [chainId]: rpcUrl } });
  cleanups.push(() => harness.close());
  return harness;
}

const worldWallets = () => [...world.wallets.map((wallet) => wallet.address), world.deployer].map((address) => address.toLowerCase() as Address);

async function served(service: PositionsService, wallet: Address): Promise<Map<string, bigint>> {
  return servedWalletHoldings(await service.list({ address: wallet, chainIds: [chainId], positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE }));
}

async function heldAt(client: PublicClient, wallet: Address, block: bigint): Promise<Map<string, bigint>> {
  return walletHoldings(await readWalletTruth(client, world, wallet, block));
}

/** Every wallet's native and token balances as served equal the chain's at its head, exactly. */
async function expectChainBalances(service: PositionsService, client: PublicClient, wallets: readonly Address[]): Promise<void> {
  const head = await client.getBlockNumber();
  for (const wallet of wallets) expect({ wallet, held: await served(service, wallet) }).toEqual({ wallet, held: await heldAt(client, wallet, head) });
}

test('indexed from block 0: the deployer (a genesis allocation) and every wallet hold what the chain says', async () => {
  const { chain, client } = await ownChain();
  expect(await client.getBalance({ address: world.deployer as Address, blockNumber: 0n })).toBeGreaterThan(0n);
  const harness = await harnessFor(chain.rpcUrl);
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await harness.startConsumers();
  const service = await harness.startService();
  await eventually(() => expectChainBalances(service, client, worldWallets()), 240_000);
}, 300_000);

test('indexed from a start block in the middle of the world: every balance served equals the chain, and every balance that moved since is served', async () => {
  const { chain, client } = await ownChain();
  const startBlock = BigInt(Math.floor((world.activityStartBlock + world.endBlock) / 2));
  const head = await client.getBlockNumber();
  const wallets = worldWallets();
  const before = new Map<Address, Map<string, bigint>>();
  const after = new Map<Address, Map<string, bigint>>();
  for (const wallet of wallets) {
    before.set(wallet, await heldAt(client, wallet, startBlock - 1n));
    after.set(wallet, await heldAt(client, wallet, head));
  }
  const harness = await harnessFor(chain.rpcUrl);
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12, startBlock });
  await harness.startConsumers();
  const service = await harness.startService();

  let openedNonZero = 0;
  await eventually(async () => {
    openedNonZero = 0;
    for (const wallet of wallets) {
      const held = await served(service, wallet);
      const start = before.get(wallet)!;
      const end = after.get(wallet)!;
      // The service knows a balance from its first entry at or after the start block: a balance
      // that changed since must be there; whatever is there must be the chain's.
      const moved = [...new Set([...start.keys(), ...end.keys()])].filter((asset) => start.get(asset) !== end.get(asset));
      const expected = new Map([...end].filter(([asset]) => held.has(asset) || moved.includes(asset)));
      expect({ wallet, held }).toEqual({ wallet, held: expected });
      openedNonZero += [...held.keys()].filter((asset) => (start.get(asset) ?? 0n) !== 0n).length;
    }
  }, 240_000);
  // The entries after the start block alone would be wrong for these: they held something before it.
  expect(openedNonZero).toBeGreaterThan(wallets.length / 2);
}, 300_000);

describe.each([
  ['running through the reorg (openings read at the orphaned block, then read again at the common ancestor)', 'running'],
  ['stopped from before the orphaned block until after the reorg (its entries arrive after or beside their rollback)', 'stopped'],
] as const)('a reorg orphaning the block where balances were first seen, consumers %s', (_, consumersDuring) => {
  test('balances equal the new branch: a credit in no transaction kept, a token first received on both branches counted once', async () => {
    const { chain, client } = await ownChain();
    const harness = await harnessFor(chain.rpcUrl);
    harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
    let consumers = await harness.startConsumers();
    const service = await harness.startService();
    const { session } = chain;

    // A world EOA with ether and a token to give away, and two addresses the chain has never seen.
    const { sender, token } = await etherAndTokenHolder(client, world, await client.getBlockNumber());
    const unit = 10n ** BigInt(token.decimals);
    const genesisLike = '0x6f70656e696e6773000000000000000000000001' as Address;
    const newcomer = '0x6f70656e696e6773000000000000000000000002' as Address;
    const wallets = [sender, genesisLike, newcomer];
    await eventually(() => expectChainBalances(service, client, [sender]), 180_000);

    // A block the chain credits ether in, without any transaction, then the block both addresses
    // are first seen in: the credited address spends, the other receives the token.
    let clock = Math.max(await session.latestTimestamp(), Math.floor(Date.now() / 1000));
    await session.setBalance(genesisLike, parseEther('7'));
    await session.mine((clock += 12));
    if (consumersDuring === 'stopped') await consumers.stop();
    await session.send({ from: genesisLike, to: sender, value: parseEther('1'), gas: 21_000n });
    await session.send({
      from: sender,
      to: token.address as Address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [newcomer, 5n * unit] }),
    });
    const firstSeen = await session.mine((clock += 12));
    const published = async (number: bigint, hash: Hash) => {
      const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number } } });
      expect(checkpoint?.hash).toBe(hash);
    };
    if (consumersDuring === 'running') {
      await eventually(async () => {
        expect((await served(service, genesisLike)).get('')).toBe(await client.getBalance({ address: genesisLike, blockNumber: firstSeen.number }));
        expect((await served(service, newcomer)).get(token.address.toLowerCase())).toBe(5n * unit);
      }, 120_000);
    } else {
      await eventually(() => published(firstSeen.number, firstSeen.hash), 120_000);
    }

    // The new branch at the same height: the credited address does nothing, the newcomer gets less.
    await session.client.request({ method: 'anvil_rollback' as never, params: [1] as never });
    session.resetNonces();
    await session.send({
      from: sender,
      to: token.address as Address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [newcomer, 3n * unit] }),
    });
    const replacement = await session.mine((clock += 12));
    expect(replacement.number).toBe(firstSeen.number);
    for (let block = 0; block < 2; block++) await session.mine((clock += 12));
    if (consumersDuring === 'stopped') {
      await eventually(() => published(replacement.number, replacement.hash), 120_000);
      consumers = await harness.startConsumers();
    }

    await eventually(() => expectChainBalances(service, client, wallets), 120_000);
    expect((await served(service, genesisLike)).get('')).toBe(parseEther('7'));
    expect((await served(service, newcomer)).get(token.address.toLowerCase())).toBe(3n * unit);
  }, 420_000);
});

test('when the chain cannot answer, nothing is applied and the failure is logged; once it answers, the balances equal the chain', async () => {
  const { chain, client } = await ownChain();
  // The service reaches the chain through a forwarder that is not listening yet: its RPC is down.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const harness = await harnessFor(`http://127.0.0.1:${port}`);
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });

  let output = '';
  const consumer = spawn(process.execPath, ['--import', 'tsx', consumerFixture], {
    env: {
      ...process.env,
      DATABASE_URL: harness.database.url,
      TOPIC_SUFFIX: harness.suffix,
      REFERENCE_DATA_ADDRESS: harness.referenceDataAddress,
      REDIS_KEY_PREFIX: harness.changes.keyPrefix,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  consumer.stdout!.on('data', (chunk) => (output += chunk));
  cleanups.push(async () => {
    if (consumer.exitCode === null && consumer.signalCode === null) {
      consumer.kill('SIGKILL');
      await new Promise((resolve) => consumer.once('exit', resolve));
    }
  });
  const failures = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; chainId?: string; balances?: number })
      .filter((line) => line.level >= 50 && line.msg.startsWith('opening balances could not be read from the chain'));

  await eventually(() => expect(failures().length).toBeGreaterThanOrEqual(2), 120_000);
  expect(failures()[0]).toMatchObject({ chainId, balances: expect.any(Number) });
  const { prisma } = harness.database;
  expect([await prisma.balanceEntry.count(), await prisma.walletBalance.count(), await prisma.balanceOpening.count()]).toEqual([0, 0, 0]);

  const upstream = new URL(chain.rpcUrl);
  const sockets = new Set<Socket>();
  const forwarder: Server = createServer((socket) => {
    const target = connect(Number(upstream.port), upstream.hostname);
    for (const end of [socket, target]) {
      sockets.add(end);
      end.on('close', () => sockets.delete(end));
    }
    socket.pipe(target).pipe(socket);
    socket.on('error', () => target.destroy());
    target.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
  cleanups.push(async () => {
    const closed = new Promise<void>((resolve) => forwarder.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  });

  const service = await harness.startService();
  await eventually(() => expectChainBalances(service, client, worldWallets()), 240_000);
}, 420_000);
