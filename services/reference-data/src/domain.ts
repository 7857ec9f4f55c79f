import type { PrismaClient } from '@wallet-api/core/db';
import type { Logger } from '@wallet-api/core/logger';
import { createAddressClassifier } from './addresses/address-classifier.js';
import { createAddressProber } from './addresses/address-prober.js';
import type { ChainConfig } from './chains/chain-config.js';
import type { ReferenceDataDomain } from './grpc/reference-data-service.js';
import type { RegistryConfig } from './registry/registry-config.js';
import { createRegistry } from './registry/registry.js';
import { createTokenStore } from './store/token-store.js';
import { createTokenCatalog } from './tokens/token-catalog.js';
import { createRpcClient, createTokenReader } from './tokens/token-reader.js';

/** Builds the token, dapp and address lookups over the configured chains, the registry and PostgreSQL. */
export function createReferenceDataDomain(options: {
  chains: readonly ChainConfig[];
  registry: RegistryConfig;
  prisma: PrismaClient;
  logger: Logger;
}): ReferenceDataDomain {
  const registry = createRegistry(options.registry);
  const clients = new Map(options.chains.filter((chain) => chain.family === 'evm').map((chain) => [chain.id, createRpcClient(chain.rpc.url)]));
  const readers = new Map([...clients].map(([chainId, client]) => [chainId, createTokenReader(client)]));
  const probers = new Map([...clients].map(([chainId, client]) => [chainId, createAddressProber(client)]));
  return {
    registry,
    tokens: createTokenCatalog({ chains: options.chains, registry, store: createTokenStore(options.prisma), readers, logger: options.logger }),
    addresses: createAddressClassifier({ chains: options.chains, registry, probers, logger: options.logger }),
  };
}
