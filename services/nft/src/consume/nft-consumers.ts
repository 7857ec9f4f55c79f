import type { ChangeVersions } from '@wallet-api/core/cache';
import {
  createConsumerSet,
  startAccumulatingConsumer,
  startConsumer,
  topics as platformTopics,
  type createKafka,
  type TopicSpec,
} from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import { AssetKind, type BalanceChange, type ChainBlock, type ChainRollback } from '@wallet-api/core/proto/events';
import type { MarketFollower } from '../market/market-follower.js';
import type { NftEntry, OwnershipStore } from '../store/ownership-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { WalletIndexing } from '../wallets/wallet-indexing.js';

export interface NftTopics {
  balanceChanges: TopicSpec<BalanceChange>;
  chainBlocks: TopicSpec<ChainBlock>;
  chainRollbacks: TopicSpec<ChainRollback>;
}

export interface NftConsumers {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** ERC-721 and ERC-1155 changes only: fungible balances are the positions service's. */
export function toNftEntry(change: BalanceChange): NftEntry | undefined {
  const kind = change.asset?.kind;
  if (kind !== AssetKind.ASSET_KIND_ERC721 && kind !== AssetKind.ASSET_KIND_ERC1155) return undefined;
  return {
    chainId: change.chainId,
    blockHash: change.blockHash,
    transactionIndex: change.transactionIndex,
    wallet: change.wallet.toLowerCase(),
    contract: change.asset!.address.toLowerCase(),
    tokenId: change.asset!.tokenId,
    standard: kind === AssetKind.ASSET_KIND_ERC721 ? 'erc721' : 'erc1155',
    blockNumber: BigInt(change.blockNumber),
    blockTimestamp: BigInt(change.blockTimestamp),
    amount: BigInt(change.amount),
  };
}

/**
 * The three chain topics into the nft tables: NFT balance changes into entries (and token rows
 * for the metadata worker), blocks into canonicality plus the trusted markets' logs of those
 * blocks, rollbacks into orphaned blocks and re-read openings. Each topic has its own group;
 * entries count by their block's state whenever either arrives, so the order does not matter.
 */
export function createNftConsumers(options: {
  kafka: ReturnType<typeof createKafka>;
  ownership: OwnershipStore;
  tokens: TokenStore;
  indexing: WalletIndexing;
  market: MarketFollower;
  versions: ChangeVersions;
  logger: Logger;
  groupId?: string;
  topics?: NftTopics;
}): NftConsumers {
  const { kafka, ownership, tokens, indexing, market, versions, logger } = options;
  const topics = options.topics ?? platformTopics;
  const groupId = options.groupId ?? 'nft';
  // Floors and sales move the valued NFT answers alone: no fungible price, chart or PnL reads them.
  const marketMoved = () => versions.nftMarketChanged();

  return createConsumerSet(() => [
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.balance-changes`,
      topic: topics.balanceChanges,
      logger,
      async handleBatch(messages) {
        const entries = messages.flatMap(({ value }) => toNftEntry(value) ?? []);
        if (entries.length === 0) return;
        await tokens.ensure(entries);
        await ownership.applyEntries(entries);
        await versions.walletsChanged(new Set(entries.map((entry) => entry.wallet)), 'nfts');
        // A move can end a listing: floors are market data the valued NFT answers read.
        await marketMoved();
      },
    }),
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.blocks`,
      topic: topics.chainBlocks,
      logger,
      async handleBatch(messages) {
        const blocks = messages.map(({ value }) => value);
        const { changed } = await market.follow(blocks);
        const { revived } = await ownership.applyBlockStates(
          blocks.map((block) => ({
            chainId: block.chainId,
            blockHash: block.hash,
            orphaned: false,
            sequence: BigInt(block.sequence),
            block: { number: BigInt(block.number), timestamp: BigInt(block.timestamp) },
          })),
        );
        if (revived > 0) await versions.everythingChanged();
        else if (changed) await marketMoved();
      },
    }),
    startConsumer(kafka, {
      groupId: `${groupId}.rollbacks`,
      topic: topics.chainRollbacks,
      logger,
      async handleBatch(messages) {
        for (const { value } of messages) {
          const ancestor = { hash: value.commonAncestorHash, number: BigInt(value.commonAncestorNumber) };
          const { reopen } = await ownership.applyRollback(value.chainId, ancestor, value.orphanedBlockHashes, BigInt(value.sequence));
          await indexing.reopen(reopen, ancestor);
        }
        await versions.everythingChanged();
      },
    }),
  ]);
}
