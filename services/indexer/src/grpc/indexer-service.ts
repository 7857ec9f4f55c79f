import type { ClickHouse } from '@wallet-api/core/clickhouse';
import { invalidArgument, registration, unary, type ServiceRegistration } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { IndexerService, TrashFilter, type IndexerServer, type ListWalletTransactionsRequest, type TransactionCursor } from '@wallet-api/core/proto/indexer';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory } from '@wallet-api/core/reference-data';
import { createTokenDirectory } from '../reference/token-directory.js';
import { toTransactionRecord, transactionContracts, transactionTokens } from '@wallet-api/core/transactions';
import { filterSnapshots } from '../snapshots/snapshot-filter.js';
import type { SnapshotSource } from '../snapshots/snapshot-source.js';
import type { HistoryMemory } from '../store/history-memory.js';
import { createWalletHistoryStore } from '../store/wallet-history-store.js';
import type { TransactionSearch, TrashFilter as StoreTrashFilter } from '../store/wallet-transaction-query.js';

export const maxPageSize = 100;
/** A history page for replaying services: bodies only, so a wallet of a million transactions takes a thousand pages. */
export const maxHistoryPageSize = 1_000;

const storeCursor = (after: TransactionCursor | undefined) =>
  after && { minedAtMs: BigInt(after.minedAtMs), blockNumber: BigInt(after.blockNumber), transactionIndex: after.transactionIndex, chainId: after.chainId };

const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const evmHash = /^0x[0-9a-fA-F]{64}$/;
const base58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

const trashFilters: Record<TrashFilter, StoreTrashFilter> = {
  [TrashFilter.TRASH_FILTER_ONLY_NON_TRASH]: 'only_non_trash',
  [TrashFilter.TRASH_FILTER_ONLY_TRASH]: 'only_trash',
  [TrashFilter.TRASH_FILTER_NO_FILTER]: 'no_filter',
};

/** EVM addresses and hashes are stored lowercase; Solana's base58 is case-sensitive and kept. */
export function normalizeAddress(address: string): string {
  return evmAddress.test(address) ? address.toLowerCase() : address;
}

/**
 * What a search query names: an EVM or Solana transaction hash (signatures are 64 bytes, 86 to 88
 * base58 characters), an EVM or Solana address (32 bytes, 32 to 44 characters), or else a symbol.
 */
export function readSearchQuery(query: string): { kind: 'hash' | 'address' | 'symbol'; value: string } {
  const trimmed = query.trim();
  if (evmHash.test(trimmed)) return { kind: 'hash', value: trimmed.toLowerCase() };
  if (evmAddress.test(trimmed)) return { kind: 'address', value: trimmed.toLowerCase() };
  if (base58.test(trimmed) && trimmed.length >= 86 && trimmed.length <= 88) return { kind: 'hash', value: trimmed };
  if (base58.test(trimmed) && trimmed.length >= 32 && trimmed.length <= 44) return { kind: 'address', value: trimmed };
  return { kind: 'symbol', value: trimmed };
}

export interface IndexerServiceDependencies {
  clickhouse: ClickHouse;
  referenceData: ReferenceDataClient;
  /** What the process's writer keeps (bodies, rows not stored yet); absent: the service reads ClickHouse alone. */
  memory?: HistoryMemory;
  /** `include_pending`'s `pending`: transactions in the chains' pending pools; absent: none. */
  pending?: SnapshotSource;
  /** `include_pending`'s `unsigned`: the organization's open actions for the wallet; absent: none. */
  unsigned?: SnapshotSource;
}

const noSnapshots: SnapshotSource = { list: async () => [] };

async function resolveSearch(
  query: string,
  chainIds: readonly string[],
  referenceData: ReferenceDataClient,
  context: RequestContext | undefined,
): Promise<TransactionSearch | undefined> {
  if (query.trim() === '') return undefined;
  const search = readSearchQuery(query);
  if (search.kind === 'hash') return { kind: 'hash', hash: search.value };
  if (search.kind === 'address') return { kind: 'address', address: search.value };
  const { tokens } = await unary(
    referenceData,
    referenceData.findTokensBySymbol,
    { context, symbol: search.value },
    {
      name: 'ReferenceData/FindTokensBySymbol',
    },
  );
  const chains = new Set(chainIds);
  return { kind: 'tokens', tokens: tokens.filter((token) => chains.has(token.chainId)).map((token) => ({ chainId: token.chainId, address: token.address })) };
}

