import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { IndexerService, type IndexerServer } from '@wallet-api/core/proto/indexer';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('indexer', parseEnv(serviceAddressEnv).INDEXER_GRPC_PORT, async () => ({
  services: [registration<IndexerServer>('walletapi.indexer.Indexer', IndexerService, {})],
}));
