import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { NftService, type NftServer } from '@wallet-api/core/proto/nft';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('nft', parseEnv(serviceAddressEnv).NFT_GRPC_PORT, async () => ({
  services: [registration<NftServer>('walletapi.nft.Nft', NftService, {})],
}));
