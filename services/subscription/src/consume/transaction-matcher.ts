import type { IncomingMessage } from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { newDeliveryId } from '../match/delivery-id.js';
import { isExcluded } from '../match/exclude-filter.js';
import type { SmartWalletCheck } from '../match/smart-wallets.js';
import { transactionCandidates, type Candidate, type EligibleChains } from '../match/transaction-candidates.js';
import type { SubscriptionIndex } from '../match/subscription-index.js';
import type { TransactionRenderer } from '../render/transaction-renderer.js';
import { webhookBody } from '../render/webhook-body.js';
import type { NewDelivery, OutboxStore } from '../store/outbox-store.js';

export interface TransactionMatcherOptions {
  groupId: string;
  outbox: OutboxStore;
  index: SubscriptionIndex;
  /** Brings the index up to the newest committed subscription change. */
  refreshIndex(): Promise<void>;
  eligibleChains: EligibleChains;
  isSmartWallet: SmartWalletCheck;
  renderer: TransactionRenderer;
  logger: Logger;
  now?: () => Date;
  /** Called after deliveries were committed, so the dispatcher need not wait for its next poll. */
  onDeliveries?: (count: number) => void;
}

interface Match extends Candidate {
  tx: WalletTransaction;
  offset: bigint;
}

/**
 * One partition's batch of decoded transactions into deliveries: every enabled subscription
 * watching one of a transaction's wallets on its chain, minus what its filters drop, one delivery
 * per (subscription, wallet, transaction), recorded with the consumed offset.
 */
export function createTransactionMatcher(options: TransactionMatcherOptions): (messages: IncomingMessage<WalletTransaction>[]) => Promise<void> {
  const { outbox, index, renderer, logger } = options;
  const now = options.now ?? (() => new Date());

  async function withoutOrphaned(messages: IncomingMessage<WalletTransaction>[]): Promise<IncomingMessage<WalletTransaction>[]> {
    const hashesByChain = new Map<string, Set<string>>();
    for (const { value } of messages) hashesByChain.set(value.chainId, (hashesByChain.get(value.chainId) ?? new Set()).add(value.blockHash));
    const orphaned = new Set<string>();
    for (const [chainId, hashes] of hashesByChain) {
      for (const hash of await outbox.orphanedBlocks(chainId, [...hashes])) orphaned.add(`${chainId}:${hash}`);
    }
    return messages.filter(({ value }) => !orphaned.has(`${value.chainId}:${value.blockHash}`));
  }

  async function smartWalletsOnly(matches: Match[]): Promise<Match[]> {
    const kept = await Promise.all(
      matches.map(async (match) => !match.needsSmartWallet || (await options.isSmartWallet(match.wallet, match.subscription.network))),
    );
    return matches.filter((_, at) => kept[at]);
  }

  return async (messages) => {
    if (messages.length === 0) return;
    const position = { groupId: options.groupId, topic: messages[0]!.topic, partition: messages[0]!.partition };
    const nextOffset = BigInt(messages.at(-1)!.offset) + 1n;
    const recorded = await outbox.nextOffset(position);
    const fresh = messages.filter((message) => BigInt(message.offset) >= recorded);
    if (fresh.length === 0) return;

    await options.refreshIndex();
    const candidates: Match[] = (await withoutOrphaned(fresh)).flatMap((message) =>
      transactionCandidates(message.value, index, options.eligibleChains).map((candidate) => ({
        ...candidate,
        tx: message.value,
        offset: BigInt(message.offset),
      })),
    );
    const matches = await smartWalletsOnly(candidates);
    const readings = await renderer.read(matches.map(({ tx, wallet }) => ({ tx, wallet })));
    const kept = matches
      .map((match, at) => ({ match, reading: readings[at]! }))
      .filter(({ match, reading }) => !isExcluded(match.subscription.filters?.exclude, reading.subject));
    const resources = await renderer.render(kept.map(({ match, reading }) => ({ record: reading.record, audience: match.subscription })));
    const timestamp = now();
    const deliveries: NewDelivery[] = kept.map(({ match }, at) => {
      const id = newDeliveryId();
      return {
        id,
        subscriptionId: match.subscription.id,
        address: match.wallet,
        chainId: match.tx.chainId,
        transactionHash: match.tx.hash,
        blockHash: match.tx.blockHash,
        blockNumber: BigInt(match.tx.blockNumber),
        sourceOffset: match.offset,
        body: webhookBody({
          deliveryId: id,
          subscriptionId: match.subscription.id,
          callbackUrl: match.subscription.callbackUrl,
          address: match.wallet,
          timestamp,
          transaction: resources[at]!,
          deleted: false,
        }),
      };
    });
    const inserted = await outbox.recordMatches(position, nextOffset, deliveries);
    if (inserted > 0) {
      logger.debug({ partition: position.partition, transactions: fresh.length, deliveries: inserted }, 'deliveries recorded');
      options.onDeliveries?.(inserted);
    }
  };
}
