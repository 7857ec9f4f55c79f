import type { PrismaClient } from '@wallet-api/core/db';
import type { Logger } from '@wallet-api/core/logger';
import type { PublicClient } from 'viem';
import type { ChainConfig } from '../chains/chain-config.js';
import type { RegistryConfig } from '../registry/registry-config.js';
import type { Registry } from '../registry/registry.js';
import { createListedTokenStore } from '../store/listed-token-store.js';
import { createRpcClient } from '../tokens/token-reader.js';
import { createDeploymentDates } from './deployment-dates.js';
import type { FungibleCatalog } from './fungible-catalog.js';
import { createFungibleList, type FungibleList } from './fungible-list.js';
import { createFungibleSources } from './fungible-sources.js';
import { createMarketRanking } from './market-ranking.js';

/** The fungibles list over a reference-data domain: search index, market ranking and deployment dates wired together. */
export function createFungibleListFor(options: {
  chains: readonly ChainConfig[];
  registryConfig: RegistryConfig;
  registry: Registry;
  catalog: FungibleCatalog;
  prisma: PrismaClient;
  logger: Logger;
  /** How often the search index and the ranking are rebuilt (default 60 s each). */
  refreshMs?: number;
}): FungibleList {
  const clients = new Map<string, PublicClient>(
    options.chains.filter((chain) => chain.family === 'evm').map((chain) => [chain.id, createRpcClient(chain.rpc.url)]),
  );
  const refresh = options.refreshMs === undefined ? {} : { refreshMs: options.refreshMs };
  return createFungibleList({
    chains: options.chains,
    sources: createFungibleSources({
      chains: options.chains,
      registryConfig: options.registryConfig,
      registry: options.registry,
      tokens: createListedTokenStore(options.prisma),
      logger: options.logger,
      ...refresh,
    }),
    catalog: options.catalog,
    ranking: createMarketRanking({ catalog: options.catalog, logger: options.logger, ...refresh }),
    deployments: createDeploymentDates(clients),
  });
}
