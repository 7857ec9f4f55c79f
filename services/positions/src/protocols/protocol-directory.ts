import { status } from '@grpc/grpc-js';
import { unary } from '@wallet-api/core/grpc';
import { ListProtocolsResponse, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createExpiringCache } from '@wallet-api/core/reference-data';
import { createErc4626VaultAdapter } from '../adapters/erc4626-vault.js';
import { createLendingAdapter } from '../adapters/lending.js';
import type { ProtocolAdapter } from '../adapters/protocol-adapter.js';
import { createStakingAdapter } from '../adapters/staking.js';
import { createUniswapV2Adapter } from '../adapters/uniswap-v2.js';
import { createUniswapV3Adapter } from '../adapters/uniswap-v3.js';

export interface ChainProtocols {
  adapters: ProtocolAdapter[];
  /** Lowercase addresses of every protocol contract: a transaction touching one changes positions. */
  contracts: ReadonlySet<string>;
  /** The registry's deployments the adapters were made from. */
  listed: ListProtocolsResponse;
}

export interface ProtocolDirectory {
  protocols(chainId: string): Promise<ChainProtocols>;
}

export function chainProtocols(listed: ListProtocolsResponse): ChainProtocols {
  const adapters: ProtocolAdapter[] = [
    ...listed.uniswapV2.map((deployment) => createUniswapV2Adapter(deployment)),
    ...listed.uniswapV3.map((deployment) => createUniswapV3Adapter(deployment)),
    ...(listed.vaults.length > 0 ? [createErc4626VaultAdapter(listed.vaults.map((vault) => vault.address))] : []),
    ...(listed.staking.length > 0 ? [createStakingAdapter(listed.staking.map((staking) => staking.address))] : []),
    ...(listed.lending.length > 0 ? [createLendingAdapter(listed.lending.map((pool) => pool.address))] : []),
  ];
  const contracts = new Set(
    [
      ...listed.uniswapV2.flatMap((deployment) => [deployment.factory, ...deployment.pairs]),
      ...listed.uniswapV3.flatMap((deployment) => [deployment.factory, deployment.positionManager]),
      ...[...listed.vaults, ...listed.staking, ...listed.lending].map((contract) => contract.address),
    ].map((address) => address.toLowerCase()),
  );
  return { adapters, contracts, listed };
}

/**
 * Each chain's protocol contracts from reference-data's ListProtocols (the registry), kept for
 * `ttlMs` (by default five minutes) so a registry change reaches the adapters without a restart.
 * A chain reference-data does not know has no protocols.
 */
export function createProtocolDirectory(referenceData: ReferenceDataClient, options: { ttlMs?: number } = {}): ProtocolDirectory {
  const cache = createExpiringCache<ChainProtocols>({ ttlMs: options.ttlMs ?? 5 * 60_000 });
  const none = chainProtocols(ListProtocolsResponse.fromPartial({}));
  return {
    async protocols(chainId) {
      const cached = cache.get(chainId);
      if (cached) return cached;
      const listed = await unary(referenceData, referenceData.listProtocols, { chainId, context: undefined }, { name: 'ReferenceData/ListProtocols' }).then(
        chainProtocols,
        (error: { code?: number }) => {
          if (error.code === status.INVALID_ARGUMENT) return none;
          throw error;
        },
      );
      cache.set(chainId, listed);
      return listed;
    },
  };
}
