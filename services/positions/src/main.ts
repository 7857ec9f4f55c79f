import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { PositionsService, type PositionsServer } from '@wallet-api/core/proto/positions';
import { runService } from '@wallet-api/core/service';

await runService('positions', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.POSITIONS_GRPC_PORT,
    services: [registration<PositionsServer>('walletapi.positions.Positions', PositionsService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
