import { platformTopics } from '@wallet-api/core/kafka';
import type { PublisherTopics } from '../src/publish/block-publisher.js';

/** The indexer's topics under names of a test's own, so no other suite's messages mix in. */
export function pipelineTopics(suffix: string): PublisherTopics {
  return platformTopics(suffix);
}
