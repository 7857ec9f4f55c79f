import { getBase58Encoder } from '@solana/kit';
import { identifyTokenInstruction, TokenInstruction } from '@solana-program/token';
import type { SolanaCompiledInstruction } from './solana-block.js';

export const systemProgram = '11111111111111111111111111111111';
export const tokenProgram = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const token2022Program = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111';

/**
 * What one instruction moved, in account keys. Token movements name token accounts (their
 * owners are found from the transaction's token balances); a mint has no source account, a burn
 * no destination.
 */
export type InstructionMovement =
  | { type: 'lamports'; from: string; to: string; amount: bigint }
  | { type: 'tokens'; program: string; source?: string; destination?: string; mint?: string; amount: bigint };

const base58 = getBase58Encoder();

function u64At(data: Uint8Array, offset: number): bigint | undefined {
  if (data.length < offset + 8) return undefined;
  return new DataView(data.buffer, data.byteOffset + offset, 8).getBigUint64(0, true);
}

function u32At(data: Uint8Array, offset: number): number | undefined {
  if (data.length < offset + 4) return undefined;
  return new DataView(data.buffer, data.byteOffset + offset, 4).getUint32(0, true);
}

/** System program instruction indexes (u32 little endian) that move lamports between two accounts. */
const systemMoves: Readonly<Record<number, { from: number; to: number }>> = {
  0: { from: 0, to: 1 }, // CreateAccount: funder, new account
  2: { from: 0, to: 1 }, // Transfer
  3: { from: 0, to: 1 }, // CreateAccountWithSeed: funder, new account
  11: { from: 0, to: 2 }, // TransferWithSeed: source, base, destination
};

function systemMovement(data: Uint8Array, keys: readonly string[]): InstructionMovement | undefined {
  const index = u32At(data, 0);
  const move = index === undefined ? undefined : systemMoves[index];
  if (!move) return undefined;
  // CreateAccountWithSeed carries the base, a length-prefixed seed and then the lamports.
  let amount: bigint | undefined;
  if (index === 3) {
    const seedLength = u64At(data, 36);
    amount = seedLength === undefined ? undefined : u64At(data, 44 + Number(seedLength));
  } else amount = u64At(data, 4);
  const from = keys[move.from];
  const to = keys[move.to];
  if (amount === undefined || amount === 0n || !from || !to) return undefined;
  return { type: 'lamports', from, to, amount };
}

function tokenMovement(program: string, data: Uint8Array, keys: readonly string[]): InstructionMovement | undefined {
  let kind: TokenInstruction;
  try {
    kind = identifyTokenInstruction(data);
  } catch {
    // Token-2022 extension instructions have discriminators the Token program does not know.
    return undefined;
  }
  const amount = u64At(data, 1);
  if (amount === undefined || amount === 0n) return undefined;
  switch (kind) {
    case TokenInstruction.Transfer:
      return { type: 'tokens', program, source: keys[0], destination: keys[1], amount };
    case TokenInstruction.TransferChecked:
      return { type: 'tokens', program, source: keys[0], mint: keys[1], destination: keys[2], amount };
    case TokenInstruction.MintTo:
    case TokenInstruction.MintToChecked:
      return { type: 'tokens', program, mint: keys[0], destination: keys[1], amount };
    case TokenInstruction.Burn:
    case TokenInstruction.BurnChecked:
      return { type: 'tokens', program, source: keys[0], mint: keys[1], amount };
    default:
      return undefined;
  }
}

/** The movement an instruction makes, if it is one of the System or token programs' transfers, mints or burns. */
export function instructionMovement(instruction: SolanaCompiledInstruction, accountKeys: readonly string[]): InstructionMovement | undefined {
  const program = accountKeys[Number(instruction.programIdIndex)];
  // Only these programs' data is decoded: base58 is the costliest step of a busy block.
  if (program !== systemProgram && program !== tokenProgram && program !== token2022Program) return undefined;
  const keys = instruction.accounts.map((index) => accountKeys[Number(index)] ?? '');
  let data: Uint8Array;
  try {
    data = base58.encode(instruction.data) as Uint8Array;
  } catch {
    return undefined;
  }
  return program === systemProgram ? systemMovement(data, keys) : tokenMovement(program, data, keys);
}

/** Lamports per compute unit in micro-lamports (SetComputeUnitPrice), when the instruction sets it. */
export function computeUnitPrice(instruction: SolanaCompiledInstruction, accountKeys: readonly string[]): bigint | undefined {
  if (accountKeys[Number(instruction.programIdIndex)] !== computeBudgetProgram) return undefined;
  const data = base58.encode(instruction.data);
  return data[0] === 3 ? u64At(data as Uint8Array, 1) : undefined;
}
