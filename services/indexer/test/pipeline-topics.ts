import { topics, type TopicSpec } from '@wallet-api/core/kafka';
import type { PublisherTopics } from '../src/publish/block-publisher.js';

/** The indexer's topics under names of a test's own, so no other suite's messages mix in. */
export function pipelineTopics(suffix: string): PublisherTopics {
  const rename = <T>(spec: TopicSpec<T>): TopicSpec<T> => ({ ...spec, name: `${spec.name}.${suffix}` });
  return {
    walletTransactions: rename(topics.walletTransactions),
    balanceChanges: rename(topics.balanceChanges),
    poolEvents: rename(topics.poolEvents),
    chainBlocks: rename(topics.chainBlocks),
    chainRollbacks: rename(topics.chainRollbacks),
  };
}
