import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { startGrpcServer } from '@wallet-api/core/grpc';
import { runService } from '@wallet-api/core/service';
import { loadChainsConfig } from './chains/chain-config.js';
import { createChainRegistry } from './chains/chain-registry.js';
import { referenceDataService } from './grpc/reference-data-service.js';

const env = serviceAddressEnv.extend({
  CHAINS_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/chains.json', import.meta.url))),
});

await runService('reference-data', async ({ logger, grpcHost }) => {
  const config = parseEnv(env);
  const chains = createChainRegistry(await loadChainsConfig(config.CHAINS_CONFIG_FILE));
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.REFERENCE_DATA_GRPC_PORT,
    services: [referenceDataService(chains)],
    logger,
  });
  return { grpc, closers: [] };
});
