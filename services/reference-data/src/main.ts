import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { databaseEnv, parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { runGrpcService } from '@wallet-api/core/service';
import { loadChainsConfig } from './chains/chain-config.js';
import { createChainRegistry } from './chains/chain-registry.js';
import { createReferenceDataDomain } from './domain.js';
import { referenceDataService } from './grpc/reference-data-service.js';
import { loadRegistryConfig, registryPaths } from './registry/registry-config.js';

const config = parseEnv(
  serviceAddressEnv.extend(databaseEnv.shape).extend({
    CHAINS_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/chains.json', import.meta.url))),
    // The shipped dapp and token registry; REGISTRY_PATHS (comma-separated) are merged over it in order.
    REGISTRY_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/registry.json', import.meta.url))),
    REGISTRY_PATHS: z.string().default('').transform(registryPaths),
  }),
);

await runGrpcService('reference-data', config.REFERENCE_DATA_GRPC_PORT, async ({ logger }) => {
  const chains = await loadChainsConfig(config.CHAINS_CONFIG_FILE);
  const registry = await loadRegistryConfig([config.REGISTRY_CONFIG_FILE, ...config.REGISTRY_PATHS]);
  const prisma = createPrisma(config.DATABASE_URL);
  return {
    services: [referenceDataService(createChainRegistry(chains), createReferenceDataDomain({ chains, registry, prisma, logger }))],
    closers: [{ name: 'postgresql', close: () => prisma.$disconnect() }],
  };
});
