import kafkajs, { type Kafka as KafkaClient, type LogEntry, type logLevel as LogLevel } from 'kafkajs';
import type { Logger } from 'pino';

// kafkajs is CommonJS whose exports Node's ESM loader cannot all name; read them from the default export.
const { Kafka, logLevel } = kafkajs;

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /**
   * How long the broker waits for a silent consumer before its partitions go to the group's other
   * members, or to its own next incarnation: a killed process's successor reads nothing until then.
   */
  consumerSessionTimeoutMs?: number;
  /**
   * How long the broker holds a fetch that has nothing to answer (kafkajs: 5 s), for consumers
   * that set none of their own. A consumer's stop waits for the fetch in flight.
   */
  consumerMaxWaitMs?: number;
}

const pinoLevel: Record<LogLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka({ brokers, clientId, logger, consumerSessionTimeoutMs, consumerMaxWaitMs }: KafkaOptions): KafkaClient {
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  const client = new Kafka({
    clientId,
    brokers,
    // kafkajs logs routine group rebalances at INFO; WARN keeps service logs readable.
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...rest } = entry.log;
      kafkaLogger[pinoLevel[entry.level]]({ namespace: entry.namespace, ...rest }, message);
    },
    retry: { initialRetryTime: 200, retries: 8 },
  });
  const defaults = {
    // Heartbeats stay at kafkajs's ratio (3 s of 30 s).
    ...(consumerSessionTimeoutMs === undefined
      ? {}
      : { sessionTimeout: consumerSessionTimeoutMs, heartbeatInterval: Math.max(100, Math.floor(consumerSessionTimeoutMs / 10)) }),
    ...(consumerMaxWaitMs === undefined ? {} : { maxWaitTimeInMs: consumerMaxWaitMs }),
  };
  if (Object.keys(defaults).length === 0) return client;
  // Every consumer of the process gets them, unless it sets its own.
  const consumer = client.consumer.bind(client);
  client.consumer = (config) => consumer({ ...defaults, ...config });
  return client;
}
