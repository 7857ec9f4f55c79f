import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { IndexerService, type IndexerServer } from '@wallet-api/core/proto/indexer';
import { runService } from '@wallet-api/core/service';

await runService('indexer', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.INDEXER_GRPC_PORT,
    services: [registration<IndexerServer>('walletapi.indexer.Indexer', IndexerService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