/** The Indexer gRPC service: a wallet's stored transactions with their token and dapp facts. */
export function indexerService({
  clickhouse,
  referenceData,
  memory,
  pending = noSnapshots,
  unsigned = noSnapshots,
}: IndexerServiceDependencies): ServiceRegistration {
  const store = createWalletHistoryStore(clickhouse, memory);
  const tokens = createTokenDirectory(referenceData);
  const dapps = createDappDirectory(referenceData);
  return registration<IndexerServer>('walletapi.indexer.Indexer', IndexerService, {
    async listWalletTransactions(request: ListWalletTransactionsRequest) {
      if (request.address === '') throw invalidArgument('address is required');
      if (request.chainIds.length === 0) throw invalidArgument('chain_ids needs at least one chain');
      if (request.pageSize < 1 || request.pageSize > maxPageSize) throw invalidArgument(`page size must be 1 to ${maxPageSize}`);
      const address = normalizeAddress(request.address);
      const search = await resolveSearch(request.searchQuery, request.chainIds, referenceData, request.context);
      const filter = {
        address,
        chainIds: request.chainIds,
        operationTypes: request.operationTypes,
        trash: trashFilters[request.trash],
        minMinedAtMs: request.minMinedAtMs === undefined ? undefined : BigInt(request.minMinedAtMs),
        maxMinedAtMs: request.maxMinedAtMs === undefined ? undefined : BigInt(request.maxMinedAtMs),
        assetTypes: request.assetTypes,
        search,
      };
      // The snapshots take every filter but the cursor and the page size (spec 4.5).
      const snapshots = async (source: SnapshotSource) =>
        request.includePending
          ? filterSnapshots(await source.list({ organizationId: request.context?.organizationId ?? '', address, chainIds: request.chainIds }), filter)
          : [];
      const [rows, pendingRecords, unsignedRecords] = await Promise.all([
        store.listWalletTransactions({ ...filter, after: storeCursor(request.after), limit: request.pageSize + 1 }),
        snapshots(pending),
        snapshots(unsigned),
      ]);
      const page = rows.slice(0, request.pageSize);
      const [tokenTable, dappTable] = await Promise.all([
        tokens.load(
          page.flatMap((row) => transactionTokens(row.transaction)),
          request.context,
        ),
        dapps.load(
          page.flatMap((row) => transactionContracts(row.transaction)),
          request.context,
        ),
      ]);
      return {
        transactions: page.map((row) =>
          // The stored readings, not a fresh wallet view's, so filters and answers always agree.
          toTransactionRecord(
            row.transaction,
            row.address,
            { tokens: tokenTable, dapps: dappTable },
            { reading: { operationType: row.operationType, isTrash: row.isTrash } },
          ),
        ),
        hasMore: rows.length > request.pageSize,
        pending: pendingRecords,
        unsigned: unsignedRecords,
      };
    },
    async listWalletHistory(request) {
      if (request.address === '') throw invalidArgument('address is required');
      if (request.chainIds.length === 0) throw invalidArgument('chain_ids needs at least one chain');
      if (request.pageSize < 1 || request.pageSize > maxHistoryPageSize) throw invalidArgument(`page size must be 1 to ${maxHistoryPageSize}`);
      const rows = await store.listWalletTransactions({
        address: normalizeAddress(request.address),
        chainIds: request.chainIds,
        operationTypes: [],
        trash: 'no_filter',
        assetTypes: [],
        after: storeCursor(request.after),
        limit: request.pageSize + 1,
      });
      return { transactions: rows.slice(0, request.pageSize).map((row) => row.transaction), hasMore: rows.length > request.pageSize };
    },
    async *streamWalletLegs(request) {
      if (request.address === '') throw invalidArgument('address is required');
      if (request.chainIds.length === 0) throw invalidArgument('chain_ids needs at least one chain');
      for await (const legs of store.streamLegs(normalizeAddress(request.address), request.chainIds)) yield { legs };
    },
  });
}
