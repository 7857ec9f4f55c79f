import { readFileSync } from 'node:fs';
import { getAddress } from 'viem';
import { mergeRegistries, parseRegistryConfig, registryPaths, type RegistryConfig } from './registry-config.js';
import { createRegistry } from './registry.js';

const shipped = JSON.parse(readFileSync(new URL('../../config/registry.json', import.meta.url), 'utf8'));

const usdcMainnet = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const devnetUsdc = '0x31149fa789dbf4da89356bd966d716b5c7d12497';
const devnetPair = '0x2b187d58bbd15bc6bd274097863f043d4ae13df6';

function registryOf(json: unknown): RegistryConfig {
  return parseRegistryConfig(json, 'test');
}

describe('registry configuration', () => {
  test('the shipped file parses, with lowercase addresses', () => {
    const config = registryOf(shipped);
    expect(config.dapps.map((dapp) => dapp.id)).toEqual(['uniswap-v2', 'uniswap-v3', 'weth', 'erc-4337']);
    expect(config.tokens.find((token) => token.fungible_id === 'usdc')!.implementations[0]).toEqual({ chain_id: 'ethereum', address: usdcMainnet.toLowerCase() });
  });

  test.each([
    ['a mistyped checksummed address', { burn_addresses: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB4A'] }, 'burn_addresses.0'],
    ['a dapp id over 32 characters', { dapps: [{ id: 'a'.repeat(33), name: 'x' }] }, 'dapps.0.id'],
    ['a fungible id over 44 characters', { tokens: [{ fungible_id: 'a'.repeat(45), symbol: 'A', name: 'A', implementations: [{ chain_id: 'ethereum', address: devnetUsdc }] }] }, 'tokens.0.fungible_id'],
    ['an uppercase chain id', { spam_tokens: { Ethereum: [devnetUsdc] } }, 'spam_tokens.Ethereum'],
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
});

describe('registry lookups', () => {
  const registry = createRegistry(
    mergeRegistries([
      registryOf(shipped),
      registryOf({ dapps: [{ id: 'uniswap-v2', name: 'Uniswap V2', contracts: { base: [devnetPair] } }], spam_tokens: { base: [devnetUsdc] }, burn_addresses: ['0x0000000000000000000000000000000000000001'] }),
    ]),
  );

  test('finds a contract\'s dapp whatever the case of the address, on its chain only', () => {
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
