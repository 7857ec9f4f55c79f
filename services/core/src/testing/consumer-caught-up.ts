import type { Kafka } from 'kafkajs';

/**
 * Resolves when the consumer group has committed every message of the topic published so far,
 * and throws otherwise (for `eventually`): the point at which the group's service has applied all
 * of it, since offsets are committed only after what they cover is stored.
 */
export async function consumerGroupCaughtUp(kafka: Kafka, groupId: string, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [ends, [committed]] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
    const behind = ends.filter((end) => {
      const offset = committed?.partitions.find((partition) => partition.partition === end.partition)?.offset ?? '-1';
      return BigInt(end.high) > 0n && BigInt(offset) < BigInt(end.high);
    });
    if (behind.length > 0)
      throw new Error(`${groupId} has not committed ${topic} through its end on partitions ${behind.map((end) => end.partition).join(', ')}`);
  } finally {
    await admin.disconnect();
  }
}
