// Entry point for the infrastructure scripts: creates or updates the declared topics.
import { kafkaEnv, parseEnv } from '../config/index.js';
import { createLogger } from '../logger/index.js';
import { createKafka } from './client.js';
import { ensureTopics } from './ensure-topics.js';
import { allTopics } from './topics.js';

const logger = createLogger('create-topics');
const { KAFKA_BROKERS } = parseEnv(kafkaEnv);
const kafka = createKafka({ brokers: KAFKA_BROKERS, clientId: 'create-topics', logger });
try {
  for (const change of await ensureTopics(kafka, allTopics)) logger.info(change, `topic ${change.topic}: ${change.action}`);
} catch (error) {
  logger.error({ err: error }, 'could not create Kafka topics');
  process.exitCode = 1;
}
