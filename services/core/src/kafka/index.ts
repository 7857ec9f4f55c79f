export { startAccumulatingConsumer, type AccumulatingConsumerOptions } from './accumulating-consumer.js';
export { createKafka, type KafkaOptions } from './client.js';
export type { IncomingMessage, MessageConsumer } from './consumer-common.js';
export { startConsumer, type ConsumerOptions } from './consumer.js';
export { createConsumerSet, type ConsumerSet } from './consumer-set.js';
export { ensureTopics, type TopicChange } from './ensure-topics.js';
export { createProducer, type MessageProducer, type OutgoingMessage } from './producer.js';
export { allTopics, consumerGroup, platformTopics, topics, type MessageCodec, type PlatformTopics, type TopicSpec } from './topics.js';
