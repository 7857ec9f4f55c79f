import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { runGrpcService } from '@wallet-api/core/service';
import { loadChainsConfig } from './chains/chain-config.js';
import { createChainRegistry } from './chains/chain-registry.js';
import { referenceDataService } from './grpc/reference-data-service.js';

const config = parseEnv(
  serviceAddressEnv.extend({
    CHAINS_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/chains.json', import.meta.url))),
  }),
);

await runGrpcService('reference-data', config.REFERENCE_DATA_GRPC_PORT, async () => ({
  services: [referenceDataService(createChainRegistry(await loadChainsConfig(config.CHAINS_CONFIG_FILE)))],
}));
