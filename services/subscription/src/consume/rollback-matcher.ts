import type { IncomingMessage } from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import { rollbackBody } from '../render/webhook-body.js';
import type { OutboxStore } from '../store/outbox-store.js';
import { newDeliveryId } from '../match/delivery-id.js';

export interface RollbackMatcherOptions {
  groupId: string;
  outbox: OutboxStore;
  logger: Logger;
  now?: () => Date;
  onDeliveries?: (count: number) => void;
}

/**
 * Rollbacks into `deleted: true` re-deliveries of everything delivered (or still pending) for the
 * orphaned blocks, and a record of those blocks so a transaction of theirs read later is dropped.
 */
export function createRollbackMatcher(options: RollbackMatcherOptions): (messages: IncomingMessage<ChainRollback>[]) => Promise<void> {
  const { outbox, logger } = options;
  const now = options.now ?? (() => new Date());
  return async (messages) => {
    for (const message of messages) {
      const position = { groupId: options.groupId, topic: message.topic, partition: message.partition };
      if (BigInt(message.offset) < (await outbox.nextOffset(position))) continue;
      const rollback = message.value;
      const inserted = await outbox.recordRollback(
        position,
        BigInt(message.offset) + 1n,
        { chainId: rollback.chainId, blockHashes: rollback.orphanedBlockHashes },
        (original) => {
          const id = newDeliveryId();
          return { id, body: rollbackBody(original.body, id, now()) };
        },
      );
      logger.info({ chainId: rollback.chainId, orphaned: rollback.orphanedBlockHashes.length, deliveries: inserted }, 'rollback notifications recorded');
      if (inserted > 0) options.onDeliveries?.(inserted);
    }
  };
}
