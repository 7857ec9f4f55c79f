import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { ChartService, type ChartServer } from '@wallet-api/core/proto/chart';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('chart', parseEnv(serviceAddressEnv).CHART_GRPC_PORT, async () => ({
  services: [registration<ChartServer>('walletapi.chart.Chart', ChartService, {})],
}));
