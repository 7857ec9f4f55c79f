import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { NftService, type NftServer } from '@wallet-api/core/proto/nft';
import { runService } from '@wallet-api/core/service';

await runService('nft', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.NFT_GRPC_PORT,
    services: [registration<NftServer>('walletapi.nft.Nft', NftService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
