/**
 * A block as `getBlock` answers it with `encoding: 'json'`, `transactionDetails: 'full'` and
 * `maxSupportedTransactionVersion: 0`, reduced to what the decoder reads. `@solana/kit` turns the
 * node's u64 numbers into bigint and leaves indexes as numbers; plain JSON (tests, recorded
 * answers) has numbers everywhere, so every numeric field takes both.
 */
export type RpcNumber = number | bigint;

export interface SolanaCompiledInstruction {
  programIdIndex: RpcNumber;
  accounts: readonly RpcNumber[];
  /** base58 */
  data: string;
}

export interface SolanaTokenBalance {
  accountIndex: RpcNumber;
  mint: string;
  /** Absent on nodes older than 1.10; the decoder then cannot name the holder and skips the entry. */
  owner?: string;
  programId?: string;
  uiTokenAmount: { amount: string; decimals: RpcNumber };
}

export interface SolanaBlockTransaction {
  transaction: {
    signatures: readonly string[];
    message: {
      accountKeys: readonly string[];
      instructions: readonly SolanaCompiledInstruction[];
      recentBlockhash: string;
    };
  };
  meta: {
    err: unknown;
    fee: RpcNumber;
    preBalances: readonly RpcNumber[];
    postBalances: readonly RpcNumber[];
    preTokenBalances?: readonly SolanaTokenBalance[] | null;
    postTokenBalances?: readonly SolanaTokenBalance[] | null;
    innerInstructions?: readonly { index: RpcNumber; instructions: readonly SolanaCompiledInstruction[] }[] | null;
    /** Accounts a version-0 transaction loaded from lookup tables; they follow the static keys. */
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null;
  } | null;
  version?: 'legacy' | RpcNumber;
}

export interface SolanaBlock {
  blockhash: string;
  previousBlockhash: string;
  parentSlot: RpcNumber;
  blockTime: RpcNumber | null;
  blockHeight?: RpcNumber | null;
  transactions: readonly SolanaBlockTransaction[];
}
