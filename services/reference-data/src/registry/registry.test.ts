import { readFileSync } from 'node:fs';
import { getAddress } from 'viem';
import { mergeRegistries, parseRegistryConfig, registryPaths, type RegistryConfig } from './registry-config.js';
import { createRegistry, registryFamilyProblems } from './registry.js';

const shipped = JSON.parse(readFileSync(new URL('../../config/registry.json', import.meta.url), 'utf8'));

const usdcMainnet = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const devnetUsdc = '0x31149fa789dbf4da89356bd966d716b5c7d12497';
const devnetPair = '0x2b187d58bbd15bc6bd274097863f043d4ae13df6';
// Solana addresses are base58 and case-sensitive; these two differ in the case of one letter only.
const solanaUsdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const solanaLookalike = 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const solanaSpam = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const solanaWallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const families = new Map([
  ['ethereum', 'evm' as const],
  ['base', 'evm' as const],
  ['solana', 'solana' as const],
]);

function registryOf(json: unknown): RegistryConfig {
  return parseRegistryConfig(json, 'test');
}

describe('registry configuration', () => {
  test('the shipped file parses, with lowercase addresses', () => {
    const config = registryOf(shipped);
    expect(config.dapps.map((dapp) => dapp.id)).toEqual(['uniswap-v2', 'uniswap-v3', 'weth', 'erc-4337']);
    expect(config.tokens.find((token) => token.fungible_id === 'usdc')!.implementations[0]).toEqual({
      chain_id: 'ethereum',
      address: usdcMainnet.toLowerCase(),
    });
  });

  test.each([
    ['a mistyped checksummed address', { burn_addresses: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB4A'] }, 'burn_addresses.0'],
    ['a dapp id over 32 characters', { dapps: [{ id: 'a'.repeat(33), name: 'x' }] }, 'dapps.0.id'],
    [
      'a fungible id over 44 characters',
      { tokens: [{ fungible_id: 'a'.repeat(45), symbol: 'A', name: 'A', implementations: [{ chain_id: 'ethereum', address: devnetUsdc }] }] },
      'tokens.0.fungible_id',
    ],
    ['an uppercase chain id', { spam_tokens: { Ethereum: [devnetUsdc] } }, 'spam_tokens.Ethereum'],
    [
      'an unknown asset class',
      {
        tokens: [
          { fungible_id: 'usdc', symbol: 'USDC', name: 'USD Coin', asset_class: 'rwa', implementations: [{ chain_id: 'ethereum', address: devnetUsdc }] },
        ],
      },
      'tokens.0.asset_class',
    ],
    [
      'a V3 protocol without its position manager',
      { protocols: { ethereum: { uniswap_v3: [{ factory: devnetPair }] } } },
      'protocols.ethereum.uniswap_v3.0.position_manager',
    ],
    [
      'pricing without a stablecoin',
      { pricing: { ethereum: { usd_stablecoins: [], wrapped_native: devnetPair, min_liquidity_usd: 1 } } },
      'pricing.ethereum.usd_stablecoins',
    ],
    [
      'the wrapped native token listed as a stablecoin',
      { pricing: { ethereum: { usd_stablecoins: [devnetUsdc], wrapped_native: devnetUsdc, min_liquidity_usd: 1 } } },
      'pricing.ethereum.wrapped_native',
    ],
    [
      'a negative liquidity threshold',
      { pricing: { ethereum: { usd_stablecoins: [devnetUsdc], wrapped_native: devnetPair, min_liquidity_usd: -1 } } },
      'pricing.ethereum.min_liquidity_usd',
    ],
    [
      'a deviation bound of zero',
      { pricing: { ethereum: { usd_stablecoins: [devnetUsdc], wrapped_native: devnetPair, min_liquidity_usd: 1, max_deviation: 0 } } },
      'pricing.ethereum.max_deviation',
    ],
    [
      'an implementation address of neither family',
      { tokens: [{ fungible_id: 'usdc', symbol: 'USDC', name: 'USD Coin', implementations: [{ chain_id: 'solana', address: 'not-a-mint' }] }] },
      'tokens.0.implementations.0.address',
    ],
    ['base58 that does not decode to 32 bytes', { spam_tokens: { solana: [solanaUsdc.slice(0, 30)] } }, 'spam_tokens.solana.0'],
    [
      'a Solana address as a pricing stablecoin (priced chains are EVM chains)',
      { pricing: { solana: { usd_stablecoins: [solanaUsdc], wrapped_native: devnetPair, min_liquidity_usd: 1 } } },
      'pricing.solana.usd_stablecoins.0',
    ],
  ])('refuses %s, naming the field', (_name, json, field) => {
    expect(() => registryOf(json)).toThrow(field);
  });

  test('REGISTRY_PATHS is a comma-separated list', () => {
    expect(registryPaths(' /a.json, ,/b.json ')).toEqual(['/a.json', '/b.json']);
    expect(registryPaths(undefined)).toEqual([]);
  });

  test('a later file adds contracts and implementations to the dapps and tokens it shares ids with', () => {
    const merged = mergeRegistries([
      registryOf(shipped),
      registryOf({
        dapps: [{ id: 'uniswap-v2', name: 'Uniswap V2 (devnet)', contracts: { ethereum: [devnetPair] } }],
        tokens: [{ fungible_id: 'usdc', symbol: 'USDC', name: 'USD Coin', implementations: [{ chain_id: 'ethereum', address: devnetUsdc }] }],
        spam_tokens: { ethereum: ['0x220c46b70e341fb10994b98165d1466053397a8e'] },
      }),
    ]);
    const v2 = merged.dapps.find((dapp) => dapp.id === 'uniswap-v2')!;
    expect(v2.name).toBe('Uniswap V2 (devnet)');
    expect(v2.contracts.ethereum).toEqual(['0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f', '0x7a250d5630b4cf539739df2c5dacb4c659f2488d', devnetPair]);
    expect(merged.tokens.find((token) => token.fungible_id === 'usdc')!.implementations.map((entry) => entry.address)).toEqual([
      usdcMainnet.toLowerCase(),
      '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      devnetUsdc,
    ]);
    expect(merged.high_volume_addresses).toHaveLength(1);
  });

  test("a later file replaces a chain's protocols and pricing whole, and keeps the other chains'", () => {
    const devnetFactory = '0x255ebd3069559d6db2efe9f2dfd96dca6adb6a20';
    const merged = mergeRegistries([
      registryOf(shipped),
      registryOf({
        protocols: { ethereum: { uniswap_v2: [{ factory: devnetFactory, pairs: [devnetPair] }], vaults: [devnetUsdc] } },
        pricing: { ethereum: { usd_stablecoins: [devnetUsdc], wrapped_native: devnetPair, min_liquidity_usd: 10_000 } },
      }),
    ]);
    expect(merged.protocols.ethereum).toEqual({
      uniswap_v2: [{ factory: devnetFactory, pairs: [devnetPair] }],
      uniswap_v3: [],
      vaults: [devnetUsdc],
      staking: [],
      lending: [],
      nft_markets: [],
    });
    expect(merged.pricing.ethereum).toEqual({
      usd_stablecoins: [devnetUsdc],
      wrapped_native: devnetPair,
      btc: [],
      min_liquidity_usd: 10_000,
      max_deviation: 0.1,
    });
    expect(merged.pricing.base!.wrapped_native).toBe('0x4200000000000000000000000000000000000006');
  });

  test('a later file adds non-circulating holders and keeps an asset class it does not restate', () => {
    const holder = { chain_id: 'ethereum', address: devnetPair };
    const merged = mergeRegistries([
      registryOf(shipped),
      registryOf({
        tokens: [
          {
            fungible_id: 'usdc',
            symbol: 'USDC',
            name: 'USD Coin',
            implementations: [{ chain_id: 'ethereum', address: devnetUsdc }],
            non_circulating_holders: [holder],
          },
        ],
      }),
    ]);
    const usdc = merged.tokens.find((token) => token.fungible_id === 'usdc')!;
    expect(usdc.asset_class).toBe('stablecoin');
    expect(usdc.non_circulating_holders).toEqual([holder]);
  });
});

describe('Solana addresses in the registry', () => {
  const config = registryOf({
    dapps: [{ id: 'jupiter', name: 'Jupiter', contracts: { solana: ['JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'] } }],
    tokens: [
      {
        fungible_id: 'usdc',
        symbol: 'USDC',
        name: 'USD Coin',
        implementations: [
          { chain_id: 'ethereum', address: usdcMainnet },
          { chain_id: 'solana', address: solanaUsdc },
        ],
        non_circulating_holders: [{ chain_id: 'solana', address: solanaWallet }],
      },
    ],
    spam_tokens: { solana: [solanaSpam], ethereum: [devnetUsdc] },
    burn_addresses: ['1nc1nerator11111111111111111111111111111111'],
    high_volume_addresses: [{ address: solanaWallet, name: 'Solana exchange wallet' }],
  });

  test('are kept as written next to lowercased EVM addresses', () => {
    expect(config.tokens[0]!.implementations).toEqual([
      { chain_id: 'ethereum', address: usdcMainnet.toLowerCase() },
      { chain_id: 'solana', address: solanaUsdc },
    ]);
    expect(config.tokens[0]!.non_circulating_holders).toEqual([{ chain_id: 'solana', address: solanaWallet }]);
    expect(config.spam_tokens).toEqual({ solana: [solanaSpam], ethereum: [devnetUsdc] });
    expect(config.burn_addresses).toEqual(['1nc1nerator11111111111111111111111111111111']);
    expect(config.high_volume_addresses).toEqual([{ address: solanaWallet, name: 'Solana exchange wallet' }]);
    expect(config.dapps[0]!.contracts.solana).toEqual(['JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4']);
  });

  test('are looked up exactly: a mint differing only in case is another mint', () => {
    const registry = createRegistry(config, families);
    expect(registry.verifiedToken('solana', solanaUsdc)?.fungibleId).toBe('usdc');
    expect(registry.verifiedToken('solana', solanaLookalike)).toBeUndefined();
    expect(registry.verifiedToken('solana', solanaUsdc.toLowerCase())).toBeUndefined();
    expect(registry.verifiedToken('ethereum', usdcMainnet)?.fungibleId).toBe('usdc');
    expect(registry.verifiedImplementationsBySymbol('usdc')).toEqual([
      { chainId: 'ethereum', address: usdcMainnet.toLowerCase() },
      { chainId: 'solana', address: solanaUsdc },
    ]);
    expect(registry.isListedSpam('solana', solanaSpam)).toBe(true);
    expect(registry.isListedSpam('solana', solanaSpam.toLowerCase())).toBe(false);
    expect(registry.isListedSpam('ethereum', devnetUsdc.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(registry.isConfiguredBurn('1nc1nerator11111111111111111111111111111111')).toBe(true);
    expect(registry.highVolumeName(solanaWallet)).toBe('Solana exchange wallet');
    expect(registry.highVolumeName(solanaWallet.toLowerCase())).toBeUndefined();
    expect(registry.dappForContract('solana', 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4')?.id).toBe('jupiter');
  });

  test('a chain-keyed address of the other family than its chain is refused, naming entry, chain and address', () => {
    const mixed = registryOf({
      tokens: [
        {
          fungible_id: 'usdc',
          symbol: 'USDC',
          name: 'USD Coin',
          implementations: [
            { chain_id: 'solana', address: devnetUsdc },
            { chain_id: 'base', address: solanaUsdc },
          ],
        },
      ],
      spam_tokens: { solana: [devnetPair] },
      // A chain the configuration does not know is not checked.
      dapps: [{ id: 'elsewhere', name: 'Elsewhere', contracts: { polygon: [solanaUsdc] } }],
    });
    expect(registryFamilyProblems(mixed, families)).toEqual([
      `tokens usdc implementation: ${devnetUsdc} on solana is not a Solana address`,
      `tokens usdc implementation: ${solanaUsdc} on base is not an EVM address`,
      `spam_tokens: ${devnetPair} on solana is not a Solana address`,
    ]);
    expect(() => createRegistry(mixed, families)).toThrow(`${solanaUsdc} on base is not an EVM address`);
    // Without the chains' families the registry cannot tell, and builds.
    expect(() => createRegistry(mixed)).not.toThrow();
  });

  test('a later file adds a Solana implementation to an EVM fungible, case kept', () => {
    const merged = mergeRegistries([
      registryOf(shipped),
      registryOf({ tokens: [{ fungible_id: 'usdc', symbol: 'USDC', name: 'USD Coin', implementations: [{ chain_id: 'solana', address: solanaUsdc }] }] }),
    ]);
    expect(merged.tokens.find((token) => token.fungible_id === 'usdc')!.implementations.at(-1)).toEqual({ chain_id: 'solana', address: solanaUsdc });
    expect(
      createRegistry(merged, families)
        .fungible('usdc')!
        .implementations.map((entry) => entry.chain_id),
    ).toEqual(['ethereum', 'base', 'solana']);
  });
});

describe('registry lookups', () => {
  const registry = createRegistry(
    mergeRegistries([
      registryOf(shipped),
      registryOf({
        dapps: [{ id: 'uniswap-v2', name: 'Uniswap V2', contracts: { base: [devnetPair] } }],
        spam_tokens: { base: [devnetUsdc] },
        burn_addresses: ['0x0000000000000000000000000000000000000001'],
      }),
    ]),
  );

  test("finds a contract's dapp whatever the case of the address, on its chain only", () => {
    expect(registry.dappForContract('base', devnetPair.toUpperCase().replace('0X', '0x'))?.id).toBe('uniswap-v2');
    expect(registry.dappForContract('ethereum', devnetPair)).toBeUndefined();
    expect(registry.dappForContract('ethereum', '0x7A250D5630B4CF539739DF2C5DACB4C659F2488D')?.name).toBe('Uniswap V2');
  });

  test('answers verified tokens, symbols, spam, burn and high-volume addresses', () => {
    expect(registry.verifiedToken('base', '0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913')?.fungibleId).toBe('usdc');
    expect(registry.verifiedToken('base', usdcMainnet)).toBeUndefined();
    expect(registry.isVerifiedSymbol('usdc')).toBe(true);
    expect(registry.verifiedImplementationsBySymbol('Usdc').map((ref) => ref.chainId)).toEqual(['ethereum', 'base']);
    expect(registry.isListedSpam('base', devnetUsdc)).toBe(true);
    expect(registry.isListedSpam('ethereum', devnetUsdc)).toBe(false);
    expect(registry.isConfiguredBurn('0x0000000000000000000000000000000000000001')).toBe(true);
    expect(registry.highVolumeName('0x28c6c06298d514db089934071355e5743bf21d60')).toBe('Binance hot wallet');
  });

  test("answers a chain's protocols and pricing, and empty protocols and no pricing for a chain it does not describe", () => {
    expect(registry.protocols('ethereum').uniswap_v3).toEqual([
      { factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984', position_manager: '0xc36442b4a4522e871399cd717abdd847ab11fe88' },
    ]);
    expect(registry.protocols('sepolia')).toEqual({ uniswap_v2: [], uniswap_v3: [], vaults: [], staking: [], lending: [], nft_markets: [] });
    expect(registry.pricing('ethereum')?.btc).toEqual(['0x2260fac5e5542a773aa44fbcfedf7c193bc2c599']);
    expect(registry.pricing('sepolia')).toBeUndefined();
  });

  test('refuses a contract claimed by two dapps', () => {
    const config = registryOf({
      dapps: [
        { id: 'one', name: 'One', contracts: { ethereum: [devnetPair] } },
        { id: 'two', name: 'Two', contracts: { ethereum: [getAddress(devnetPair)] } },
      ],
    });
    expect(() => createRegistry(config)).toThrow(`ethereum contract ${devnetPair} is listed under both one and two`);
  });
});
