import { readFile } from 'node:fs/promises';
import type { Address } from 'viem';
import { createDevnetClient } from '../src/chain/index.js';
import { readManifest, type Manifest } from '../src/manifest/index.js';
import { readWalletTruth } from '../src/truth/index.js';

// The world that scripts/test.sh loads into the local chains (seed `test`, 20 wallets): what every
// suite that needs chain data reads through .data/devnet/manifest.json.
const chainsConfig = new URL('../../services/reference-data/config/chains.json', import.meta.url);

describe('the loaded test world', () => {
  let manifest: Manifest;

  beforeAll(async () => {
    manifest = await readManifest();
  });

  test('is the cached test world, on the chains the reference-data service declares', async () => {
    expect(manifest.seed).toBe('test');
    expect(manifest.walletCount).toBe(20);
    expect(manifest.chains.map((chain) => chain.id)).toEqual(['ethereum', 'base', 'sepolia']);
    const declared = JSON.parse(await readFile(chainsConfig, 'utf8')).chains as { id: string; evm_chain_id: number; rpc: { url: string } }[];
    for (const chain of manifest.chains) {
      const config = declared.find((entry) => entry.id === chain.id)!;
      expect({ rpcUrl: chain.rpcUrl, chainId: chain.chainId }).toEqual({ rpcUrl: config.rpc.url, chainId: config.evm_chain_id });
      const client = createDevnetClient(chain.rpcUrl);
      expect(await client.getChainId()).toBe(chain.chainId);
      const end = await client.getBlock({ blockNumber: BigInt(chain.endBlock) });
      expect(end.hash).toBe(chain.endBlockHash);
      expect(chain.endTimestamp - chain.genesisTimestamp).toBeGreaterThan(400 * 86_400);
      expect(chain.transactions.failedUnplanned).toBe(0);
      expect(chain.reorgs.length).toBeGreaterThan(0);
      for (const reorg of chain.reorgs) {
        expect(reorg.depth).toBeGreaterThanOrEqual(1);
        expect(reorg.depth).toBeLessThanOrEqual(10);
        for (const block of reorg.replacement) expect((await client.getBlock({ blockNumber: BigInt(block.number) })).hash).toBe(block.hash);
      }
    }
  });

  test('covers every kind of activity the issue asks for', () => {
    const ethereum = manifest.chains.find((chain) => chain.id === 'ethereum')!;
    const labels = new Set(ethereum.wallets.flatMap((wallet) => wallet.labels));
    const expected = [
      'tokens:eth-transfer',
      'tokens:erc20-transfer',
      'tokens:approve',
      'tokens:revoke',
      'tokens:weth-deposit',
      'tokens:deploy-contract',
      'tokens:failed-transfer',
      'uniswap-v2:swap',
      'uniswap-v2:add-liquidity',
      'uniswap-v3:swap',
      'uniswap-v3:mint',
      'uniswap-v3:collect',
      'defi:vault-deposit',
      'defi:stake',
      'defi:claim-rewards',
      'defi:supply',
      'defi:borrow',
      'nfts:mint-erc721',
      'nfts:buy',
      'smart-wallets:safe-create',
    ];
    const missing = expected.filter((label) => ![...labels].some((seen) => seen.startsWith(label)));
    expect(missing).toEqual([]);
    expect(ethereum.transactions.failedAsPlanned).toBeGreaterThan(0);
    expect(ethereum.wallets.some((wallet) => wallet.kind === 'safe')).toBe(true);
    expect(ethereum.wallets.some((wallet) => wallet.kind === 'smart-account')).toBe(true);
  });

  test('chain truth of every wallet reads at the end block and at the block before the first reorg', async () => {
    for (const chain of manifest.chains) {
      const client = createDevnetClient(chain.rpcUrl);
      for (const wallet of chain.wallets) {
        for (const block of [chain.endBlock, chain.reorgs[0]!.commonAncestor.number]) {
          const truth = await readWalletTruth(client, chain, wallet.address as Address, BigInt(block));
          expect(truth.native).toBe(await client.getBalance({ address: wallet.address as Address, blockNumber: BigInt(block) }));
        }
      }
    }
  });
});
