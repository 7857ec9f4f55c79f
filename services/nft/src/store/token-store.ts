import { Prisma, type PrismaClient } from '@wallet-api/core/db';
import type { NftMetadata } from '../metadata/nft-metadata.js';
import type { NftStandard } from './ownership-store.js';

export interface TokenKey {
  chainId: string;
  contract: string;
  tokenId: string;
}

export interface KnownToken extends TokenKey {
  standard: NftStandard;
  /** Undefined while not fetched, and when the metadata could not be used. */
  metadata?: NftMetadata;
}

export interface CollectionRow {
  id: number;
  chainId: string;
  contract: string;
  standard: NftStandard;
  name: string;
  symbol: string;
  description: string;
  iconUrl: string;
  bannerUrl: string;
}

/** A token whose metadata is due: never fetched, or a retry whose time has come. */
export interface DueToken extends TokenKey {
  standard: NftStandard;
  attempts: number;
}

export type FetchResult =
  | { kind: 'fetched'; metadata: NftMetadata; uri: string }
  | { kind: 'retry'; reason: string; at: Date; uri: string }
  | { kind: 'unusable'; reason: string; uri: string };

export interface TokenStore {
  /** Rows for tokens and their collections not known yet (metadata pending); known ones are left alone. */
  ensure(tokens: readonly (TokenKey & { standard: NftStandard })[]): Promise<void>;
  tokens(keys: readonly TokenKey[]): Promise<Map<string, KnownToken>>;
  collections(keys: readonly { chainId: string; contract: string }[]): Promise<Map<string, CollectionRow>>;
  collectionsById(ids: readonly number[]): Promise<CollectionRow[]>;
  /** Claims up to `limit` due tokens: their next attempt moves `leaseMs` ahead, so another worker skips them meanwhile. */
  claimDue(limit: number, leaseMs: number): Promise<DueToken[]>;
  saveFetch(token: TokenKey, result: FetchResult): Promise<void>;
  /** Wallets holding the token by the entries seen (who is told its metadata changed). */
  holders(token: TokenKey): Promise<string[]>;
}

export const tokenKeyOf = (key: TokenKey) => `${key.chainId}:${key.contract}:${key.tokenId}`;

/**
 * The keys as a table `k(chain_id, contract, token_id)` to join with: three bound arrays, where a
 * row-value IN list of a large wallet's 10,000 tokens exceeds PostgreSQL's stack depth.
 */
export function keyTable(keys: readonly TokenKey[]): Prisma.Sql {
  return Prisma.sql`unnest(${keys.map((key) => key.chainId)}::text[], ${keys.map((key) => key.contract)}::text[], ${keys.map((key) => key.tokenId)}::text[]) AS k(chain_id, contract, token_id)`;
}
export const collectionKeyOf = (key: { chainId: string; contract: string }) => `${key.chainId}:${key.contract}`;

function toCollection(row: {
  id: number;
  chainId: string;
  contract: string;
  standard: string;
  name: string;
  symbol: string;
  description: string;
  iconUrl: string;
  bannerUrl: string;
}): CollectionRow {
  return { ...row, standard: row.standard as NftStandard };
}

