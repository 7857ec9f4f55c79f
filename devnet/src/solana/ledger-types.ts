import type { LiteSVM } from 'litesvm';
import type { Transaction } from '@solana/kit';
import type { InterestBearing, ScaledUiAmount } from './ui-amount.js';

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
  /**
   * Blockhash a new transaction must name: the one the open block executes with, i.e. the newest
   * sealed block's (before the first seal, the genesis hash). Any of the last 150 blocks' hashes
   * is accepted, as a node accepts them.
   */
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  block(slot: bigint): SealedBlock | undefined;
  /** Sealed transactions only; one in the open block is not in a block yet. */
  transaction(signature: string): RecordedTransaction | undefined;
  /** Newest first, as getSignaturesForAddress lists them (sealed transactions only). */
  signaturesForAddress(address: string): readonly RecordedTransaction[];

  /** Slot of the first block (the ledger starts there; slots before it never existed). */
  readonly firstSlot: bigint;
  /** Blockhash the first block names as its previous one (LiteSVM's starting blockhash). */
  readonly genesisHash: string;
  /** The block producer: receives the fees of each block (`rewards`, type Fee). */
  readonly leader: string;
  /** The faucet `airdrop` pays from. */
  readonly faucet: string;
  /** Recorded transactions of the open block, in order. */
  pending(): readonly RecordedTransaction[];
  /** Where a signature stands: in a sealed block, in the open block, or unknown (undefined). */
  signatureStatus(signature: string): { slot: bigint; err: unknown; sealed: boolean } | undefined;
  /** Valid for a new transaction: one of the last 150 blocks' hashes (or the genesis hash early on). */
  isBlockhashValid(blockhash: string): boolean;
  /** Last block height at which a transaction naming `blockhash` can land, undefined when unknown. */
  lastValidBlockHeight(blockhash: string): bigint | undefined;
  /** Runs a transaction (signatures unchecked) without recording it or keeping its effects (RPC simulateTransaction). */
  simulate(transaction: Transaction, options?: { checkBlockhash?: boolean }): SimulatedTransaction;
  /** A transfer from the faucet, recorded in the open block like any transaction (RPC requestAirdrop). */
  airdrop(address: string, lamports: bigint): SentTransaction;
}

export interface SimulatedTransaction {
  err: unknown;
  logs: string[];
  computeUnitsConsumed: bigint;
  /** Lamports of every account key after the simulated run (base58 address to account), when it ran. */
  postAccounts: Map<string, { lamports: bigint; data: Uint8Array; owner: string; executable: boolean }>;
  innerInstructions: { index: number; instructions: CompiledInstructionRecord[] }[];
  returnData: { programId: string; data: Uint8Array } | null;
  loadedAccountsDataSize: number;
  fee: bigint | null;
  preBalances: bigint[] | null;
  postBalances: bigint[] | null;
  preTokenBalances: TokenBalance[] | null;
  postTokenBalances: TokenBalance[] | null;
  loadedAddresses: { writable: string[]; readonly: string[] } | null;
  accountKeys: string[];
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
  /** Block rewards: the producer's share of the block's fees (50% of base fees, all priority fees). */
  rewards: readonly BlockReward[];
}

export interface BlockReward {
  pubkey: string;
  lamports: bigint;
  postBalance: bigint;
  rewardType: 'Fee';
  commission: null;
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  /** Raw amount as a decimal string, and the mint's decimals (the RPC derives uiTokenAmount from them). */
  amount: string;
  decimals: number;
  /** Token-2022 display scaling of the mint at execution time (the RPC's uiAmount applies it). */
  scaledUiAmount?: ScaledUiAmount;
  interestBearing?: InterestBearing;
  /** Clock time the scaling is evaluated at. */
  unixTimestamp?: bigint;
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
    /** v0 messages only. */
    addressTableLookups: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
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
    /** Addresses loaded from lookup tables (v0), which follow the static keys in the balances. */
    loadedAddresses: { writable: string[]; readonly: string[] };
    returnData: { programId: string; data: Uint8Array } | null;
    /** Cost-model units of the executed transaction (signatures, write locks, data, CUs, loaded data). */
    costUnits: bigint;
  };
}
