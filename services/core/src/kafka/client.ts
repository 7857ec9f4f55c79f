import kafkajs, { type Kafka as KafkaClient, type LogEntry, type logLevel as LogLevel } from 'kafkajs';
import type { Logger } from 'pino';

// kafkajs is CommonJS whose exports Node's ESM loader cannot all name; read them from the default export.
const { Kafka, logLevel } = kafkajs;

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
}

const pinoLevel: Record<LogLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka({ brokers, clientId, logger }: KafkaOptions): KafkaClient {
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return new Kafka({
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
}
