import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createChangeVersions, type ChangeVersions } from '@wallet-api/core/cache';
import { createPrisma } from '@wallet-api/core/db';
import { processRegistry } from '@wallet-api/core/metrics';
import { consumerGroupCaughtUp, eventually, setupKafka, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { PositionsFilter, TrashFilter } from '@wallet-api/core/proto/positions';
import { createPublicClient, encodeFunctionData, erc20Abi, http, parseAbi, parseEther, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { readWalletTruth } from '../../../devnet/src/truth/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { etherAndTokenHolder } from '../../positions/test/chain-truth.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from '../../positions/test/setup-positions.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createPositionRows } from '../src/cache/position-rows.js';
import { createResponseCache } from '../src/cache/response-cache.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// The gateway's answer cache against a chain that moves: repeated requests are served from the
// cache, and once the positions service has applied a transfer (its consumer group committed the
// transfer's balance changes), the very next request shows it. A price move alone revalues the
// wallet's kept rows (the position rows cache) without asking the positions service. Own anvil
// from the test world's ethereum state, so the shared chains are never written.
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const chainId = 'ethereum';

const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
const kafka = setupKafka('wallet-answers-cache-test');
let world: ChainWorld;
let chain: OwnChain;
let client: PublicClient;
let harness: PositionsHarness;
let service: PositionsService;
let gatewayChanges: ChangeVersions;
let backends: Backends;
let server: Server;
let baseUrl: string;
let authorization: string;

beforeAll(async () => {
  world = (await readManifest()).chains.find((candidate) => candidate.id === chainId)!;
  chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  harness = await startPositionsHarness({ rpcUrls: { [chainId]: chain.rpcUrl } });
  harness.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await harness.startConsumers();
  service = await harness.startService();
  backends = createBackends({ referenceData: harness.referenceDataAddress, indexer: harness.referenceDataAddress, positions: service.address });
  gatewayChanges = createChangeVersions(redis, { keyPrefix: harness.changes.keyPrefix });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
    // As the start command's gateway: market data reused until prices move.
    fungiblesTtlMs: 15_000,
    changes: gatewayChanges,
    responseCache: createResponseCache({ versions: gatewayChanges, logger: testLogger, maxBytes: 16 * 1024 * 1024, maxAgeMs: 600_000 }),
    positionRows: createPositionRows({ versions: gatewayChanges, logger: testLogger, maxBytes: 4 * 1024 * 1024, maxAgeMs: 600_000 }),
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('answers-cache'), roles: [], addons: [] });
  authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  backends?.close();
  await harness?.close();
  await chain?.stop();
  redis.disconnect();
  await prisma.$disconnect();
});

async function get(path: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
  expect(response.status).toBe(200);
  return response.json();
}

/** How many answers the cache gave for the route with this outcome, so far. */
async function cacheCount(route: string, outcome: string): Promise<number> {
  const metric = processRegistry.getSingleMetric('wallet_api_gateway_response_cache_total');
  const values = (await metric!.get()).values;
  return values.find((value) => value.labels.route === route && value.labels.outcome === outcome)?.value ?? 0;
}

/** The wallet's token balance as the positions endpoint serves it (0 without a position). */
async function servedTokenBalance(wallet: Address, token: Address): Promise<bigint> {
  const body = await get(`/v1/wallets/${wallet}/positions/?filter[positions]=only_simple&filter[trash]=no_filter`);
  const position = body.data.find((item: any) =>
    item.attributes.fungible_info.implementations.some(
      (implementation: any) => implementation.chain_id === chainId && implementation.address === token.toLowerCase(),
    ),
  );
  return position ? BigInt(position.attributes.quantity.int) : 0n;
}

/** The wallet's token balance as the wallet-set positions endpoint serves it for a set of the wallet alone. */
async function servedSetTokenBalance(wallet: Address, token: Address): Promise<bigint> {
  const body = await get(`/v1/wallet-sets/positions/?addresses=${wallet}&filter[positions]=only_simple&filter[trash]=no_filter`);
  const position = body.data.find((item: any) =>
    item.attributes.fungible_info.implementations.some(
      (implementation: any) => implementation.chain_id === chainId && implementation.address === token.toLowerCase(),
    ),
  );
  return position ? BigInt(position.attributes.quantity.int) : 0n;
}

