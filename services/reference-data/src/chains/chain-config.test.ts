import { readFileSync } from 'node:fs';
import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import { parseChainsConfig, rpcOverrideVariable } from './chain-config.js';
import { createChainRegistry } from './chain-registry.js';

const shipped = JSON.parse(readFileSync(new URL('../../config/chains.json', import.meta.url), 'utf8'));

function withChain(patch: (chain: Record<string, any>) => void) {
  const copy = structuredClone(shipped);
  patch(copy.chains[0]);
  return copy;
}

describe('chains configuration', () => {
  test('the shipped file declares ethereum, base and solana mainnets and the sepolia and solana-devnet testnets', () => {
    const chains = parseChainsConfig(shipped);
    expect(chains.map((chain) => [chain.id, chain.network, chain.family, chain.evm_chain_id])).toEqual([
      ['ethereum', 'mainnet', 'evm', 1],
      ['base', 'mainnet', 'evm', 8453],
      ['sepolia', 'testnet', 'evm', 11155111],
      ['solana', 'mainnet', 'solana', undefined],
      ['solana-devnet', 'testnet', 'solana', undefined],
    ]);
  });

  test('the Solana chains carry SOL with 9 decimals, their local RPC servers and no trading, bridge or NFT positions', () => {
    const chains = parseChainsConfig(shipped).filter((chain) => chain.family === 'solana');
    expect(
      chains.map((chain) => [chain.id, chain.external_id, chain.rpc.url, chain.native, chain.native_fungible_id, chain.wrapped_native_fungible_id]),
    ).toEqual([
      ['solana', 'solana', 'http://127.0.0.1:18899', { name: 'Solana', symbol: 'SOL', decimals: 9 }, 'sol', null],
      ['solana-devnet', 'solana-devnet', 'http://127.0.0.1:18900', { name: 'Solana', symbol: 'SOL', decimals: 9 }, 'sol', null],
    ]);
    for (const chain of chains) {
      expect(chain.flags).toEqual({
        supports_trading: false,
        supports_sending: true,
        supports_bridge: false,
        supports_transactions: true,
        supports_positions: true,
        supports_nft_positions: false,
      });
    }
    expect(rpcOverrideVariable('solana-devnet')).toBe('CHAIN_RPC_URL_SOLANA_DEVNET');
  });

  test('refuses a Solana chain without external id', () => {
    const copy = structuredClone(shipped);
    delete copy.chains.find((chain: { id: string }) => chain.id === 'solana').external_id;
    expect(() => parseChainsConfig(copy)).toThrow('external_id');
  });

  test.each([
    ['a missing flag', (chain: Record<string, any>) => delete chain.flags.supports_bridge, 'flags.supports_bridge'],
    [
      'an explorer format without its placeholder',
      (chain: Record<string, any>) => (chain.explorer.tx_url_format = 'https://x.test/tx/'),
      'explorer.tx_url_format',
    ],
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
    expect(registry.list(Network.NETWORK_MAINNET).map((chain) => chain.id)).toEqual(['ethereum', 'base', 'solana']);
    expect(registry.list(Network.NETWORK_TESTNET).map((chain) => chain.id)).toEqual(['sepolia', 'solana-devnet']);
    expect(registry.get(Network.NETWORK_MAINNET, 'solana-devnet')).toBeUndefined();
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

  test('serves a Solana chain with its configured external id, the Solana family and no wrapped native fungible', () => {
    const solana = registry.get(Network.NETWORK_MAINNET, 'solana')!;
    expect(solana).toMatchObject({
      externalId: 'solana',
      family: ChainFamily.CHAIN_FAMILY_SOLANA,
      evmChainId: '0',
      nativeFungibleId: 'sol',
      wrappedNativeFungibleId: '',
      explorer: {
        name: 'Solscan',
        tokenUrlFormat: 'https://solscan.io/token/{ADDRESS}',
        txUrlFormat: 'https://solscan.io/tx/{HASH}',
        homeUrl: 'https://solscan.io',
      },
    });
    expect(registry.get(Network.NETWORK_TESTNET, 'solana-devnet')?.explorer?.tokenUrlFormat).toBe(
      'https://explorer.solana.com/address/{ADDRESS}?cluster=devnet',
    );
  });
});
