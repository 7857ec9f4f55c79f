import { readFileSync } from 'node:fs';
import { Network } from '@wallet-api/core/proto/common';
import { parseChainsConfig, rpcOverrideVariable } from './chain-config.js';
import { createChainRegistry } from './chain-registry.js';

const shipped = JSON.parse(readFileSync(new URL('../../config/chains.json', import.meta.url), 'utf8'));

function withChain(patch: (chain: Record<string, any>) => void) {
  const copy = structuredClone(shipped);
  patch(copy.chains[0]);
  return copy;
}

describe('chains configuration', () => {
  test('the shipped file declares ethereum and base mainnets and the sepolia testnet', () => {
    const chains = parseChainsConfig(shipped);
    expect(chains.map((chain) => [chain.id, chain.network, chain.evm_chain_id])).toEqual([
      ['ethereum', 'mainnet', 1],
      ['base', 'mainnet', 8453],
      ['sepolia', 'testnet', 11155111],
    ]);
  });

  test.each([
    ['a missing flag', (chain: Record<string, any>) => delete chain.flags.supports_bridge, 'flags.supports_bridge'],
    ['an explorer format without its placeholder', (chain: Record<string, any>) => (chain.explorer.tx_url_format = 'https://x.test/tx/'), 'explorer.tx_url_format'],
    ['an uppercase id', (chain: Record<string, any>) => (chain.id = 'Ethereum'), 'id'],
    ['an EVM chain without chain id', (chain: Record<string, any>) => delete chain.evm_chain_id, 'evm_chain_id'],
  ])('refuses %s, naming the field', (_name, patch, field) => {
    expect(() => parseChainsConfig(withChain(patch))).toThrow(field);
  });

  test('refuses duplicate chain ids', () => {
    const copy = structuredClone(shipped);
    copy.chains.push(copy.chains[0]);
    expect(() => parseChainsConfig(copy)).toThrow(/unique/);
  });

  test('an environment variable overrides a chain RPC URL', () => {
    expect(rpcOverrideVariable('base')).toBe('CHAIN_RPC_URL_BASE');
    const chains = parseChainsConfig(shipped, { CHAIN_RPC_URL_BASE: 'http://10.0.0.5:8545' });
    expect(chains.find((chain) => chain.id === 'base')!.rpc.url).toBe('http://10.0.0.5:8545');
    expect(() => parseChainsConfig(shipped, { CHAIN_RPC_URL_BASE: 'not a url' })).toThrow();
  });
});

describe('chain registry', () => {
  const registry = createChainRegistry(parseChainsConfig(shipped));

  test('keeps mainnets and testnets apart', () => {
    expect(registry.list(Network.NETWORK_MAINNET).map((chain) => chain.id)).toEqual(['ethereum', 'base']);
    expect(registry.list(Network.NETWORK_TESTNET).map((chain) => chain.id)).toEqual(['sepolia']);
    expect(registry.get(Network.NETWORK_MAINNET, 'sepolia')).toBeUndefined();
    expect(registry.get(Network.NETWORK_TESTNET, 'sepolia')?.externalId).toBe('0xaa36a7');
  });

  test('derives the hex external id and carries every flag', () => {
    const base = registry.get(Network.NETWORK_MAINNET, 'base')!;
    expect(base.externalId).toBe('0x2105');
    expect(base.evmChainId).toBe('8453');
    expect(base.flags).toEqual({
      supportsTrading: true,
      supportsSending: true,
      supportsBridge: true,
      supportsTransactions: true,
      supportsPositions: true,
      supportsNftPositions: true,
    });
  });
});
