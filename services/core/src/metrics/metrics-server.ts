import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { collectProcessMetrics, processRegistry } from './process-registry.js';

export interface MetricsServer {
  registry: Registry;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the process registry at `GET /metrics` on its own port, so scraping never competes with
 * a service's gRPC or HTTP traffic, with the process defaults and a `service` label on every
 * series. Port 0 picks a free port.
 */
export async function startMetricsServer(options: { port: number; host?: string; serviceName: string }): Promise<MetricsServer> {
  const registry = processRegistry;
  registry.setDefaultLabels({ service: options.serviceName });
  collectProcessMetrics();
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    registry,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
