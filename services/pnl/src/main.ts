import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { PnlService, type PnlServer } from '@wallet-api/core/proto/pnl';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('pnl', parseEnv(serviceAddressEnv).PNL_GRPC_PORT, async () => ({
  services: [registration<PnlServer>('walletapi.pnl.Pnl', PnlService, {})],
}));
