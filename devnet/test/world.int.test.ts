import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAbi, type Address, type Hash } from 'viem';
import { testLogger } from '@wallet-api/core/testing';
import { ensureWorld, type WorldOptions } from '../src/cache/index.js';
import { createDevnetClient, startAnvil } from '../src/chain/index.js';
import { worldModules } from '../src/protocols/index.js';
import type { ChainWorld } from '../src/manifest/index.js';
import type { UniswapManifest } from '../src/protocols/uniswap/index.js';
import { readWalletTruth, worldTokens, type TruthReader } from '../src/truth/index.js';
import { multicall3Address, multicall3Deployer } from '@wallet-api/core/evm';

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
const positionManager = parseAbi(['function balanceOf(address) view returns (uint256)']);

/** The truth module against plain reads made here, for every wallet of the chain at one block. */
async function expectTruthMatchesDirectReads(client: TruthReader, chain: ChainWorld, blockNumber: bigint) {
  const uniswap = chain.protocols.uniswap as UniswapManifest;
  for (const { address } of chain.wallets) {
    const wallet = address as Address;
    const truth = await readWalletTruth(client, chain, wallet, blockNumber);
    expect(truth.native).toBe(await client.getBalance({ address: wallet, blockNumber }));
    for (const token of worldTokens(chain).tokens) {
      const direct = await client.readContract({ address: token.address, abi: erc20, functionName: 'balanceOf', args: [wallet], blockNumber });
      expect(truth.tokens.find((held) => held.address === token.address)?.balance ?? 0n).toBe(direct);
    }
    for (const pair of uniswap.v2.pairs) {
      const direct = await client.readContract({ address: pair.address, abi: erc20, functionName: 'balanceOf', args: [wallet], blockNumber });
      expect(truth.uniswapV2.find((share) => share.pair === pair.address)?.balance ?? 0n).toBe(direct);
    }
    const positions = await client.readContract({
      address: uniswap.v3.positionManager,
      abi: positionManager,
      functionName: 'balanceOf',
      args: [wallet],
      blockNumber,
    });
    expect(BigInt(truth.uniswapV3.length)).toBe(positions);
  }
}

// A small world on one chain, built twice from scratch and once from the cache.
const dataRoot = new URL('../../.data/devnet/test-worlds/', import.meta.url).pathname;

describe('devnet world', () => {
  let dirs: string[] = [];
  const options = (dataDir: string): WorldOptions => ({
    seed: 'world-test',
    walletCount: 6,
    days: 420,
    endTimestamp: Date.parse('2026-10-01T00:00:00Z') / 1000,
    actionsPerWallet: 8,
    reorgCount: 1,
    chains: [{ id: 'ethereum', chainId: 1, participation: 1 }],
    modules: worldModules,
    dataDir,
    logger: testLogger,
  });

  beforeAll(async () => {
    await mkdir(dataRoot, { recursive: true });
    dirs = [await mkdtemp(join(dataRoot, 'a-')), await mkdtemp(join(dataRoot, 'b-'))];
  });

  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test('the same seed builds the same manifest and chain; the cache returns it; the loaded chain has the history', async () => {
    const first = await ensureWorld(options(dirs[0]!));
    const second = await ensureWorld(options(dirs[1]!));
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(false);
    expect(second.manifest).toEqual(first.manifest);

    const chain = first.manifest.chains[0]!;
    expect(chain.endTimestamp).toBe(options('').endTimestamp);
    expect(chain.endTimestamp - chain.genesisTimestamp).toBeGreaterThan(400 * 86_400);
    expect(chain.wallets.length).toBeGreaterThanOrEqual(3);
    expect(chain.transactions.failedUnplanned).toBe(0);
    expect(chain.reorgs).toHaveLength(1);

    const cached = await ensureWorld(options(dirs[0]!));
    expect(cached.fromCache).toBe(true);
    expect(cached.manifest).toEqual(first.manifest);

    const anvil = await startAnvil({ chainId: 1, cachePath: join(dirs[0]!, 'load.anvil'), loadState: first.stateFiles.ethereum });
    try {
      const client = createDevnetClient(anvil.rpcUrl);
      const latest = await client.getBlock({ blockTag: 'latest' });
      expect(latest.hash).toBe(chain.endBlockHash);
      const reorg = chain.reorgs[0]!;
      for (const replaced of reorg.replacement) {
        expect((await client.getBlock({ blockNumber: BigInt(replaced.number) })).hash).toBe(replaced.hash);
      }
      // Multicall3 sits where production chains have it, created by its deployer's first
      // transaction, and batches reads: the world's first token's symbol and a reverting call.
      expect(await client.getTransactionCount({ address: multicall3Deployer })).toBe(1);
      const token = worldTokens(chain).tokens[0]!;
      const [symbol, reverted] = await client.multicall({
        multicallAddress: multicall3Address,
        contracts: [
          { address: token.address as Address, abi: parseAbi(['function symbol() view returns (string)']), functionName: 'symbol' },
          {
            address: (chain.protocols.uniswap as UniswapManifest).v2.factory as Address,
            abi: parseAbi(['function symbol() view returns (string)']),
            functionName: 'symbol',
          },
        ],
      });
      expect(symbol).toEqual({ status: 'success', result: token.symbol });
      expect(reverted?.status).toBe('failure');

      // Old blocks keep their receipts and can be traced, which the indexer needs.
      const busy = await client.getBlock({ blockNumber: BigInt(chain.activityStartBlock + 1) });
      expect(busy.transactions.length).toBeGreaterThan(0);
      const receipt = await client.getTransactionReceipt({ hash: busy.transactions[0] as Hash });
      expect(receipt.blockNumber).toBe(busy.number);
      const traces = (await client.request({
        method: 'debug_traceBlockByNumber' as never,
        params: [`0x${busy.number.toString(16)}`, { tracer: 'callTracer' }] as never,
      })) as unknown[];
      expect(traces).toHaveLength(busy.transactions.length);

      // Chain truth agrees with direct reads at the end and at a block before the recorded reorg,
      // then again after a fresh reorg of the loaded chain, at the same height on the new branch.
      await expectTruthMatchesDirectReads(client, chain, BigInt(chain.endBlock));
      await expectTruthMatchesDirectReads(client, chain, BigInt(reorg.commonAncestor.number));
      // anvil can only rebuild a branch from states it made after loading the dump, so the reorg
      // orphans blocks mined here: two with a transfer, replaced by two without.
      const wallet = chain.wallets[0]!.address as Address;
      await client.impersonateAccount({ address: wallet });
      await client.request({
        method: 'eth_sendTransaction',
        params: [{ from: wallet, to: chain.wallets[1]!.address as Address, value: '0x38d7ea4c68000' }],
      } as never);
      await client.mine({ blocks: 1 });
      const orphanedTip = await client.getBlock({ blockTag: 'latest' });
      const before = await readWalletTruth(client, chain, wallet, orphanedTip.number);
      await client.request({ method: 'anvil_rollback' as never, params: [2] as never });
      await client.mine({ blocks: 2 });
      const tip = await client.getBlock({ blockTag: 'latest' });
      expect(tip.number).toBe(orphanedTip.number);
      expect(tip.hash).not.toBe(orphanedTip.hash);
      await expectTruthMatchesDirectReads(client, chain, tip.number);
      const after = await readWalletTruth(client, chain, wallet, tip.number);
      expect(after.native).toBeGreaterThan(before.native);
    } finally {
      await anvil.stop();
    }
  });
});
