import { unary } from '@wallet-api/core/grpc';
import { PositionsFilter, TrashFilter, type ListPositionsRequest, type Position } from '@wallet-api/core/proto/positions';
import { eventually } from '@wallet-api/core/testing';
import { createPublicClient, formatUnits, http, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import { readWalletTruth, type WalletTruth } from '../../../devnet/src/truth/index.js';
import { protocolHoldings, servedHoldings, servedWalletHoldings, walletHoldings } from './chain-truth.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from './setup-positions.js';

// The test world indexed end to end (chain -> indexer -> Kafka -> positions consumers ->
// PostgreSQL -> gRPC) and held against the chain itself: for every wallet of the manifest, every
// balance and every protocol position equals what the devnet's truth readers compute at the same
// block, to the base unit; values are quantity times reference-data's price, and portfolio totals
// are the sums of the positions. The shared chains are only read.

let manifest: Manifest;
let harness: PositionsHarness;
let service: PositionsService;

beforeAll(async () => {
  manifest = await readManifest();
  harness = await startPositionsHarness();
  for (const chain of manifest.chains) harness.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  await harness.startConsumers();
  service = await harness.startService();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

const ids = (positions: readonly Position[]) => positions.map((position) => position.id).sort();

describe.each(['ethereum', 'base', 'sepolia'])('the test world on %s', (chainId) => {
  let chain: ChainWorld;
  let client: PublicClient;
  let head: bigint;
  const truths = new Map<string, WalletTruth>();
  const list = (address: string, options: Partial<ListPositionsRequest>) => service.list({ ...options, address, chainIds: [chainId] });

  beforeAll(async () => {
    chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
    client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    head = await client.getBlockNumber();
    // The deployer's ether is a genesis allocation, in no transaction: it is served all the same.
    for (const address of [...chain.wallets.map((wallet) => wallet.address), chain.deployer]) {
      truths.set(address.toLowerCase(), await readWalletTruth(client, chain, address as Address, head));
    }
  }, 180_000);

  test('every wallet and the deployer: native and token balances equal the chain at the indexed head, exactly, genesis allocations included', async () => {
    expect(await client.getBalance({ address: chain.deployer as Address, blockNumber: 0n })).toBeGreaterThan(0n);
    await eventually(async () => {
      for (const wallet of truths.keys()) {
        const served = servedWalletHoldings(await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE }));
        expect({ wallet, held: served }).toEqual({ wallet, held: walletHoldings(truths.get(wallet)!) });
      }
    }, 240_000);
  }, 300_000);

  test('every wallet: its protocol positions (LP shares, V3 amounts and fees, vault assets, stakes, deposits, debts) equal the chain', async () => {
    let seen = 0;
    const kinds = new Set<string>();
    for (const wallet of truths.keys()) {
      const positions = await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX, sync: true });
      for (const position of positions) kinds.add(`${position.protocol}:${position.positionType}`);
      for (const position of positions) expect(BigInt(position.updatedAtBlock)).toBe(head);
      expect({ wallet, positions: servedHoldings(positions) }).toEqual({ wallet, positions: protocolHoldings(truths.get(wallet)!, chain) });
      seen += positions.length;

      expect(new Set(ids(positions)).size).toBe(positions.length);
      const byId = new Map(positions.map((position) => [position.id, position]));
      for (const position of positions) {
        expect(position.dapp?.id).toBeTruthy();
        if (position.protocol === 'Uniswap V2' || position.protocol === 'Uniswap V3') {
          const group = positions.filter((other) => other.groupId === position.groupId);
          expect(
            group
              .filter((other) => other.positionType === 'deposit')
              .map((other) => other.token!.address)
              .sort(),
          ).toHaveLength(2);
          expect(new Set(group.map((other) => other.poolAddress))).toEqual(new Set([position.poolAddress]));
        }
        if (position.nftReceipt && position.positionType === 'reward') {
          const parent = byId.get(position.parentId)!;
          expect([parent.positionType, parent.token!.address, parent.groupId]).toEqual(['deposit', position.token!.address, position.groupId]);
        }
      }
    }
    // An empty comparison proves nothing: the world gives its wallets positions in every protocol.
    expect(seen).toBeGreaterThan(0);
    if (chainId === 'ethereum') {
      expect([...kinds].sort()).toEqual(
        expect.arrayContaining([
          'Uniswap V2:deposit',
          'Uniswap V3:deposit',
          'Uniswap V3:reward',
          'Devnet Vaults:deposit',
          'Devnet Staking:staked',
          'Devnet Staking:locked',
          'Devnet Staking:reward',
          'Devnet Lending:deposit',
          'Devnet Lending:loan',
        ]),
      );
    }
  }, 600_000);

  test('no_filter: wallet rows and protocol rows, less the wallet rows of receipt tokens a protocol row carries', async () => {
    for (const wallet of truths.keys()) {
      const simple = await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE });
      const complex = await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX });
      const all = await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER });
      const receipts = new Set(complex.flatMap((position) => (position.fungibleReceipt ? [position.fungibleReceipt.token!.address] : [])));
      const expected = [...simple.filter((position) => !receipts.has(position.token!.address)), ...complex];
      expect({ wallet, ids: ids(all) }).toEqual({ wallet, ids: ids(expected) });
      // Ids are stable: the same positions come back with the same ids.
      expect(ids(await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER }))).toEqual(ids(all));
    }
  }, 300_000);

  test('values are quantity times the price reference-data quotes, and portfolio totals are the sums of the positions by type and by chain', async () => {
    let valued = 0;
    for (const wallet of truths.keys()) {
      // Prices come from the pool events the indexer published, folded as they arrive: the
      // comparison holds once the folding has caught up with the chain. The 1-day change uses the
      // price at the minute a day before the request.
      const { positions, dayAgo } = await eventually(async () => {
        const minuteDayAgo = String(Math.floor(Date.now() / 1000 / 60) * 60 - 24 * 60 * 60);
        const listed = await list(wallet, { positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH });
        const tokens = listed.map((position) => ({ chainId, address: position.token!.address }));
        const quote = async (timestamp: string) =>
          (
            await unary(harness.referenceData, harness.referenceData.getPrices, {
              context: undefined,
              currency: 'usd',
              queries: tokens.map((token) => ({ token, timestamp })),
            })
          ).prices.map((price) => price.price);
        const [now, before] = await Promise.all([quote('0'), quote(minuteDayAgo)]);
        expect(listed.map((position) => [position.id, position.price])).toEqual(listed.map((position, index) => [position.id, now[index]]));
        return { positions: listed, dayAgo: before };
      }, 120_000);
      positions.forEach((position, index) => {
        if (position.price === undefined) return expect([position.value, position.changeAbsolute1d]).toEqual([undefined, undefined]);
        valued++;
        const quantity = Number(formatUnits(BigInt(position.amount), position.token!.decimals));
        expect(position.value).toBe(quantity * position.price);
        const before = dayAgo[index];
        if (before === undefined) return expect(position.changeAbsolute1d).toBeUndefined();
        expect(position.changeAbsolute1d).toBe(position.value! - quantity * before);
        expect(position.changePercent1d).toBe(quantity * before === 0 ? 0 : (position.changeAbsolute1d! / (quantity * before)) * 100);
      });
      // Largest value first, unpriced positions last.
      const values = positions.map((position) => position.value ?? -Infinity);
      expect(values).toEqual([...values].sort((a, b) => b - a));

      const portfolio = await service.portfolio({
        address: wallet,
        chainIds: [chainId, 'unused-chain'],
        positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER,
      });
      const signed = (position: Position, amount: number | undefined) => (position.positionType === 'loan' ? -1 : 1) * (amount ?? 0);
      const sum = (types: string[]) =>
        positions.filter((position) => types.includes(position.positionType)).reduce((total, position) => total + (position.value ?? 0), 0);
      const byType = {
        wallet: sum(['wallet']),
        deposited: sum(['deposit', 'reward', 'investment']),
        borrowed: sum(['loan']),
        locked: sum(['locked']),
        staked: sum(['staked']),
      };
      const total = byType.wallet + byType.deposited + byType.locked + byType.staked - byType.borrowed;
      const change = positions.reduce((sum, position) => sum + signed(position, position.changeAbsolute1d), 0);
      // Sums of doubles in another order: equal to a relative 1e-9.
      const near = (actual: number | undefined, expected: number) => Math.abs((actual ?? NaN) - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
      const served = { ...portfolio.byType, total: portfolio.total, [chainId]: portfolio.byChain[chainId], change: portfolio.changeAbsolute1d };
      const summed = { ...byType, total, [chainId]: total, change };
      for (const [key, value] of Object.entries(summed)) expect({ wallet, key, near: near(served[key], value) }).toEqual({ wallet, key, near: true });
      expect(portfolio.byChain['unused-chain']).toBe(0);
      expect(near(portfolio.changePercent1d, total - change === 0 ? 0 : (change / (total - change)) * 100)).toBe(true);
    }
    expect(valued).toBeGreaterThan(0);
  }, 600_000);
});
