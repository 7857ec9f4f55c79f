import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration, startGrpcServer } from '@wallet-api/core/grpc';
import { SubscriptionService, type SubscriptionServer } from '@wallet-api/core/proto/subscription';
import { runService } from '@wallet-api/core/service';

await runService('subscription', async ({ logger, grpcHost }) => {
  const config = parseEnv(serviceAddressEnv);
  const grpc = await startGrpcServer({
    host: grpcHost,
    port: config.SUBSCRIPTION_GRPC_PORT,
    services: [registration<SubscriptionServer>('walletapi.subscription.Subscription', SubscriptionService, {})],
    logger,
  });
  return { grpc, closers: [] };
});
