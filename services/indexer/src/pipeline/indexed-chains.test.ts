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
  const chains = [
    chain('ethereum'),
    chain('base'),
    chain('solana', { family: ChainFamily.CHAIN_FAMILY_SOLANA }),
    chain('quiet', { supportsTransactions: false }),
    chain('other', { family: 7 as ChainFamily }),
  ];

  test('keeps EVM and Solana chains with transaction history, with their family, RPC URL and finality depth', () => {
    expect(selectIndexedChains(chains, { defaultFinalityDepth: 12, finalityDepths: { base: 3 } })).toEqual([
      { id: 'ethereum', family: 'evm', rpcUrl: 'http://ethereum.rpc:8545', finalityDepth: 12 },
      { id: 'base', family: 'evm', rpcUrl: 'http://base.rpc:8545', finalityDepth: 3 },
      { id: 'solana', family: 'solana', rpcUrl: 'http://solana.rpc:8545', finalityDepth: 12 },
    ]);
  });

  test('restricts to the configured chains and rejects chains it cannot index', () => {
    expect(selectIndexedChains(chains, { only: ['base'], defaultFinalityDepth: 12, finalityDepths: {} }).map((selected) => selected.id)).toEqual(['base']);
    expect(selectIndexedChains(chains, { only: ['solana'], defaultFinalityDepth: 12, finalityDepths: {} }).map((selected) => selected.family)).toEqual([
      'solana',
    ]);
    expect(() => selectIndexedChains(chains, { only: ['base', 'other', 'quiet'], defaultFinalityDepth: 12, finalityDepths: {} })).toThrow(
      'INDEXER_CHAINS names other, quiet, which is not an EVM or Solana chain with supports_transactions',
    );
  });
});

describe('finalityDepthsFromEnv', () => {
  test('reads one depth per chain id, dashes written as underscores', () => {
    expect(
      finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: '3', INDEXER_FINALITY_DEPTH_ARBITRUM_NOVA: '20', INDEXER_FINALITY_DEPTH: '12', OTHER: 'x' }),
    ).toEqual({
      base: 3,
      'arbitrum-nova': 20,
    });
  });

  test('rejects a depth that is not a positive integer', () => {
    expect(() => finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: 'deep' })).toThrow('INDEXER_FINALITY_DEPTH_BASE must be a positive integer, got "deep"');
    expect(() => finalityDepthsFromEnv({ INDEXER_FINALITY_DEPTH_BASE: '0' })).toThrow('positive integer');
  });
});
