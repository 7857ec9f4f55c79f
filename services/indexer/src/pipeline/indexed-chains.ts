import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';

export interface IndexedChain {
  id: string;
  family: 'evm' | 'solana';
  rpcUrl: string;
  /** EVM only: Solana chains are followed at `finalized`, which never forks. */
  finalityDepth: number;
}

export interface IndexedChainSettings {
  /** Only these chain ids, when given; otherwise every EVM and Solana chain with transaction history. */
  only?: readonly string[];
  defaultFinalityDepth: number;
  /** Per chain id, overriding the default. */
  finalityDepths: Readonly<Record<string, number>>;
}

/** `INDEXER_FINALITY_DEPTH_<ID>` (id upper-cased, dashes as underscores) sets one chain's depth. */
export function finalityDepthsFromEnv(env: NodeJS.ProcessEnv): Record<string, number> {
  const depths: Record<string, number> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^INDEXER_FINALITY_DEPTH_([A-Z0-9_]+)$/.exec(name);
    if (!match || value === undefined) continue;
    const depth = Number(value);
    if (!Number.isInteger(depth) || depth < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    depths[match[1]!.toLowerCase().replace(/_/g, '-')] = depth;
  }
  return depths;
}

export function selectIndexedChains(chains: readonly Chain[], settings: IndexedChainSettings): IndexedChain[] {
  const indexable = (chain: Chain) => chain.family === ChainFamily.CHAIN_FAMILY_EVM || chain.family === ChainFamily.CHAIN_FAMILY_SOLANA;
  const eligible = chains.filter((chain) => indexable(chain) && chain.flags?.supportsTransactions);
  if (settings.only) {
    const unknown = settings.only.filter((id) => !eligible.some((chain) => chain.id === id));
    if (unknown.length > 0) throw new Error(`INDEXER_CHAINS names ${unknown.join(', ')}, which is not an EVM or Solana chain with supports_transactions`);
  }
  return eligible
    .filter((chain) => !settings.only || settings.only.includes(chain.id))
    .map((chain) => ({
      id: chain.id,
      family: chain.family === ChainFamily.CHAIN_FAMILY_SOLANA ? ('solana' as const) : ('evm' as const),
      rpcUrl: chain.rpc?.internalServerUrlFormat ?? '',
      finalityDepth: settings.finalityDepths[chain.id] ?? settings.defaultFinalityDepth,
    }));
}
