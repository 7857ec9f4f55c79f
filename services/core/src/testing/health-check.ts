import { credentials, makeGenericClientConstructor, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const HealthClient = makeGenericClientConstructor(healthService as unknown as ServiceDefinition, 'Health');

/** Asks a server's standard `grpc.health.v1.Health/Check` for one service ('' = the server). */
export function checkHealth(address: string, service: string, deadlineMs = 2_000): Promise<string> {
  const client = new HealthClient(address, credentials.createInsecure());
  return new Promise((resolve, reject) =>
    (client as unknown as { check: (...args: unknown[]) => void }).check(
      { service },
      { deadline: Date.now() + deadlineMs },
      (error: ServiceError | null, response: { status: string }) => {
        client.close();
        if (error) reject(error);
        else resolve(response.status);
      },
    ),
  );
}
