import type { RequestContext } from '@wallet-api/core/proto/common';
import type { NftCollection, NftToken } from '@wallet-api/core/proto/nft';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import type { MarketStore } from '../store/market-store.js';
import { collectionKeyOf, type CollectionRow, type KnownToken, type TokenKey, type TokenStore } from '../store/token-store.js';
import { createFloorMemo } from './floor-memo.js';
import { toCollectionMessage, toNftMessage, type MarketFacts } from './nft-resources.js';

/** Tokens with their collections, spam marks and the chains' native symbols: what does not move with prices. */
export interface CatalogEntries {
  tokens: Map<string, KnownToken>;
  /** `<chain>:<contract>` -> row. */
  collections: Map<string, CollectionRow>;
  /** `<chain>:<contract>` of spam contracts. */
  spam: Set<string>;
  /** Chain id -> symbol of its native coin. */
  nativeSymbols: Map<string, string>;
}

export interface NftCatalog {
  entries(keys: readonly TokenKey[], context?: RequestContext): Promise<CatalogEntries>;
  /**
   * Floors of the entries' collections and the native prices; sales of `saleTokens` only (what the
   * answer shows). With `version` (sharedVersion of the tokens the caller read for `nfts` data
   * before it asked) the floors are shared with every reader of that version (FloorMemo).
   */
  market(entries: CatalogEntries, currency: string, context: RequestContext, saleTokens: readonly TokenKey[], version?: string): Promise<MarketFacts>;
  /** The newest sales of these tokens, to complete facts whose sales were not read. */
  sales(tokens: readonly TokenKey[]): Promise<MarketFacts['lastSales']>;
  nft(token: KnownToken, entries: CatalogEntries, market: MarketFacts): NftToken;
  collection(row: CollectionRow, entries: CatalogEntries, market: MarketFacts): NftCollection;
}

/** Reads tokens, collections and market facts from the stores and reference data, and renders them as proto messages. */
export function createNftCatalog(options: {
  tokens: TokenStore;
  market: MarketStore;
  tokenDirectory: TokenDirectory;
  referenceData: ReferenceDataClient;
}): NftCatalog {
  const { tokens, market, tokenDirectory, referenceData } = options;
  const floorMemo = createFloorMemo(market);
  return {
    async entries(keys, context) {
      const [known, collections] = await Promise.all([tokens.tokens(keys), tokens.collections(keys)]);
      const contracts = [...collections.values()].map((row) => ({ chainId: row.chainId, address: row.contract }));
      const chains = [...new Set(keys.map((key) => key.chainId))];
      const table = await tokenDirectory.load([...contracts, ...chains.map((chainId) => ({ chainId, address: '' }))], context);
      const spam = new Set(
        contracts
          .filter((token) => table.info(token.chainId, token.address)?.isSpam)
          .map((token) => collectionKeyOf({ chainId: token.chainId, contract: token.address })),
      );
      const nativeSymbols = new Map(chains.map((chainId) => [chainId, table.info(chainId, '')?.symbol ?? '']));
      // A collection whose name the worker has not read yet takes reference-data's (it reads name() too).
      for (const row of collections.values()) {
        if (!row.name) row.name = table.info(row.chainId, row.contract)?.name ?? '';
      }
      return { tokens: known, collections, spam, nativeSymbols };
    },

    sales: (keys) => market.lastSales(keys),

    async market(entries, currency, context, saleTokens, version) {
      const chains = [...new Set([...entries.collections.values()].map((row) => row.chainId))];
      const collections = [...entries.collections.values()];
      const [floors, lastSales, prices] = await Promise.all([
        version === undefined ? market.floors(collections) : floorMemo.floors(collections, version),
        market.lastSales(saleTokens),
        chains.length === 0
          ? Promise.resolve([])
          : pricesAt(referenceData, { context, currency, queries: chains.map((chainId) => ({ token: { chainId, address: '' }, timestamp: '0' })) }),
      ]);
      const nativePrices = new Map<string, number>();
      chains.forEach((chainId, index) => {
        const price = prices[index];
        if (price !== undefined) nativePrices.set(chainId, price);
      });
      return { floors, lastSales, nativePrices };
    },

    nft(token, entries, facts) {
      const key = collectionKeyOf(token);
      return toNftMessage(token, entries.collections.get(key)!, entries.spam.has(key), facts);
    },

    collection(row, entries, facts) {
      return toCollectionMessage(row, entries.spam.has(collectionKeyOf(row)), entries.nativeSymbols.get(row.chainId) ?? '', facts);
    },
  };
}
