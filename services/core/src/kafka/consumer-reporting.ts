import type { Consumer, IHeaders } from 'kafkajs';
import { kafkaConsumedMessages, kafkaConsumerLag } from '../metrics/platform-metrics.js';

/** A message's headers as the string carrier the trace propagator reads. */
export function headerCarrier(headers: IHeaders | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) carrier[name] = first.toString();
  }
  return carrier;
}

export interface ConsumerReporting {
  /** Counts `count` handled messages of a partition and sets its lag from the last handled offset. */
  handled(partition: number, count: number, lastOffset: string, highWatermark: string): void;
}

/**
 * The consumed-messages counter and per-partition lag gauge of one group's member. After a
 * rebalance the member forgets the lag of partitions that are now another member's, so the gauge
 * never holds a frozen value for a partition nobody here reads.
 */
export function consumerReporting(consumer: Consumer, groupId: string, topic: string): ConsumerReporting {
  const lagReported = new Set<number>();
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    const assigned = new Set(event.payload.memberAssignment[topic] ?? []);
    for (const partition of lagReported) {
      if (assigned.has(partition)) continue;
      kafkaConsumerLag.remove({ group: groupId, topic, partition });
      lagReported.delete(partition);
    }
  });
  return {
    handled(partition, count, lastOffset, highWatermark) {
      kafkaConsumedMessages.inc({ group: groupId, topic }, count);
      lagReported.add(partition);
      kafkaConsumerLag.set({ group: groupId, topic, partition }, Math.max(0, Number(BigInt(highWatermark) - BigInt(lastOffset) - 1n)));
    },
  };
}
