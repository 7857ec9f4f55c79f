import { inList, orphanedBlockRows, sql, type Accepted, type ClickHouse } from '@wallet-api/core/clickhouse';
import { createLogger } from '@wallet-api/core/logger';
import { AssetKind, type WalletTransaction, type BalanceChange, type ChainBlock, type ChainRollback } from '@wallet-api/core/proto/events';
import { walletLegs, walletPart } from '@wallet-api/core/transactions';
import { createHistoryMemory, type HistoryMemory } from './history-memory.js';
import type { WalletTransactionRecord } from './history-rows.js';
import { decodeBody, encodeBody, encodeLegs, identityKey } from './transaction-bodies.js';
import { blockKey, type BlockKey } from './stored-view.js';
import { asListedRow, firstOfPage, matchesFilter, newestFirst } from './waiting-page.js';
import {
  listWalletTransactionsQuery,
  orphanedAmongQuery,
  transactionBodiesQuery,
  walletLegsQuery,
  type LegsRow,
  type ListedRow,
  type TransactionIdentity,
  type WalletTransactionFilter,
} from './wallet-transaction-query.js';

/** One wallet's reading of one transaction, as stored. */
export interface WalletTransactionRow {
  address: string;
  operationType: string;
  isTrash: boolean;
  assetTypes: readonly string[];
  tokenAddresses: readonly string[];
  counterparties: readonly string[];
}

export interface StoredWalletTransaction {
  chainId: string;
  address: string;
  blockNumber: bigint;
  blockHash: string;
  minedAt: number;
  transactionIndex: number;
  hash: string;
  operationType: string;
  isTrash: boolean;
  transaction: WalletTransaction;
}

export interface DecodedForWallets {
  transaction: WalletTransaction;
  rows: readonly WalletTransactionRow[];
}

export interface WalletHistoryStore {
  /**
   * Hands the rows of a batch of transactions over to be stored in one INSERT (HistoryMemory):
   * readers of the same memory see them at once, ClickHouse once `durable` resolves.
   *
   * No read before the write: a transaction's identity is (chain, block hash, transaction index)
   * and a row's is that plus the wallet, which ends the table's ReplacingMergeTree key. A message
   * handled again (indexer replay after a restart, redelivery after a crash before the commit,
   * two consumers briefly owning one partition) adds a row that merges fold away, and every
   * reader takes one row per identity (LIMIT BY, or FINAL) until they do. Repeats within a batch
   * are left out here.
   */
  writeTransactions(batch: readonly DecodedForWallets[]): Promise<Accepted>;
  /** One transaction's rows, stored before it resolves. */
  writeTransaction(transaction: WalletTransaction, rows: readonly WalletTransactionRow[]): Promise<void>;
  /** Stores balance changes in one INSERT, keyed (chain, block hash, transaction index, wallet, asset) as above. */
  writeBalanceChanges(changes: readonly BalanceChange[]): Promise<number>;
  /**
   * Records blocks as canonical at their sequence: stored with the next INSERT (see
   * HistoryMemory.blocks), at once where a rollback named one of them before, and before any
   * rollback. Writing the same message twice adds an identical row, which changes no argMax and
   * merges away, so no check is needed. Resolves with whether a rollback ever declared one of
   * them orphaned: a block it revives brings its transactions back.
   */
  recordBlocks(blocks: readonly ChainBlock[]): Promise<{ revived: boolean; durable: Promise<void> }>;
  /** Records the rollbacks' blocks as orphaned at their sequence, after every canonical row handed over before. */
  recordRollbacks(rollbacks: readonly ChainRollback[]): Promise<void>;
  listWalletTransactions(filter: WalletTransactionFilter): Promise<StoredWalletTransaction[]>;
  /**
   * The wallet's legs of its whole history on the chains (core walletLegs), oldest first, stored
   * and waiting rows merged as a page merges them, from one stored read, in chunks of about
   * `chunkSize` stored characters: each in its stored encoding (WalletLegs' protobuf bytes), for a
   * reader that decodes it anyway. A row stored before its legs were has them read from its body.
   */
  streamLegs(address: string, chainIds: readonly string[], chunkSize?: number): AsyncIterable<Buffer[]>;
}

