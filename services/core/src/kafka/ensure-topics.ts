import kafkajs, { type Kafka } from 'kafkajs';
import type { TopicSpec } from './topics.js';

export interface TopicChange {
  topic: string;
  action: 'created' | 'partitions-increased' | 'unchanged';
}

/**
 * Makes the broker hold every declared topic with at least the declared partitions and the
 * declared retention. Idempotent: running it against an up-to-date broker changes nothing.
 * Partitions are never reduced (Kafka cannot), and a topic with more is left as it is.
 */
export async function ensureTopics(kafka: Kafka, specs: readonly TopicSpec<unknown>[]): Promise<TopicChange[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((spec) => !existing.has(spec.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.name,
          numPartitions: spec.partitions,
          replicationFactor: 1,
          configEntries: [{ name: 'retention.ms', value: String(spec.retentionMs) }],
        })),
      });
    }
    const present = specs.filter((spec) => existing.has(spec.name));
    const changes: TopicChange[] = missing.map((spec) => ({ topic: spec.name, action: 'created' }));
    if (present.length === 0) return changes;

    const metadata = await admin.fetchTopicMetadata({ topics: present.map((spec) => spec.name) });
    const partitionCounts = new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
    const grow = present.filter((spec) => (partitionCounts.get(spec.name) ?? 0) < spec.partitions);
    if (grow.length > 0) {
      await admin.createPartitions({ topicPartitions: grow.map((spec) => ({ topic: spec.name, count: spec.partitions })) });
    }
    await admin.alterConfigs({
      validateOnly: false,
      resources: present.map((spec) => ({
        type: kafkajs.ConfigResourceTypes.TOPIC,
        name: spec.name,
        configEntries: [{ name: 'retention.ms', value: String(spec.retentionMs) }],
      })),
    });
    const grown = new Set(grow.map((spec) => spec.name));
    return changes.concat(present.map((spec) => ({ topic: spec.name, action: grown.has(spec.name) ? 'partitions-increased' : 'unchanged' })));
  } finally {
    await admin.disconnect();
  }
}
