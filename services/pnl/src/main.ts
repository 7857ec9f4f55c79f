import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { PnlService, type PnlServer } from '@wallet-api/core/proto/pnl';
import { runService } from '@wallet-api/core/service';

await runService('pnl', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.PNL_GRPC_PORT,
    services: [registration<PnlServer>('walletapi.pnl.Pnl', PnlService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