const assetKindNames: Record<AssetKind, string> = {
  [AssetKind.ASSET_KIND_UNSPECIFIED]: 'unspecified',
  [AssetKind.ASSET_KIND_NATIVE]: 'native',
  [AssetKind.ASSET_KIND_ERC20]: 'erc20',
  [AssetKind.ASSET_KIND_ERC721]: 'erc721',
  [AssetKind.ASSET_KIND_ERC1155]: 'erc1155',
};

interface BodyRow {
  chain_id: string;
  block_hash: string;
  transaction_index: number;
  body: string;
}

const rowIdentity = (row: Pick<ListedRow, 'chain_id' | 'block_hash' | 'transaction_index'>): TransactionIdentity => ({
  chainId: row.chain_id,
  blockHash: row.block_hash,
  transactionIndex: Number(row.transaction_index),
});

/** True the first time a key is seen. */
function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** A history entry as merged: the wallet's stored legs, or the identity of a row stored before them. */
type MergedLegs = string | TransactionIdentity;

/** What a row stored before the `legs` column counts towards a chunk's size: about a body's base64 (a chunk's query names at most a thousand). */
const bodyCharactersCounted = 1_000;

const rowKey = (chainId: string, blockHash: string, index: number, address: string) => `${chainId}|${blockHash}|${index}|${address}`;

/**
 * `memory`: shared by the writer, which keeps what it writes there, and the readers of the same
 * process; without one, every write is stored before it returns.
 */
