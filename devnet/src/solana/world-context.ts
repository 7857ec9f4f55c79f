// What the world's planners share while one block is filled: the ledger, the keys, the mints, the
// wallets that have joined and those already used in the block, and the sender that signs and
// records a planned transaction.
import {
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import type { Rng } from '../world/rng.js';
import type { SentTransaction, SolanaLedger } from './ledger-types.js';
import { tokenAccountAmount, type SolanaMint, type SolanaMintKey } from './world-mints.js';

/** A transaction a planner wants sent; the sender adds the compute budget and picks the message version. */
export interface PlannedTransaction {
  feePayer: KeyPairSigner;
  instructions: Instruction[];
  /** World wallets taking part, each with the label its manifest record gains (the actor first). */
  labels: { wallet: Address; label: string }[];
  /** The transaction is meant to fail (it is recorded with its error and its fee charged). */
  expectFailure?: boolean;
}

export interface SolanaWorldContext {
  ledger: SolanaLedger;
  rng: Rng;
  funder: KeyPairSigner;
  mints: Record<SolanaMintKey, SolanaMint>;
  ata(owner: Address, mint: SolanaMint): Promise<Address>;
  /** Time of the block being filled. */
  time: number;
  /** Wallets that have received their first lamports in an earlier block. */
  joined: readonly KeyPairSigner[];
  /** Wallets already in a transaction of the open block (one wallet at most once per block). */
  busy: Set<Address>;
}

/** Lamports of an account now (the ledger executes at once, so this includes the open block). */
export function lamportsOf(context: SolanaWorldContext, address: Address): bigint {
  return context.ledger.svm.getBalance(address) ?? 0n;
}

/** Raw token amount of `owner`'s associated account for `mint`; undefined when it has none. */
export async function tokenAmountOf(context: SolanaWorldContext, owner: Address, mint: SolanaMint): Promise<bigint | undefined> {
  const account = context.ledger.svm.getAccount(await context.ata(owner, mint));
  return account.exists ? tokenAccountAmount(account.data as Uint8Array) : undefined;
}

/** Joined wallets free in this block, in join order, without `except`. */
export function availableWallets(context: SolanaWorldContext, except?: Address): KeyPairSigner[] {
  return context.joined.filter((wallet) => wallet.address !== except && !context.busy.has(wallet.address));
}

/** A free counterparty for `wallet`, or undefined when every other joined wallet is busy. */
export function pickCounterparty(context: SolanaWorldContext, wallet: Address): KeyPairSigner | undefined {
  const candidates = availableWallets(context, wallet);
  return candidates.length > 0 ? context.rng.pick(candidates) : undefined;
}

export interface TransactionOptions {
  version: 'legacy' | 0;
  priorityFee?: { unitLimit: number; microLamports: bigint };
}

/** Signs a planned transaction against the open block's blockhash. */
export async function signPlanned(ledger: SolanaLedger, planned: PlannedTransaction, options: TransactionOptions) {
  const latest = ledger.latestBlockhash();
  const budget = options.priorityFee
    ? [
        getSetComputeUnitLimitInstruction({ units: options.priorityFee.unitLimit }),
        getSetComputeUnitPriceInstruction({ microLamports: options.priorityFee.microLamports }),
      ]
    : [];
  const message = pipe(
    createTransactionMessage({ version: options.version }),
    (draft) => setTransactionMessageFeePayerSigner(planned.feePayer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash(latest.blockhash), lastValidBlockHeight: latest.lastValidBlockHeight }, draft),
    (draft) => appendTransactionMessageInstructions([...budget, ...planned.instructions], draft),
  );
  return signTransactionMessageWithSigners(message);
}

export interface SendOutcome extends SentTransaction {
  planned: PlannedTransaction;
  priorityFee: boolean;
}

/**
 * Sends planned transactions: about a third of them with a priority fee, a quarter as version-0
 * messages (the rest legacy). Throws when the runtime refuses one or when one fails that was not
 * meant to (or succeeds when it was meant to fail): a world that is not as planned is a bug.
 */
export type WorldSender = (planned: PlannedTransaction) => Promise<SendOutcome>;

export function createWorldSender(ledger: SolanaLedger, rng: Rng, onSent: (outcome: SendOutcome) => void): WorldSender {
  return async (planned: PlannedTransaction): Promise<SendOutcome> => {
    const priority = rng.chance(0.35);
    const options: TransactionOptions = {
      version: rng.chance(0.25) ? 0 : 'legacy',
      ...(priority ? { priorityFee: { unitLimit: rng.int(120, 400) * 1_000, microLamports: BigInt(rng.int(1, 500) * 1_000) } } : {}),
    };
    const transaction = await signPlanned(ledger, planned, options);
    const sent = ledger.send(transaction);
    const outcome: SendOutcome = { ...sent, planned, priorityFee: priority };
    const failed = sent.err !== null && sent.err !== undefined;
    if (!sent.recorded || failed !== Boolean(planned.expectFailure)) {
      const what = planned.labels[0]?.label ?? 'transaction';
      throw new Error(
        `solana world: ${what} ${sent.recorded ? (failed ? 'failed' : 'succeeded against plan') : 'was refused'}: ${JSON.stringify(sent.err, (_, value) => (typeof value === 'bigint' ? value.toString() : value))}\n${sent.logs.join('\n')}`,
      );
    }
    onSent(outcome);
    return outcome;
  };
}
