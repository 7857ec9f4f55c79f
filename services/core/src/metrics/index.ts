import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricsServer {
  registry: Registry;
  port: number;
  close(): Promise<void>;
}

/**
 * A Prometheus registry with the process defaults, served at `GET /metrics` on its own port so
 * scraping never competes with a service's gRPC traffic. Port 0 picks a free port.
 */
export async function startMetricsServer(options: { port: number; host?: string; serviceName: string }): Promise<MetricsServer> {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.serviceName });
  collectDefaultMetrics({ register: registry });
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
