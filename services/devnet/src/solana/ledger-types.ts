import type { LiteSVM } from 'litesvm';
import type { Transaction } from '@solana/kit';

/**
 * The local Solana chain: LiteSVM executes, the ledger records what a validator would keep
 * (blocks by slot, transactions with their meta) so the JSON-RPC server can answer like a node.
 * One block per sealed slot; slots are dense (no skipped slots) and there are no forks.
 */
export interface SolanaLedger {
  /** The runtime; readers (balances, accounts, rent) may use it directly. */
  readonly svm: LiteSVM;
  /** Slot of the open block, which `send` fills and `seal` closes. */
  openSlot(): bigint;
  /** Newest sealed block, or undefined before the first seal. */
  head(): SealedBlock | undefined;
  /**
   * Executes a signed transaction at once and records it in the open block with its meta.
   * A transaction the runtime executed and failed is recorded (its fee was charged); one it
   * refused before execution (bad signature, unknown blockhash, fee payer cannot pay) is not
   * recorded and comes back with `recorded: false`.
   */
  send(transaction: Transaction): SentTransaction;
  /** Seals the open block at `blockTime` (unix seconds, never below the previous block's) and opens the next slot. */
  seal(blockTime: number): SealedBlock;
  /** Blockhash a new transaction must name: the open block's. */
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  block(slot: bigint): SealedBlock | undefined;
  transaction(signature: string): RecordedTransaction | undefined;
  /** Newest first, as getSignaturesForAddress lists them. */
  signaturesForAddress(address: string): readonly RecordedTransaction[];
}

export interface SentTransaction {
  signature: string;
  recorded: boolean;
  /** Runtime error as the RPC's `err` shows it (e.g. `{ InstructionError: [0, { Custom: 1 }] }`), null on success. */
  err: unknown;
  logs: readonly string[];
}

export interface SealedBlock {
  slot: bigint;
  parentSlot: bigint;
  blockHeight: bigint;
  blockTime: number;
  /** base58 */
  blockhash: string;
  previousBlockhash: string;
  transactions: readonly RecordedTransaction[];
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  /** Raw amount as a decimal string, and the mint's decimals (the RPC derives uiTokenAmount from them). */
  amount: string;
  decimals: number;
}

export interface CompiledInstructionRecord {
  programIdIndex: number;
  accounts: number[];
  /** base58 instruction data, as the RPC's `json` encoding gives it. */
  data: string;
  stackHeight: number | null;
}

export interface RecordedTransaction {
  slot: bigint;
  blockTime: number;
  /** Position in its block. */
  index: number;
  signatures: string[];
  /** Wire bytes of the signed transaction (for `base64` encoding). */
  wire: Uint8Array;
  message: {
    header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
    accountKeys: string[];
    recentBlockhash: string;
    instructions: CompiledInstructionRecord[];
    /** 'legacy' or 0 */
    version: 'legacy' | 0;
  };
  meta: {
    err: unknown;
    /** Lamports: base fee (5000 per signature) plus the priority fee (ceil(unit price x unit limit / 1e6)). */
    fee: bigint;
    preBalances: bigint[];
    postBalances: bigint[];
    preTokenBalances: TokenBalance[];
    postTokenBalances: TokenBalance[];
    innerInstructions: { index: number; instructions: CompiledInstructionRecord[] }[];
    logMessages: string[];
    computeUnitsConsumed: bigint;
  };
}
