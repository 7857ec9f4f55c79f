/** A `wallet_transactions` row as inserted. */
export type WalletTransactionRecord = {
  chain_id: string;
  address: string;
  block_number: string;
  block_hash: string;
  block_timestamp: number;
  transaction_index: number;
  hash: string;
  operation_type: string;
  is_trash: number;
  asset_types: readonly string[];
  token_addresses: readonly string[];
  counterparties: readonly string[];
  body: string;
  /** The wallet's WalletLegs, base64 ('' for a row stored before the column). */
  legs: string;
};

/** A `block_states` row as inserted. */
export type BlockStateRecord = {
  chain_id: string;
  block_hash: string;
  block_number: string;
  orphaned: number;
  sequence: string;
};

/** The tables the indexer's writer stores through HistoryMemory. */
export type HistoryTables = {
  wallet_transactions: WalletTransactionRecord;
  block_states: BlockStateRecord;
};
