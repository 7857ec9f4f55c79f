import { randomBytes } from 'node:crypto';
import { eventually, setupPostgresDatabase, testLogger, uniqueName, type PostgresDatabase } from '@wallet-api/core/testing';
import { loadChainsConfig, type ChainConfig } from '../src/chains/chain-config.js';
import { createFungibleSources, type FungibleSources } from '../src/fungibles/fungible-sources.js';
import { MatchTier } from '../src/fungibles/fungible-search-index.js';
import { loadRegistryConfig, type RegistryConfig } from '../src/registry/registry-config.js';
import { createRegistry } from '../src/registry/registry.js';
import { createListedTokenStore } from '../src/store/listed-token-store.js';
import { createTokenStore, type TokenStore } from '../src/store/token-store.js';

// The fungibles list's search index over the shipped and test-world registries, the chains
// configuration and token metadata in a PostgreSQL database of the suite's own: what it holds,
// what it leaves out, and that tokens stored later are found once it is rebuilt.

const config = new URL('../config/', import.meta.url).pathname;
const devnetRegistry = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;
const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;

let database: PostgresDatabase;
let chains: ChainConfig[];
let registryConfig: RegistryConfig;
let tokens: TokenStore;
let sources: FungibleSources;

beforeAll(async () => {
  database = await setupPostgresDatabase(uniqueName('fungibles_search'));
  chains = await loadChainsConfig(`${config}chains.json`, {});
  registryConfig = await loadRegistryConfig([`${config}registry.json`, devnetRegistry]);
  tokens = createTokenStore(database.prisma);
  const registry = createRegistry(registryConfig);
  // Rebuilt on every call after the first (in the background): tokens stored by a test show up on a later call.
  sources = createFungibleSources({ chains, registryConfig, registry, tokens: createListedTokenStore(database.prisma), logger: testLogger, refreshMs: 0 });
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe('fungibles search index', () => {
  test("holds every registry token and every chain's native asset, each found by its exact symbol first", async () => {
    const index = await sources.index();
    for (const token of registryConfig.tokens) {
      const entry = index.byId(token.fungible_id);
      expect({ id: token.fungible_id, verified: entry?.verified }).toEqual({ id: token.fungible_id, verified: true });
      const match = index.search(token.symbol.toLowerCase()).find((found) => found.fungible.id === token.fungible_id);
      expect(match?.tier).toBe(MatchTier.ExactSymbol);
    }
    for (const chain of chains) {
      expect(index.byImplementation(chain.id, '')?.id).toBe(chain.native_fungible_id);
      expect(index.search(chain.native.symbol).map((found) => found.fungible.id)).toContain(chain.native_fungible_id);
    }
  });

  test('tokens stored in token metadata later are found once the index is rebuilt; spam, look-alikes and NFTs never are', async () => {
    const spamListed = Object.entries(registryConfig.spam_tokens).find(([chainId]) => chains.some((chain) => chain.id === chainId && chain.family === 'evm'))!;
    const stored = {
      zebra: { chainId: 'ethereum', address: randomAddress(), interface: 'erc20' as const, name: 'Zebra Stripes Finance', symbol: 'ZBRX', decimals: 18 },
      lookAlike: { chainId: 'ethereum', address: randomAddress(), interface: 'erc20' as const, name: 'USD Coin', symbol: 'USDC', decimals: 6 },
      bait: { chainId: 'base', address: randomAddress(), interface: 'erc20' as const, name: 'Visit zebra-gift.com to claim', symbol: 'ZBRGIFT', decimals: 18 },
      listed: {
        chainId: spamListed[0],
        address: spamListed[1][0]!.toLowerCase(),
        interface: 'erc20' as const,
        name: 'Zebra Listed Spam',
        symbol: 'ZBRSPAM',
        decimals: 18,
      },
      nft: { chainId: 'ethereum', address: randomAddress(), interface: 'erc721' as const, name: 'Zebra Pictures', symbol: 'ZBRNFT', decimals: 0 },
    };
    await tokens.save(Object.values(stored));
    const zebra = await eventually(async () => {
      const index = await sources.index();
      const found = index.byImplementation('ethereum', stored.zebra.address.toUpperCase().replace('0X', '0x'));
      if (!found) throw new Error('not in the index yet');
      return { index, found };
    });
    expect(zebra.found).toMatchObject({ name: 'Zebra Stripes Finance', symbol: 'ZBRX', verified: false, native: false });
    const { index } = zebra;
    const tiers = (query: string) => Object.fromEntries(index.search(query).map((match) => [match.fungible.symbol, match.tier]));
    expect(tiers('zbr')).toEqual({ ZBRX: MatchTier.SymbolPrefix });
    expect(tiers('ZEBRA')).toEqual({ ZBRX: MatchTier.NamePrefix });
    expect(tiers('stripes')).toEqual({ ZBRX: MatchTier.WordOrSubstring });
    for (const left of [stored.lookAlike, stored.bait, stored.listed, stored.nft]) expect(index.byImplementation(left.chainId, left.address)).toBeUndefined();
    // The one USDC served is the registry's.
    expect(index.search('usdc').map((match) => [match.fungible.id, match.fungible.verified])).toEqual([['usdc', true]]);
  });
});
