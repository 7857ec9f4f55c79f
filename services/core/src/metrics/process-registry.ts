import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The registry a service process serves at /metrics. One per process, so the shared wrappers
 * (gRPC, Kafka, ClickHouse, PostgreSQL, HTTP) record into it without being handed a registry.
 */
export const processRegistry = new Registry();

let defaultsCollected = false;

/** Process metrics (CPU, memory, event loop lag, GC, handles), registered once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processRegistry });
}
