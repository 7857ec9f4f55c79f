import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { baseEnv, metricsPort, parseEnv, type ServiceName } from '../config/index.js';
import { startGrpcServer, type GrpcServer, type ServiceRegistration } from '../grpc/index.js';
import { createLogger } from '../logger/index.js';
import { startMetricsServer } from '../metrics/metrics-server.js';
import { startTelemetry } from '../telemetry/index.js';

/** Something to close on shutdown, after the gRPC server has drained: consumers, then pools. */
export interface Closer {
  name: string;
  close(): Promise<void>;
}

export interface RunningService {
  grpc: GrpcServer;
  /** Closed in order; list consumers (which commit their offsets) before the pools they write to. */
  closers: Closer[];
}

export interface ShutdownReport {
  completed: boolean;
  elapsedMs: number;
  failures: string[];
}

function withinDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Drains a service within `timeoutMs`: the gRPC server stops accepting calls and lets in-flight
 * calls finish (cancelling stragglers with a little of the budget left for the rest), then each
 * closer runs in order. Reports whether everything finished in time.
 */
export async function shutdownService(service: RunningService, timeoutMs: number, logger: Logger): Promise<ShutdownReport> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const failures: string[] = [];
  const closersBudget = Math.min(3_000, Math.floor(timeoutMs / 3));
  await service.grpc.shutdown(Math.max(0, deadline - closersBudget - Date.now()));
  for (const closer of service.closers) {
    try {
      if ((await withinDeadline(closer.close(), deadline)) === 'timeout') failures.push(`${closer.name}: timed out`);
    } catch (error) {
      failures.push(`${closer.name}: ${(error as Error).message}`);
      logger.error({ err: error, closer: closer.name }, 'close failed during shutdown');
    }
  }
  return { completed: failures.length === 0, elapsedMs: Date.now() - started, failures };
}

export interface ServiceContext {
  name: ServiceName;
  logger: Logger;
  /** The registry served at /metrics, for the service's own series. */
  metrics: Registry;
  env: NodeJS.ProcessEnv;
  grpcHost: string;
}

/**
 * Runs a service process: telemetry, logger, Prometheus metrics on `<NAME>_METRICS_PORT`, startup,
 * and a graceful shutdown on SIGTERM or SIGINT within SHUTDOWN_TIMEOUT_MS (default 10 s). A failed
 * startup exits with status 1.
 */
export async function runService(name: ServiceName, start: (context: ServiceContext) => Promise<RunningService>): Promise<void> {
  const config = parseEnv(baseEnv);
  const logger = createLogger(name, config.LOG_LEVEL);
  const telemetry = startTelemetry({ serviceName: name, otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
  let service: RunningService;
  try {
    const metrics = await startMetricsServer({ port: metricsPort(name), serviceName: name });
    service = await start({ name, logger, metrics: metrics.registry, env: process.env, grpcHost: config.GRPC_HOST });
    // Closed last, so a scrape during the drain still answers.
    service.closers.push({ name: 'metrics server', close: () => metrics.close() });
    logger.info({ port: service.grpc.port, metricsPort: metrics.port }, `${name} listening for gRPC`);
  } catch (error) {
    logger.fatal({ err: error }, `${name} failed to start`);
    await telemetry.shutdown().catch(() => undefined);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} shutting down`);
    const report = await shutdownService(service, config.SHUTDOWN_TIMEOUT_MS, logger);
    await withinDeadline(telemetry.shutdown(), Date.now() + 500).catch(() => undefined);
    logger[report.completed ? 'info' : 'error'](report, `${name} stopped`);
    process.exit(report.completed ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

export interface GrpcServiceSetup {
  services: ServiceRegistration[];
  closers?: Closer[];
}

/** `runService` for the common case: build the service's gRPC handlers and serve them on `port`. */
export function runGrpcService(name: ServiceName, port: number, setup: (context: ServiceContext) => Promise<GrpcServiceSetup>): Promise<void> {
  return runService(name, async (context) => {
    const { services, closers = [] } = await setup(context);
    const grpc = await startGrpcServer({ host: context.grpcHost, port, services, logger: context.logger });
    return { grpc, closers };
  });
}
