import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
}

const pinoLevel: Record<logLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka({ brokers, clientId, logger }: KafkaOptions): Kafka {
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
