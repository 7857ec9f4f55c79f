import type { Logger } from '@wallet-api/core/logger';
import type { ChainBlock } from '@wallet-api/core/proto/events';
import { numberToHex, type Hex } from 'viem';
import type { ChainClients } from '../chain/chain-clients.js';
import type { MarketStore } from '../store/market-store.js';
import { marketEvent, type MarketLog } from './market-logs.js';

export interface MarketFollower {
  /** Reads and keeps the trusted markets' events of these published blocks; `changed` when there were any. */
  follow(blocks: readonly ChainBlock[]): Promise<{ changed: boolean }>;
}

/**
 * The markets' Listed and Sold logs of the blocks the indexer publishes: one eth_getLogs per chain
 * over the batch's range, kept only for the published hashes (a log of a block another branch
 * replaced belongs to no published block; the replacement comes in a later batch and is read then).
 */
export function createMarketFollower(options: { clients: ChainClients; store: MarketStore; logger: Logger }): MarketFollower {
  const { clients, store, logger } = options;
  return {
    async follow(blocks) {
      let changed = false;
      const byChain = new Map<string, ChainBlock[]>();
      for (const block of blocks) byChain.set(block.chainId, [...(byChain.get(block.chainId) ?? []), block]);
      for (const [chainId, chainBlocks] of byChain) {
        const markets = await clients.markets(chainId).catch((error: unknown) => {
          // A chain reference-data does not list (removed from the configuration) has no markets.
          logger.warn({ err: error, chainId }, 'the markets of the chain could not be listed; its blocks are read without');
          return [];
        });
        const client = markets.length > 0 ? await clients.client(chainId) : undefined;
        if (!client) continue;
        const published = new Map(chainBlocks.map((block) => [block.hash, BigInt(block.timestamp)]));
        const numbers = chainBlocks.map((block) => BigInt(block.number));
        const from = numbers.reduce((low, number) => (number < low ? number : low));
        const to = numbers.reduce((high, number) => (number > high ? number : high));
        const logs = (await client.request({
          method: 'eth_getLogs',
          params: [{ address: markets as Hex[], fromBlock: numberToHex(from), toBlock: numberToHex(to) }],
        })) as unknown as MarketLog[];
        const events = logs.flatMap((log) => {
          const timestamp = log.blockHash ? published.get(log.blockHash) : undefined;
          return timestamp === undefined ? [] : (marketEvent(chainId, log, timestamp) ?? []);
        });
        await store.saveEvents(events);
        changed ||= events.length > 0;
      }
      return { changed };
    },
  };
}
