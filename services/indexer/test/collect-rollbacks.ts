import type { ChainRollback } from '@wallet-api/core/proto/events';
import { setupKafka, uniqueName } from '@wallet-api/core/testing';
import type { Pipeline } from './setup-pipeline.js';

/** Reads a pipeline's rollback topic, keeping one chain's rollbacks as they arrive. */
export async function collectRollbacks(pipeline: Pipeline, chainId: string): Promise<{ received: ChainRollback[]; stop(): Promise<void> }> {
  const received: ChainRollback[] = [];
  const consumer = setupKafka('rollback-test').consumer({ groupId: uniqueName('rollbacks') });
  await consumer.connect();
  await consumer.subscribe({ topic: pipeline.topics.chainRollbacks.name, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (!message.value) return;
      const rollback = pipeline.topics.chainRollbacks.codec.decode(message.value);
      if (rollback.chainId === chainId) received.push(rollback);
    },
  });
  return { received, stop: () => consumer.disconnect() };
}
