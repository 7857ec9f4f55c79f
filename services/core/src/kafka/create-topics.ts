// Entry point for the infrastructure scripts: creates or updates the declared topics.
import { kafkaEnv, parseEnv } from '../config/index.js';
import { createLogger } from '../logger/index.js';
import { createKafka } from './client.js';
import { ensureTopics } from './ensure-topics.js';
import { platformTopics, type TopicSpec } from './topics.js';

const logger = createLogger('create-topics');
const { KAFKA_BROKERS, KAFKA_TOPIC_SUFFIX } = parseEnv(kafkaEnv);
const kafka = createKafka({ brokers: KAFKA_BROKERS, clientId: 'create-topics', logger });
try {
  for (const change of await ensureTopics(kafka, Object.values(platformTopics(KAFKA_TOPIC_SUFFIX)) as TopicSpec<unknown>[]))
    logger.info(change, `topic ${change.topic}: ${change.action}`);
} catch (error) {
  logger.error({ err: error }, 'could not create Kafka topics');
  process.exitCode = 1;
}