export function createWalletHistoryStore(
  clickhouse: ClickHouse,
  memory: HistoryMemory = createHistoryMemory({ clickhouse, logger: createLogger('wallet-history-store'), storeEveryMs: 0 }),
): WalletHistoryStore {
  const { bodies } = memory;

  /** The body of each of a page's rows, in row order: waiting or kept ones, the rest in one read. */
  async function bodiesOf(address: string, rows: readonly ListedRow[], waiting: readonly WalletTransactionRecord[]): Promise<WalletTransaction[]> {
    const identities = rows.map(rowIdentity);
    const keys = identities.map(identityKey);
    const waitingBodies = new Map(waiting.map((row) => [identityKey(rowIdentity(row)), row.body]));
    const found = new Map<string, WalletTransaction>();
    const missing: TransactionIdentity[] = [];
    identities.forEach((identity, index) => {
      const key = keys[index]!;
      const body = bodies.get(identity, address);
      const waitingBody = waitingBodies.get(key);
      if (body) found.set(key, body);
      else if (waitingBody !== undefined) found.set(key, decodeBody(waitingBody));
      else missing.push(identity);
    });
    if (missing.length > 0) {
      for (const row of await clickhouse.query<BodyRow>(transactionBodiesQuery(address, missing))) {
        const transaction = decodeBody(row.body);
        found.set(identityKey(rowIdentity(row)), transaction);
        bodies.keep(transaction, address, row.body.length);
      }
    }
    return keys.map((key) => {
      const transaction = found.get(key);
      // Rows are never deleted (a rollback orphans a block's hash), so a listed row has its body.
      if (!transaction) throw new Error(`no stored body for transaction ${key}`);
      return transaction;
    });
  }

  async function anyEverOrphaned(blocks: readonly ChainBlock[]): Promise<boolean> {
    if (blocks.length === 0) return false;
    const [row] = await clickhouse.query<{ found: string }>(
      sql`SELECT count() AS found FROM orphaned_block_hashes
        WHERE chain_id IN ${inList([...new Set(blocks.map((block) => block.chainId))])} AND block_hash IN ${inList(blocks.map((block) => block.hash))}`,
    );
    return Number(row?.found ?? 0) > 0;
  }

  const readOrphaned = async (blocks: readonly BlockKey[]): Promise<BlockKey[]> =>
    (await clickhouse.query<{ chain_id: string; block_hash: string }>(orphanedAmongQuery(blocks))).map((row) => ({
      chainId: row.chain_id,
      blockHash: row.block_hash,
    }));

  /**
   * The first `limit` of these rows (in page order) whose blocks are not orphaned: the page query's
   * orphan filter for waiting rows. One read unless a rollback orphaned some of them.
   */
  async function unorphaned(rows: readonly ListedRow[], limit: number): Promise<ListedRow[]> {
    const shown: ListedRow[] = [];
    let next = 0;
    while (shown.length < limit && next < rows.length) {
      const candidates = rows.slice(next, next + limit - shown.length);
      next += candidates.length;
      const blocks = candidates.map((row) => ({ chainId: row.chain_id, blockHash: row.block_hash }));
      const orphaned = memory.stored ? await memory.stored.orphaned(blocks, readOrphaned) : new Set((await readOrphaned(blocks)).map(blockKey));
      shown.push(...candidates.filter((row) => !orphaned.has(blockKey({ chainId: row.chain_id, blockHash: row.block_hash }))));
    }
    return shown;
  }

  /** The legs of rows stored before the `legs` column, read from their bodies in one query, by identityKey. */
  async function legsFromBodies(address: string, identities: readonly TransactionIdentity[]): Promise<Map<string, string>> {
    const legs = new Map<string, string>();
    for (const row of await clickhouse.query<BodyRow>(transactionBodiesQuery(address, identities))) {
      legs.set(identityKey(rowIdentity(row)), encodeLegs(walletLegs(decodeBody(row.body), address)));
    }
    return legs;
  }

  /**
   * The wallet's legs of its history oldest first, a batch per batch ClickHouse sends, with the
   * waiting rows a page would show placed among them (a row both waiting and stored, its INSERT
   * under way, counted once); a row stored before the `legs` column as its identity.
   */
  async function* mergedLegs(address: string, chainIds: readonly string[]): AsyncGenerator<MergedLegs[]> {
    const filter: WalletTransactionFilter = { address, chainIds, operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 0 };
    const waitingRows = memory.rows.waitingFor('wallet_transactions', address).filter((row) => matchesFilter(row, filter));
    const waitingLegs = new Map(waitingRows.map((row) => [identityKey(rowIdentity(row)), row.legs]));
    const waiting = (await unorphaned(firstOfPage(waitingRows.map(asListedRow), waitingRows.length), waitingRows.length)).reverse();
    const legsOfWaiting = (row: ListedRow) => waitingLegs.get(identityKey(rowIdentity(row)))!;
    let next = 0;
    for await (const rows of clickhouse.stream<LegsRow>(walletLegsQuery(address, chainIds))) {
      const legs: MergedLegs[] = [];
      for (const row of rows) {
        for (; next < waiting.length && newestFirst(waiting[next]!, row) > 0; next += 1) legs.push(legsOfWaiting(waiting[next]!));
        // Most streams have no waiting row: no identity key is built for their 100,000 stored ones.
        if (waitingLegs.size > 0 && waitingLegs.has(identityKey(rowIdentity(row)))) continue;
        legs.push(row.legs !== '' ? row.legs : rowIdentity(row));
      }
      yield legs;
    }
    yield waiting.slice(next).map(legsOfWaiting);
  }

  return {
    async writeTransactions(batch) {
      const seen = new Set<string>();
      const fresh = batch
        .flatMap(({ transaction, rows }) => rows.map((row) => ({ transaction, row })))
        .filter(({ transaction, row }) => firstTime(seen, rowKey(transaction.chainId, transaction.blockHash, transaction.transactionIndex, row.address)));
      const parts: { part: WalletTransaction; wallet: string; body: string }[] = [];
      const accepted = await memory.rows.add(
        'wallet_transactions',
        fresh.map(({ transaction, row }): WalletTransactionRecord => {
          // The wallet's own part: a transaction paying many wallets is stored once per wallet, not
          // once per wallet with every wallet's transfers.
          const part = walletPart(transaction, row.address);
          const body = encodeBody(part);
          parts.push({ part, wallet: row.address, body });
          const legs = encodeLegs(walletLegs(part, row.address));
          return {
            chain_id: transaction.chainId,
            address: row.address,
            block_number: transaction.blockNumber,
            block_hash: transaction.blockHash,
            block_timestamp: Number(transaction.blockTimestamp),
            transaction_index: transaction.transactionIndex,
            hash: transaction.hash,
            operation_type: row.operationType,
            is_trash: row.isTrash ? 1 : 0,
            asset_types: row.assetTypes,
            token_addresses: row.tokenAddresses,
            counterparties: row.counterparties,
            body,
            legs,
          };
        }),
      );
      for (const { part, wallet, body } of parts) bodies.keep(part, wallet, body.length);
      return accepted;
    },

    async writeTransaction(transaction, rows) {
      await (await this.writeTransactions([{ transaction, rows }])).durable;
    },

    async writeBalanceChanges(changes) {
      const seen = new Set<string>();
      const fresh = changes
        .map((change) => {
          const asset = change.asset ?? { kind: AssetKind.ASSET_KIND_UNSPECIFIED, address: '', tokenId: '' };
          return { change, assetKind: assetKindNames[asset.kind], assetAddress: asset.address, tokenId: asset.tokenId };
        })
        .filter(({ change, assetKind, assetAddress, tokenId }) =>
          firstTime(seen, `${rowKey(change.chainId, change.blockHash, change.transactionIndex, change.wallet)}|${assetKind}|${assetAddress}|${tokenId}`),
        );
      await clickhouse.insert(
        'balance_changes',
        fresh.map(({ change, assetKind, assetAddress, tokenId }) => ({
          address: change.wallet,
          chain_id: change.chainId,
          asset_kind: assetKind,
          asset_address: assetAddress,
          token_id: tokenId,
          block_number: change.blockNumber,
          block_hash: change.blockHash,
          block_timestamp: Number(change.blockTimestamp),
          transaction_hash: change.transactionHash,
          transaction_index: change.transactionIndex,
          amount: change.amount,
          amount_float: Number(change.amount),
        })),
      );
      return fresh.length;
    },

    async recordBlocks(blocks) {
      const { durable } = await memory.rows.add(
        'block_states',
        blocks.map((block) => ({ chain_id: block.chainId, block_hash: block.hash, block_number: block.number, orphaned: 0, sequence: block.sequence })),
      );
      const revived = await anyEverOrphaned(blocks);
      // A revived block shows again only once its newer row is stored; the pages kept without its
      // rows are read again then.
      if (revived) {
        await memory.rows.flush();
        memory.stored?.storedChanged();
      }
      return { revived, durable };
    },

    async recordRollbacks(rollbacks) {
      // A canonical row with a newer sequence than a rollback (the block came back since) must be
      // there when the orphaned rows land, or the stale rollback would hide the block meanwhile.
      await memory.rows.flush();
      await clickhouse.insert('block_states', rollbacks.flatMap(orphanedBlockRows));
      memory.stored?.storedChanged();
    },

    async *streamLegs(address, chainIds, chunkSize = 1_000_000) {
      let chunk: MergedLegs[] = [];
      let size = 0;
      // Rows stored before the `legs` column are read from their bodies, one query per chunk.
      const encoded = async () => {
        const older = chunk.filter((entry): entry is TransactionIdentity => typeof entry !== 'string');
        const fromBodies = older.length > 0 ? await legsFromBodies(address, older) : undefined;
        return chunk.map((entry) => {
          if (typeof entry === 'string') return Buffer.from(entry, 'base64');
          const legs = fromBodies!.get(identityKey(entry));
          // Rows are never deleted (a rollback orphans a block's hash), so a listed row has its body.
          if (legs === undefined) throw new Error(`no stored body for transaction ${identityKey(entry)}`);
          return Buffer.from(legs, 'base64');
        });
      };
      for await (const batch of mergedLegs(address, chainIds)) {
        for (const entry of batch) {
          chunk.push(entry);
          size += typeof entry === 'string' ? entry.length : bodyCharactersCounted;
          if (size < chunkSize) continue;
          yield await encoded();
          chunk = [];
          size = 0;
        }
      }
      if (chunk.length > 0) yield await encoded();
    },

    async listWalletTransactions(filter) {
      const waiting = memory.rows.waitingFor('wallet_transactions', filter.address).filter((row) => matchesFilter(row, filter));
      const readStored = () => clickhouse.query<ListedRow>(listWalletTransactionsQuery(filter));
      const stored = memory.stored ? memory.stored.page(filter, readStored) : readStored();
      const [storedRows, waitingShown] = await Promise.all([stored, unorphaned(firstOfPage(waiting.map(asListedRow), waiting.length), filter.limit)]);
      const rows = firstOfPage([...storedRows, ...waitingShown], filter.limit);
      const transactions = await bodiesOf(filter.address, rows, waiting);
      return rows.map((row, index) => ({
        chainId: row.chain_id,
        address: row.address,
        blockNumber: BigInt(row.block_number),
        blockHash: row.block_hash,
        minedAt: Number(row.mined_at),
        transactionIndex: Number(row.transaction_index),
        hash: row.hash,
        operationType: row.operation_type,
        isTrash: Number(row.is_trash) === 1,
        transaction: transactions[index]!,
      }));
    },
  };
}
