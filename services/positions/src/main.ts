import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { PositionsService, type PositionsServer } from '@wallet-api/core/proto/positions';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('positions', parseEnv(serviceAddressEnv).POSITIONS_GRPC_PORT, async () => ({
  services: [registration<PositionsServer>('walletapi.positions.Positions', PositionsService, {})],
}));
