import { parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { registration } from '@wallet-api/core/grpc';
import { SubscriptionService, type SubscriptionServer } from '@wallet-api/core/proto/subscription';
import { runGrpcService } from '@wallet-api/core/service';

await runGrpcService('subscription', parseEnv(serviceAddressEnv).SUBSCRIPTION_GRPC_PORT, async () => ({
  services: [registration<SubscriptionServer>('walletapi.subscription.Subscription', SubscriptionService, {})],
}));