test('a repeated request is answered from the cache, for a wallet and a wallet set; after the positions service applied a transfer, the next request shows it', async () => {
  const positionsRoute = '/v1/wallets/{address}/positions/';
  const setRoute = '/v1/wallet-sets/positions/';
  const holder = await etherAndTokenHolder(client, world, await client.getBlockNumber());
  const [sender, token] = [holder.sender, holder.token.address.toLowerCase() as Address];
  const onChain = () => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [sender] });
  await eventually(async () => expect(await servedTokenBalance(sender, token)).toBe(await onChain()), 180_000);

  // Once the services have applied everything the still chain has (prices folded, protocol snapshots read), a request is a hit.
  let before = 0n;
  await eventually(async () => {
    const hits = await cacheCount(positionsRoute, 'hit');
    before = await servedTokenBalance(sender, token);
    expect(await cacheCount(positionsRoute, 'hit')).toBe(hits + 1);
  }, 120_000);
  await eventually(async () => {
    const hits = await cacheCount(setRoute, 'hit');
    expect(await servedSetTokenBalance(sender, token)).toBe(before);
    expect(await cacheCount(setRoute, 'hit')).toBe(hits + 1);
  }, 120_000);

  const { session } = chain;
  const recipient = '0x6361636865000000000000000000000000000001' as Address;
  await session.send({ from: sender, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 7n] }) });
  const mined = await session.mine(Math.max(await session.latestTimestamp(), Math.floor(Date.now() / 1000)) + 12);
  await eventually(async () => {
    const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: mined.number } } });
    expect(checkpoint?.hash).toBe(mined.hash);
  }, 120_000);
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.balance-changes`, harness.topics.balanceChanges.name), 120_000);

  // One request, no retries: the answer cached before the transfer must not be served any more.
  expect(await servedTokenBalance(sender, token)).toBe(before - 7n);
  expect(await servedSetTokenBalance(sender, token)).toBe(before - 7n);
  expect(await onChain()).toBe(before - 7n);
  expect(await servedTokenBalance(recipient, token)).toBe(7n);
}, 420_000);

test('after reference-data applied a price move, the next request values the position at the new price', async () => {
  const positionsRoute = '/v1/wallets/{address}/positions/';
  const uniswap = world.protocols.uniswap as UniswapManifest;
  const head = await client.getBlockNumber();
  // A world EOA holding a token of a V2 pair, to sell a good part of it into the pair; not a
  // stablecoin, whose price is held at 1.
  const stables = new Set(
    (world.protocols.tokens as TokensManifest).tokens.filter((entry) => entry.kind === 'stable').map((entry) => entry.address.toLowerCase()),
  );
  const { wallet, pair, token } = await (async () => {
    for (const candidate of world.wallets.filter((entry) => entry.kind === 'eoa')) {
      const truth = await readWalletTruth(client, world, candidate.address as Address, head);
      if (truth.native < parseEther('1')) continue;
      for (const pairInfo of uniswap.v2.pairs) {
        const held = truth.tokens.find(
          (balance) =>
            !stables.has(balance.address.toLowerCase()) &&
            [pairInfo.token0, pairInfo.token1].some((address) => address.toLowerCase() === balance.address.toLowerCase()) &&
            balance.balance > 0n,
        );
        if (held) return { wallet: candidate.address.toLowerCase() as Address, pair: pairInfo, token: held.address.toLowerCase() as Address };
      }
    }
    throw new Error('no EOA of the world holds a token of a V2 pair');
  })();
  const other = (pair.token0.toLowerCase() === token ? pair.token1 : pair.token0) as Address;
  const servedPosition = async () => {
    const body = await get(`/v1/wallets/${wallet}/positions/?filter[positions]=only_simple&filter[trash]=no_filter`);
    return body.data.find((item: any) =>
      item.attributes.fungible_info.implementations.some((implementation: any) => implementation.chain_id === chainId && implementation.address === token),
    );
  };
  const referencePrice = async () => {
    const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
      context: { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET },
      currency: 'usd',
      queries: [{ token: { chainId, address: token }, timestamp: '0' }],
    });
    return prices[0]?.price;
  };
  let before: any;
  await eventually(async () => {
    const hits = await cacheCount(positionsRoute, 'hit');
    before = await servedPosition();
    expect(before?.attributes.price).toBe(await referencePrice());
    expect(await cacheCount(positionsRoute, 'hit')).toBe(hits + 1);
  }, 180_000);

  const { session } = chain;
  const router = uniswap.v2.router;
  const routerAbi = parseAbi([
    'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  ]);
  const held = await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
  const clock = Math.max(await session.latestTimestamp(), Math.floor(Date.now() / 1000));
  await session.send({ from: wallet, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, held] }), gas: 100_000n });
  await session.send({
    from: wallet,
    to: router,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'swapExactTokensForTokens',
      args: [held / 2n, 0n, [token, other], wallet, BigInt(clock + 3_600)],
    }),
    gas: 300_000n,
  });
  const mined = await session.mine(clock + 12);
  await eventually(async () => {
    const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: mined.number } } });
    expect(checkpoint?.hash).toBe(mined.hash);
  }, 120_000);
  for (const [group, topic] of [
    [`${harness.suffix}.prices.pool-events`, harness.topics.poolEvents.name],
    [`${harness.suffix}.balance-changes`, harness.topics.balanceChanges.name],
  ] as const) {
    await eventually(() => consumerGroupCaughtUp(kafka, group, topic), 120_000);
  }

  // One request, no retries: the new price, and the quantity left after the swap.
  const after = await servedPosition();
  const moved = await referencePrice();
  expect(moved).not.toBe(before.attributes.price);
  expect(after.attributes.price).toBe(moved);
  expect(BigInt(after.attributes.quantity.int)).toBe(held - held / 2n);
}, 420_000);

test('a price move alone revalues the kept rows: the positions service is not asked again, and positions and portfolio equal its own valuation', async () => {
  const positionsRoute = '/v1/wallets/{address}/positions/';
  const { sender: wallet } = await etherAndTokenHolder(client, world, await client.getBlockNumber());
  const positionsPath = `/v1/wallets/${wallet}/positions/?filter[positions]=no_filter&filter[trash]=no_filter`;
  const portfolioPath = `/v1/wallets/${wallet}/portfolio?filter[positions]=no_filter`;
  // Settled: nothing moves between two requests, so the second is a hit.
  await eventually(async () => {
    await get(portfolioPath);
    const hits = await cacheCount(positionsRoute, 'hit');
    await get(positionsPath);
    await get(positionsPath);
    expect(await cacheCount(positionsRoute, 'hit')).toBe(hits + 1);
  }, 180_000);

  // A day-ago price can step between the gateway's read and the service's (a minute boundary): the move is tried again then.
  await eventually(async () => {
    const rowsRead = await cacheCount('position rows', 'miss');
    const recomputed = await cacheCount(positionsRoute, 'miss');
    await gatewayChanges.pricesChanged(undefined, { since: Math.floor(Date.now() / 1000) - 3 });
    const [served, portfolio] = await Promise.all([get(positionsPath), get(portfolioPath)]);
    // The answers were computed again, from the rows kept before the move.
    expect(await cacheCount(positionsRoute, 'miss')).toBe(recomputed + 1);
    expect(await cacheCount('position rows', 'miss')).toBe(rowsRead);

    // Every chain of the network that indexes positions, as the gateway's scope has them.
    const chainIds = Object.keys(portfolio.data.attributes.positions_distribution_by_chain);
    const own = await service.list({ address: wallet, chainIds, trash: TrashFilter.TRASH_FILTER_NO_FILTER });
    expect(served.data.map((item: any) => item.id)).toEqual(own.map((position) => position.id));
    expect(own.some((position) => position.value !== undefined && position.value > 0)).toBe(true);
    for (const [index, position] of own.entries()) {
      const attributes = served.data[index].attributes;
      expect(attributes.price ?? undefined).toBe(position.price);
      expect(attributes.value ?? undefined).toBe(position.value);
      expect(attributes.changes?.absolute_1d ?? undefined).toBe(position.changeAbsolute1d);
    }

    const totals = await service.portfolio({ address: wallet, chainIds, positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER });
    // The same terms summed in another order (the gateway's by value, the service's as read): equal to the last bits.
    const same = (served: number, expected: number) => expect(Math.abs(served - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
    same(portfolio.data.attributes.total.positions, totals.total);
    same(portfolio.data.attributes.changes.absolute_1d, totals.changeAbsolute1d);
    for (const chain of chainIds) same(portfolio.data.attributes.positions_distribution_by_chain[chain], totals.byChain[chain]!);
    for (const [type, value] of Object.entries(portfolio.data.attributes.positions_distribution_by_type)) same(value as number, totals.byType[type]!);
  }, 60_000);
}, 300_000);
