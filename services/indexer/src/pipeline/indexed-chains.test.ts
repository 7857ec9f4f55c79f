import { Chain, ChainFamily } from '@wallet-api/core/proto/reference_data';
import { finalityDepthsFromEnv, selectIndexedChains } from './indexed-chains.js';

function chain(id: string, overrides: { family?: ChainFamily; supportsTransactions?: boolean } = {}): Chain {
  return Chain.fromPartial({
    id,
    family: overrides.family ?? ChainFamily.CHAIN_FAMILY_EVM,
    flags: { supportsTransactions: overrides.supportsTransactions ?? true },
    rpc: { internalServerUrlFormat: `http://${id}.rpc:8545`, publicServersUrl: [] },
  });
}

describe('selectIndexedChains', () => {
  const chains = [chain('ethereum'), chain('base'), chain('solana', { family: ChainFamily.CHAIN_FAMILY_SOLANA }), chain('quiet', { supportsTransactions: false })];

  test('keeps EVM chains with transaction history, with their RPC URL and finality depth', () => {
    expect(selectIndexedChains(chains, { defaultFinalityDepth: 12, finalityDepths: { base: 3 } })).toEqual([
      { id: 'ethereum', rpcUrl: 'http://ethereum.rpc:8545', finalityDepth: 12 },
      { id: 'base', rpcUrl: 'http://base.rpc:8545', finalityDepth: 3 },
    ]);
  });

  test('restricts to the configured chains and rejects chains it cannot index', () => {
    expect(selectIndexedChains(chains, { only: ['base'], defaultFinalityDepth: 12, finalityDepths: {} }).map((selected) => selected.id)).toEqual(['base']);
    expect(() => selectIndexedChains(chains, { only: ['base', 'solana', 'quiet'], defaultFinalityDepth: 12, finalityDepths: {} })).toThrow(
      'INDEXER_CHAINS names solana, quiet, which is not an EVM chain with supports_transactions',
    );
  });
});

describe('finalityDepthsFromEnv', () => {
  test('reads one depth per chain id, dashes written as underscores', () => {
    expect(finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: '3', INDEXER_FINALITY_DEPTH_ARBITRUM_NOVA: '20', INDEXER_FINALITY_DEPTH: '12', OTHER: 'x' })).toEqual({
      base: 3,
      'arbitrum-nova': 20,
    });
  });

  test('rejects a depth that is not a positive integer', () => {
    expect(() => finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: 'deep' })).toThrow('INDEXER_FINALITY_DEPTH_BASE must be a positive integer, got "deep"');
    expect(() => finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: '0' })).toThrow('positive integer');
  });
});
