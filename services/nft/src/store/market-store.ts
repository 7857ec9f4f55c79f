import { Prisma, type PrismaClient } from '@wallet-api/core/db';
import type { MarketEvent } from '../market/market-logs.js';
import { collectionKeyOf, keyTable, tokenKeyOf, type TokenKey } from './token-store.js';

export interface Sale {
  /** Wei of the chain's native coin. */
  price: bigint;
  /** Tokens sold (the devnet market sells one ERC-721 token at a time). */
  quantity: bigint;
  soldAt: bigint;
}

export interface MarketStore {
  /** Idempotent: events are keyed by block hash and log index. */
  saveEvents(events: readonly MarketEvent[]): Promise<void>;
  /**
   * Per collection (`<chain>:<contract>`), the lowest price of a listing that still stands: the
   * token's newest listing, not sold, and the token not moved since it was listed (a move clears
   * the ERC-721 approval the market sells under). Events and moves of orphaned blocks do not count.
   */
  floors(collections: readonly { chainId: string; contract: string }[]): Promise<Map<string, bigint>>;
  /** Per token (`<chain>:<contract>:<token id>`), its newest sale. */
  lastSales(tokens: readonly TokenKey[]): Promise<Map<string, Sale>>;
}

export function createMarketStore(prisma: PrismaClient): MarketStore {
  return {
    async saveEvents(events) {
      if (events.length === 0) return;
      await prisma.nftMarketEvent.createMany({
        data: events.map((event) => ({
          ...event,
          listingId: new Prisma.Decimal(event.listingId.toString()),
          price: new Prisma.Decimal(event.price.toString()),
        })),
        skipDuplicates: true,
      });
    },

    async floors(collections) {
      const found = new Map<string, bigint>();
      if (collections.length === 0) return found;
      const unique = [...new Map(collections.map((collection) => [collectionKeyOf(collection), collection])).values()];
      const pairs = Prisma.sql`unnest(${unique.map((collection) => collection.chainId)}::text[], ${unique.map((collection) => collection.contract)}::text[]) AS k(chain_id, contract)`;
      const rows = await prisma.$queryRaw<{ chain_id: string; contract: string; floor: Prisma.Decimal }[]>`
        WITH listed AS (
          SELECT DISTINCT ON (m.chain_id, m.market, m.contract, m.token_id) m.chain_id, m.market, m.contract, m.token_id, m.listing_id, m.block_number, m.price
          FROM nft_market_events m
          JOIN ${pairs} ON k.chain_id = m.chain_id AND k.contract = m.contract
          LEFT JOIN nft_block_states s ON s.chain_id = m.chain_id AND s.block_hash = m.block_hash
          WHERE m.kind = 'listed' AND s.orphaned IS NOT TRUE
          ORDER BY m.chain_id, m.market, m.contract, m.token_id, m.block_number DESC, m.log_index DESC
        )
        SELECT l.chain_id, l.contract, min(l.price) AS floor FROM listed l
        WHERE NOT EXISTS (
          SELECT 1 FROM nft_market_events x LEFT JOIN nft_block_states xs ON xs.chain_id = x.chain_id AND xs.block_hash = x.block_hash
          WHERE x.chain_id = l.chain_id AND x.market = l.market AND x.kind = 'sold' AND x.listing_id = l.listing_id AND xs.orphaned IS NOT TRUE
        )
        AND NOT EXISTS (
          SELECT 1 FROM nft_transfer_entries e LEFT JOIN nft_block_states es ON es.chain_id = e.chain_id AND es.block_hash = e.block_hash
          WHERE e.chain_id = l.chain_id AND e.contract = l.contract AND e.token_id = l.token_id AND e.block_number > l.block_number AND es.orphaned IS NOT TRUE
        )
        GROUP BY l.chain_id, l.contract`;
      for (const row of rows) found.set(collectionKeyOf({ chainId: row.chain_id, contract: row.contract }), BigInt(row.floor.toFixed(0)));
      return found;
    },

    async lastSales(tokens) {
      const found = new Map<string, Sale>();
      if (tokens.length === 0) return found;
      const rows = await prisma.$queryRaw<{ chain_id: string; contract: string; token_id: string; price: Prisma.Decimal; block_timestamp: bigint }[]>`
        SELECT DISTINCT ON (m.chain_id, m.contract, m.token_id) m.chain_id, m.contract, m.token_id, m.price, m.block_timestamp
        FROM nft_market_events m
        JOIN ${keyTable(tokens)} ON k.chain_id = m.chain_id AND k.contract = m.contract AND k.token_id = m.token_id
        LEFT JOIN nft_block_states s ON s.chain_id = m.chain_id AND s.block_hash = m.block_hash
        WHERE m.kind = 'sold' AND s.orphaned IS NOT TRUE
        ORDER BY m.chain_id, m.contract, m.token_id, m.block_number DESC, m.log_index DESC`;
      for (const row of rows) {
        found.set(tokenKeyOf({ chainId: row.chain_id, contract: row.contract, tokenId: row.token_id }), {
          price: BigInt(row.price.toFixed(0)),
          quantity: 1n,
          soldAt: row.block_timestamp,
        });
      }
      return found;
    },
  };
}
