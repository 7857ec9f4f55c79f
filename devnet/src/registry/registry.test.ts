import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChainWorld, Manifest } from '../manifest/index.js';
import { devnetMinLiquidityUsd, devnetRegistry, writeDevnetRegistry } from './registry.js';

// Addresses named for what they are, so the expectations read as the registry should.
const at = (n: number, chain: number) => `0x${chain.toString(16).padStart(2, '0')}${n.toString(16).padStart(38, '0')}`;

function chainWorld(id: string, n: number, modules: 'all' | 'tokens-only'): ChainWorld {
  const token = (symbol: string, address: number, kind: string) => ({ symbol, name: `${symbol} token`, address: at(address, n), decimals: 18, kind });
  const protocols: Record<string, unknown> = {
    tokens: {
      weth: at(1, n),
      tokens: [token('WETH', 1, 'weth'), token('USDC', 2, 'stable'), token('USDC', 3, 'spam'), token('ETHGIFT', 4, 'spam'), token('WBTC', 5, 'btc')],
      walletContractBytecode: '0x',
    },
  };
  if (modules === 'all') {
    protocols.uniswap = {
      v2: { factory: at(10, n), router: at(11, n), pairs: [{ address: at(12, n) }] },
      v3: {
        factory: at(20, n),
        positionManager: at(21, n),
        positionDescriptor: at(22, n),
        swapRouter: at(23, n),
        quoter: at(24, n),
        pools: [{ address: at(25, n) }],
      },
    };
    protocols.defi = { vaults: [{ address: at(30, n) }, { address: at(31, n) }], staking: { address: at(32, n) }, lending: { address: at(33, n) } };
    protocols.nfts = {
      market: at(40, n),
      collections: [
        { kind: 'onchain-art', address: at(41, n) },
        { kind: 'spam', address: at(42, n) },
      ],
    };
    protocols.smartWallets = { safeSingleton: at(50, n), safeFactory: at(51, n), entryPoint: at(52, n), accountFactory: at(53, n) };
  }
  return {
    id,
    chainId: n,
    rpcUrl: '',
    deployer: at(99, n),
    genesisTimestamp: 0,
    activityStartBlock: 0,
    endBlock: 0,
    endTimestamp: 0,
    endBlockHash: `0x${'0'.repeat(64)}`,
    protocols,
    wallets: [],
    reorgs: [],
    transactions: { sent: 0, failedAsPlanned: 0, failedUnplanned: 0, marketTrades: 0 },
  };
}

const manifest: Manifest = {
  seed: 's',
  walletCount: 1,
  days: 1,
  cacheKey: 'k',
  chains: [chainWorld('ethereum', 1, 'all'), chainWorld('sepolia', 2, 'tokens-only')],
};

describe('devnet registry', () => {
  const registry = devnetRegistry(manifest);

  test('attributes every protocol contract of each chain to its dapp', () => {
    const contracts = Object.fromEntries(registry.dapps.map((dapp) => [dapp.id, dapp.contracts]));
    expect(contracts).toEqual({
      weth: { ethereum: [at(1, 1)], sepolia: [at(1, 2)] },
      'uniswap-v2': { ethereum: [at(10, 1), at(11, 1), at(12, 1)] },
      'uniswap-v3': { ethereum: [at(20, 1), at(21, 1), at(22, 1), at(23, 1), at(24, 1), at(25, 1)] },
      'devnet-vaults': { ethereum: [at(30, 1), at(31, 1)] },
      'devnet-staking': { ethereum: [at(32, 1)] },
      'devnet-lending': { ethereum: [at(33, 1)] },
      'devnet-nft-market': { ethereum: [at(40, 1)] },
      'devnet-nft-collections': { ethereum: [at(41, 1)] },
      'devnet-safe': { ethereum: [at(51, 1), at(50, 1)] },
      'devnet-smart-accounts': { ethereum: [at(52, 1), at(53, 1)] },
    });
    for (const dapp of registry.dapps) expect(dapp.id.length).toBeLessThanOrEqual(32);
  });

  test('verifies the real tokens, one fungible per symbol across chains, and lists the spam ones', () => {
    expect(registry.tokens.map((token) => [token.fungible_id, token.symbol, token.implementations])).toEqual([
      [
        'weth',
        'WETH',
        [
          { chain_id: 'ethereum', address: at(1, 1) },
          { chain_id: 'sepolia', address: at(1, 2) },
        ],
      ],
      [
        'usdc',
        'USDC',
        [
          { chain_id: 'ethereum', address: at(2, 1) },
          { chain_id: 'sepolia', address: at(2, 2) },
        ],
      ],
      [
        'wbtc',
        'WBTC',
        [
          { chain_id: 'ethereum', address: at(5, 1) },
          { chain_id: 'sepolia', address: at(5, 2) },
        ],
      ],
    ]);
    expect(registry.spam_tokens).toEqual({ ethereum: [at(3, 1), at(4, 1), at(42, 1)], sepolia: [at(3, 2), at(4, 2)] });
  });

  test("classifies only the stablecoins and counts the deployer's holdings of minted tokens as not circulating", () => {
    const byId = Object.fromEntries(registry.tokens.map((token) => [token.fungible_id, token]));
    expect(byId.usdc!.asset_class).toBe('stablecoin');
    expect(byId.weth!.asset_class).toBeUndefined();
    expect(byId.wbtc!.asset_class).toBeUndefined();
    expect(byId.usdc!.non_circulating_holders).toEqual([
      { chain_id: 'ethereum', address: at(99, 1) },
      { chain_id: 'sepolia', address: at(99, 2) },
    ]);
    expect(byId.weth!.non_circulating_holders).toEqual([]);
  });

  test('lists the protocol contracts of the chains that have them', () => {
    expect(registry.protocols).toEqual({
      ethereum: {
        uniswap_v2: [{ factory: at(10, 1), pairs: [at(12, 1)], router: at(11, 1) }],
        uniswap_v3: [{ factory: at(20, 1), position_manager: at(21, 1), swap_router: at(23, 1), quoter: at(24, 1) }],
        vaults: [at(30, 1), at(31, 1)],
        staking: [at(32, 1)],
        lending: [at(33, 1)],
        nft_markets: [at(40, 1)],
      },
    });
  });

  test('routes prices to the stable tokens and WETH, with the btc tokens as the btc currency', () => {
    expect(registry.pricing).toEqual({
      ethereum: { usd_stablecoins: [at(2, 1)], wrapped_native: at(1, 1), btc: [at(5, 1)], min_liquidity_usd: devnetMinLiquidityUsd },
      sepolia: { usd_stablecoins: [at(2, 2)], wrapped_native: at(1, 2), btc: [at(5, 2)], min_liquidity_usd: devnetMinLiquidityUsd },
    });
  });

  test('writes lowercase addresses as JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-registry-'));
    try {
      const mixedCase = structuredClone(manifest);
      (mixedCase.chains[1]!.protocols.tokens as { weth: string }).weth = '0xABCDEF0000000000000000000000000000000001';
      await writeDevnetRegistry(mixedCase, join(dir, 'registry.json'));
      const written = JSON.parse(await readFile(join(dir, 'registry.json'), 'utf8'));
      expect(written.dapps.find((dapp: { id: string }) => dapp.id === 'weth').contracts.sepolia).toEqual(['0xabcdef0000000000000000000000000000000001']);
      expect(written.burn_addresses).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
