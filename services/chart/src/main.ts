import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { ChartService, type ChartServer } from '@wallet-api/core/proto/chart';
import { runService } from '@wallet-api/core/service';

await runService('chart', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.CHART_GRPC_PORT,
    services: [registration<ChartServer>('walletapi.chart.Chart', ChartService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