export function createTokenStore(prisma: PrismaClient): TokenStore {
  return {
    async ensure(tokens) {
      if (tokens.length === 0) return;
      const unique = [...new Map(tokens.map((token) => [tokenKeyOf(token), token])).values()];
      const collections = [...new Map(unique.map((token) => [collectionKeyOf(token), token])).values()];
      await prisma.nftCollection.createMany({
        data: collections.map(({ chainId, contract, standard }) => ({ chainId, contract, standard })),
        skipDuplicates: true,
      });
      await prisma.nftToken.createMany({
        data: unique.map(({ chainId, contract, tokenId, standard }) => ({ chainId, contract, tokenId, standard })),
        skipDuplicates: true,
      });
    },

    async tokens(keys) {
      const found = new Map<string, KnownToken>();
      if (keys.length === 0) return found;
      const rows = await prisma.$queryRaw<
        { chain_id: string; contract: string; token_id: string; standard: string; metadata_state: string; metadata: unknown }[]
      >`
        SELECT t.chain_id, t.contract, t.token_id, t.standard, t.metadata_state, t.metadata FROM nft_tokens t
        JOIN ${keyTable(keys)} ON k.chain_id = t.chain_id AND k.contract = t.contract AND k.token_id = t.token_id`;
      for (const row of rows) {
        const token: KnownToken = { chainId: row.chain_id, contract: row.contract, tokenId: row.token_id, standard: row.standard as NftStandard };
        if (row.metadata_state === 'fetched' && row.metadata) token.metadata = row.metadata as NftMetadata;
        found.set(tokenKeyOf(token), token);
      }
      return found;
    },

    async collections(keys) {
      const found = new Map<string, CollectionRow>();
      if (keys.length === 0) return found;
      const unique = [...new Map(keys.map((key) => [collectionKeyOf(key), key])).values()];
      const rows = await prisma.$queryRaw<
        {
          id: number;
          chain_id: string;
          contract: string;
          standard: string;
          name: string;
          symbol: string;
          description: string;
          icon_url: string;
          banner_url: string;
        }[]
      >`
        SELECT c.id, c.chain_id, c.contract, c.standard, c.name, c.symbol, c.description, c.icon_url, c.banner_url FROM nft_collections c
        JOIN unnest(${unique.map((key) => key.chainId)}::text[], ${unique.map((key) => key.contract)}::text[]) AS k(chain_id, contract)
          ON k.chain_id = c.chain_id AND k.contract = c.contract`;
      for (const row of rows) {
        const collection = toCollection({
          id: row.id,
          chainId: row.chain_id,
          contract: row.contract,
          standard: row.standard,
          name: row.name,
          symbol: row.symbol,
          description: row.description,
          iconUrl: row.icon_url,
          bannerUrl: row.banner_url,
        });
        found.set(collectionKeyOf(collection), collection);
      }
      return found;
    },

    async collectionsById(ids) {
      if (ids.length === 0) return [];
      return (await prisma.nftCollection.findMany({ where: { id: { in: [...ids] } } })).map(toCollection);
    },

    async claimDue(limit, leaseMs) {
      const rows = await prisma.$queryRaw<{ chain_id: string; contract: string; token_id: string; standard: string; attempts: number }[]>`
        UPDATE nft_tokens SET next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
        WHERE (chain_id, contract, token_id) IN (
          SELECT chain_id, contract, token_id FROM nft_tokens
          WHERE metadata_state = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        RETURNING chain_id, contract, token_id, standard, attempts`;
      return rows.map((row) => ({
        chainId: row.chain_id,
        contract: row.contract,
        tokenId: row.token_id,
        standard: row.standard as NftStandard,
        attempts: row.attempts,
      }));
    },

    async saveFetch(token, result) {
      const where = { chainId_contract_tokenId: { chainId: token.chainId, contract: token.contract, tokenId: token.tokenId } };
      if (result.kind === 'fetched') {
        await prisma.nftToken.update({
          where,
          data: {
            metadataState: 'fetched',
            metadata: result.metadata as unknown as Prisma.InputJsonValue,
            uri: result.uri,
            lastError: '',
            attempts: { increment: 1 },
          },
        });
      } else if (result.kind === 'retry') {
        await prisma.nftToken.update({
          where,
          data: { nextAttemptAt: result.at, uri: result.uri, lastError: result.reason.slice(0, 500), attempts: { increment: 1 } },
        });
      } else {
        await prisma.nftToken.update({
          where,
          data: { metadataState: 'unusable', uri: result.uri, lastError: result.reason.slice(0, 500), attempts: { increment: 1 } },
        });
      }
    },

    async holders(token) {
      const rows = await prisma.$queryRaw<{ wallet: string }[]>`
        SELECT wallet FROM nft_transfer_entries WHERE chain_id = ${token.chainId} AND contract = ${token.contract} AND token_id = ${token.tokenId}
        GROUP BY wallet HAVING sum(amount) > 0
        UNION SELECT wallet FROM nft_opening_holdings WHERE chain_id = ${token.chainId} AND contract = ${token.contract} AND token_id = ${token.tokenId}`;
      return rows.map((row) => row.wallet);
    },
  };
}
