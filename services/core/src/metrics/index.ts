export { Counter, Gauge, Histogram, Registry } from 'prom-client';
export { startMetricsServer, type MetricsServer } from './metrics-server.js';
export {
  clickHouseQueryDuration,
  grpcClientDuration,
  grpcServerDuration,
  httpRequestDuration,
  httpRequests,
  kafkaConsumedMessages,
  kafkaConsumerLag,
  postgresQueryDuration,
  secondsSince,
  statementKind,
} from './platform-metrics.js';
export { processRegistry } from './process-registry.js';
