import { readFileSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import { parseChainsConfig } from '../chains/chain-config.js';
import { parseRegistryConfig } from '../registry/registry-config.js';
import { createRegistry } from '../registry/registry.js';
import type { PriceLookup, StoredPrice } from '../store/price-store.js';
import { fxTableSchema } from './currencies.js';
import type { DerivedTokens } from './derived-tokens.js';
import type { PriceHistory } from './price-history.js';
import { createPriceOracle, type PriceQuery } from './price-oracle.js';

const chains = parseChainsConfig(JSON.parse(readFileSync(new URL('../../config/chains.json', import.meta.url), 'utf8')));
const fx = fxTableSchema.parse(JSON.parse(readFileSync(new URL('../../config/fx-rates.json', import.meta.url), 'utf8')));

const ethereumUsdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const baseUsdc = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const ethereumWeth = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const baseWeth = '0x4200000000000000000000000000000000000006';
const ethereumGov = '0x31149fa789dbf4da89356bd966d716b5c7d12497';
const baseGov = '0x2b187d58bbd15bc6bd274097863f043d4ae13df6';
const solanaUsdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const devnetUsdc = 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const solanaGov = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const unlistedMint = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const registry = createRegistry(
  parseRegistryConfig(
    {
      tokens: [
        {
          fungible_id: 'usdc',
          symbol: 'USDC',
          name: 'USD Coin',
          implementations: [
            { chain_id: 'ethereum', address: ethereumUsdc },
            { chain_id: 'base', address: baseUsdc },
            { chain_id: 'solana', address: solanaUsdc },
            { chain_id: 'solana-devnet', address: devnetUsdc },
          ],
        },
        {
          fungible_id: 'weth',
          symbol: 'WETH',
          name: 'Wrapped Ether',
          implementations: [
            { chain_id: 'ethereum', address: ethereumWeth },
            { chain_id: 'base', address: baseWeth },
          ],
        },
        {
          fungible_id: 'gov',
          symbol: 'GOV',
          name: 'Governance',
          implementations: [
            { chain_id: 'ethereum', address: ethereumGov },
            { chain_id: 'base', address: baseGov },
            { chain_id: 'solana', address: solanaGov },
          ],
        },
      ],
      pricing: {
        ethereum: { usd_stablecoins: [ethereumUsdc], wrapped_native: ethereumWeth, min_liquidity_usd: 1 },
        base: { usd_stablecoins: [baseUsdc], wrapped_native: baseWeth, min_liquidity_usd: 1 },
      },
    },
    'test',
  ),
  new Map(chains.map((chain) => [chain.id, chain.family])),
);

/** Each chain's own price of a token (from its pools), whatever the time. */
const chainPrices = new Map<string, StoredPrice>([
  [`ethereum:${ethereumWeth}`, { price: 3_000, depthUsd: 1_000_000 }],
  [`base:${baseWeth}`, { price: 3_010, depthUsd: 1_000_000 }],
  [`ethereum:${ethereumGov}`, { price: 2, depthUsd: 400_000 }],
  [`base:${baseGov}`, { price: 2.1, depthUsd: 100_000 }],
]);

function oracleWith(lookups: PriceLookup[] = [], withRegistry = registry, derived = new Map<string, DerivedTokens>()) {
  const history: PriceHistory = {
    pricesAt: async (asked) => {
      lookups.push(...asked);
      return asked.map((lookup) => chainPrices.get(`${lookup.chainId}:${lookup.token}`));
    },
    prepare: async () => undefined,
    changeTimes: async () => [],
  };
  return createPriceOracle({
    registry: withRegistry,
    networks: new Map(chains.map((chain) => [chain.id, chain.network])),
    chains: new Map(chains.map((chain) => [chain.id, { family: chain.family, nativeFungibleId: chain.native_fungible_id }])),
    history,
    fx,
    derived,
    clocks: new Map(),
    decimals: async () => new Map(),
    currencyChainId: 'ethereum',
  });
}

const now = (chainId: string, address: string): PriceQuery => ({ chainId, address, timestamp: 0 });

describe('prices of Solana tokens: the one price of their fungible', () => {
  test('Solana USDC, in the EVM USDC fungible, is priced as EVM USDC is: one dollar, in every currency alike', async () => {
    const oracle = oracleWith();
    const queries = [now('ethereum', ethereumUsdc), now('base', baseUsdc), now('solana', solanaUsdc)];
    expect(await oracle.prices('usd', queries)).toEqual([1, 1, 1]);
    const [evm, , solana] = await oracle.prices('eur', queries);
    expect(solana).toBe(evm);
    expect(solana).toBeCloseTo(fx.rates.eur);
    // In eth, through the wrapped native price of the currency chain.
    const [inEth] = await oracle.prices('eth', [now('solana', solanaUsdc)]);
    expect(inEth).toBeCloseTo(1 / 3_000);
  });

  test("a Solana token of a market-priced fungible gets the consensus of the EVM chains' pools, the EVM price exactly", async () => {
    const lookups: PriceLookup[] = [];
    const [ethereum, base, solana] = await oracleWith(lookups).prices('usd', [now('ethereum', ethereumGov), now('base', baseGov), now('solana', solanaGov)]);
    expect(solana).toBe(ethereum);
    expect(solana).toBe(base);
    expect(solana).toBeGreaterThan(2);
    expect(solana).toBeLessThan(2.1);
    // The Solana mint has no pools to look up: only the EVM implementations are read.
    expect(new Set(lookups.map((lookup) => lookup.chainId))).toEqual(new Set(['ethereum', 'base']));
  });

  test('without a priced implementation on its network there is no price: SOL, an unlisted mint, a testnet mint of a mainnet-priced fungible', async () => {
    expect(
      await oracleWith().prices('usd', [
        now('solana', ''),
        now('solana', unlistedMint),
        now('solana-devnet', devnetUsdc),
        now('solana-devnet', ''),
        now('sepolia', ''),
      ]),
    ).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  test('SOL is priced only where the registry lists the sol fungible on a priced chain (a bridged SOL with trusted pools)', async () => {
    const bridgedSol = '0xd31a59c85ae9d8edefec411d448f90841571b89c';
    const withSol = createRegistry(
      parseRegistryConfig(
        {
          tokens: [{ fungible_id: 'sol', symbol: 'SOL', name: 'Solana', implementations: [{ chain_id: 'ethereum', address: bridgedSol }] }],
          pricing: { ethereum: { usd_stablecoins: [ethereumUsdc], wrapped_native: ethereumWeth, min_liquidity_usd: 1 } },
        },
        'test',
      ),
    );
    chainPrices.set(`ethereum:${bridgedSol}`, { price: 150, depthUsd: 500_000 });
    try {
      expect(await oracleWith([], withSol).prices('usd', [now('solana', ''), now('ethereum', bridgedSol), now('solana-devnet', '')])).toEqual([
        150,
        150,
        undefined,
      ]);
    } finally {
      chainPrices.delete(`ethereum:${bridgedSol}`);
    }
  });

  test('a Solana mint is matched as written and an address of the wrong form is refused, naming it', async () => {
    const oracle = oracleWith();
    // A mint differing only in case is another, unlisted mint.
    expect(await oracle.prices('usd', [now('solana', devnetUsdc)])).toEqual([undefined]);
    for (const [chainId, address, rule] of [
      ['solana', ethereumUsdc, 'a valid Solana address'],
      ['solana', solanaUsdc.toLowerCase(), 'a valid Solana address'],
      ['ethereum', solanaUsdc, 'a valid EVM address'],
    ] as const) {
      await expect(oracle.prices('usd', [now(chainId, address)])).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        message: `token address ${address} should be ${rule}${rule.includes('Solana') ? ' (base58 mint address)' : ''}`,
      });
    }
  });

  test('EVM tokens keep their prices (lowercased addresses, the native asset as its wrapped token)', async () => {
    const [usdc, ether, sepolia] = await oracleWith().prices('usd', [
      now('ethereum', ethereumUsdc.toUpperCase().replace('0X', '0x')),
      now('ethereum', ''),
      now('sepolia', ethereumWeth),
    ]);
    expect(usdc).toBe(1);
    // The consensus of both chains' WETH pools.
    expect(ether).toBeGreaterThan(3_000);
    expect(ether).toBeLessThan(3_010);
    expect(sepolia).toBeUndefined();
  });
});

describe('price series', () => {
  test("a vault share, priced by a chain read at each block, has no steps; a Solana token has its EVM fungible's", async () => {
    const vault = '0x00000000000000000000000000000000000000f1';
    const vaults = {
      composition: async (address: string) => (address === vault ? { kind: 'vault' as const, asset: ethereumUsdc } : { kind: 'market' as const }),
    } as unknown as DerivedTokens;
    const oracle = oracleWith([], registry, new Map([['ethereum', vaults]]));
    const span = { from: 1_700_000_000, to: 1_700_086_400 };
    const [share, gov, solana, usdc] = await oracle.series('usd', [
      { chainId: 'ethereum', address: vault, ...span },
      { chainId: 'ethereum', address: ethereumGov, ...span },
      { chainId: 'solana', address: solanaGov, ...span },
      { chainId: 'solana', address: solanaUsdc, ...span },
    ]);
    expect(share).toBeUndefined();
    // This history's prices never change: one step each.
    expect(solana).toEqual(gov);
    expect(gov!.times).toEqual([span.from]);
    expect(usdc).toEqual({ times: [span.from], prices: [1] });
  });
});
