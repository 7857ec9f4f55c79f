// Setup helpers for the ledger and RPC tests: fixed keys, signed transactions against the
// ledger's blockhash, and a mint with associated token accounts for either token program.
import { createHash } from 'node:crypto';
import {
  appendTransactionMessageInstructions,
  blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { SYSTEM_PROGRAM_ADDRESS, getCreateAccountInstruction } from '@solana-program/system';
import * as splToken from '@solana-program/token';
import * as token2022 from '@solana-program/token-2022';
import type { SolanaLedger } from './ledger-types.js';

export function testSigner(label: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(createHash('sha256').update(`solana-ledger-test/${label}`).digest()));
}

/** Gives `address` lamports outside any transaction (a genesis balance). */
export function fund(ledger: SolanaLedger, address: Address, amount: bigint): void {
  ledger.svm.setAccount({ address, lamports: lamports(amount), data: new Uint8Array(0), executable: false, programAddress: SYSTEM_PROGRAM_ADDRESS, space: 0n });
}

export interface SignOptions {
  version?: 'legacy' | 0;
  /** Micro-lamports per CU and an optional unit limit, as ComputeBudget instructions first. */
  priority?: { microLamports: bigint; unitLimit?: number };
  blockhash?: { blockhash: string; lastValidBlockHeight: bigint };
}

export async function signed(
  ledger: SolanaLedger,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  options: SignOptions = {},
): Promise<Transaction> {
  const latest = options.blockhash ?? ledger.latestBlockhash();
  const budget: Instruction[] = [];
  if (options.priority?.unitLimit !== undefined) budget.push(getSetComputeUnitLimitInstruction({ units: options.priority.unitLimit }));
  if (options.priority) budget.push(getSetComputeUnitPriceInstruction({ microLamports: options.priority.microLamports }));
  const message = pipe(
    createTransactionMessage({ version: options.version ?? 'legacy' }),
    (draft) => setTransactionMessageFeePayerSigner(payer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash(latest.blockhash), lastValidBlockHeight: latest.lastValidBlockHeight }, draft),
    (draft) => appendTransactionMessageInstructions([...budget, ...instructions], draft),
  );
  return signTransactionMessageWithSigners(message);
}

export type TokenProgramName = 'spl-token' | 'token-2022';

export function tokenProgram(program: TokenProgramName): Address {
  return program === 'spl-token' ? splToken.TOKEN_PROGRAM_ADDRESS : token2022.TOKEN_2022_PROGRAM_ADDRESS;
}

/** CreateAccount + InitializeMint2 (Token-2022: optionally with ScaledUiAmount at `multiplier`). */
export function createMintInstructions(
  ledger: SolanaLedger,
  program: TokenProgramName,
  payer: KeyPairSigner,
  mint: KeyPairSigner,
  decimals: number,
  multiplier?: number,
): Instruction[] {
  const programAddress = tokenProgram(program);
  const extensions =
    multiplier === undefined
      ? []
      : [token2022.extension('ScaledUiAmountConfig', { authority: payer.address, multiplier, newMultiplierEffectiveTimestamp: 0n, newMultiplier: multiplier })];
  const space = BigInt(program === 'spl-token' ? splToken.getMintSize() : token2022.getMintSize(extensions));
  const create = getCreateAccountInstruction({ payer, newAccount: mint, lamports: ledger.svm.minimumBalanceForRentExemption(space), space, programAddress });
  const initialize =
    program === 'spl-token'
      ? splToken.getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: payer.address })
      : token2022.getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: payer.address });
  const scaled =
    multiplier === undefined ? [] : [token2022.getInitializeScaledUiAmountMintInstruction({ mint: mint.address, authority: payer.address, multiplier })];
  return [create, ...scaled, initialize];
}

export async function ataOf(program: TokenProgramName, owner: Address, mint: Address): Promise<Address> {
  const [ata] = await splToken.findAssociatedTokenPda({ owner, mint, tokenProgram: tokenProgram(program) });
  return ata;
}

export function createAtaInstruction(program: TokenProgramName, payer: KeyPairSigner, owner: Address, mint: Address, ata: Address): Instruction {
  return splToken.getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner, mint, tokenProgram: tokenProgram(program) });
}

export function mintToInstruction(
  program: TokenProgramName,
  mint: Address,
  token: Address,
  authority: KeyPairSigner,
  amount: bigint,
  decimals: number,
): Instruction {
  const input = { mint, token, mintAuthority: authority, amount, decimals };
  return program === 'spl-token' ? splToken.getMintToCheckedInstruction(input) : token2022.getMintToCheckedInstruction(input);
}

export function transferCheckedInstruction(
  program: TokenProgramName,
  mint: Address,
  source: Address,
  destination: Address,
  owner: KeyPairSigner,
  amount: bigint,
  decimals: number,
): Instruction {
  const input = { source, mint, destination, authority: owner, amount, decimals };
  return program === 'spl-token' ? splToken.getTransferCheckedInstruction(input) : token2022.getTransferCheckedInstruction(input);
}
