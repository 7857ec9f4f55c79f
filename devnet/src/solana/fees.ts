// Transaction fees and costs as the runtime computes them (agave 4.x, SIMD-0170): 5000 lamports
// per signature (precompile signatures included) plus the priority fee
// ceil(unit price x unit limit / 1e6), where the limit is the requested one or, when none is
// requested, 3,000 per builtin instruction (compute-budget instructions included) and 200,000 per
// other instruction, capped at 1.4M. Cost units follow the cost model of the block producer.
import type { CompiledInstruction, DecodedMessage } from './message.js';

export const lamportsPerSignature = 5_000n;
export const defaultInstructionComputeUnitLimit = 200_000n;
export const maxBuiltinAllocationComputeUnitLimit = 3_000n;
export const maxComputeUnitLimit = 1_400_000n;
export const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111';
const ed25519Program = 'Ed25519SigVerify111111111111111111111111111';
const secp256k1Program = 'KeccakSecp256k11111111111111111111111111111';
const secp256r1Program = 'Secp256r1SigVerify1111111111111111111111111';

/** Builtins that have not moved to core BPF programs: each gets 3,000 CUs by default. */
const builtinPrograms = new Set([
  '11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  computeBudgetProgram,
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  ed25519Program,
  secp256k1Program,
  secp256r1Program,
  'ZkE1Gama1Proof11111111111111111111111111111',
]);

export interface ComputeBudget {
  /** Requested with SetComputeUnitLimit (before the 1.4M cap), or undefined. */
  requestedUnitLimit: bigint | undefined;
  unitLimit: bigint;
  /** Micro-lamports per compute unit (SetComputeUnitPrice), 0 when absent. */
  unitPrice: bigint;
}

function u32(data: Uint8Array): bigint {
  return BigInt(new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, true));
}

function u64(data: Uint8Array): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
}

/** Reads the ComputeBudget instructions (discriminator 2: unit limit u32, 3: unit price u64). */
export function computeBudget(keys: readonly string[], instructions: readonly CompiledInstruction[]): ComputeBudget {
  let requestedUnitLimit: bigint | undefined;
  let unitPrice = 0n;
  let builtins = 0n;
  let others = 0n;
  for (const instruction of instructions) {
    const program = keys[instruction.programIdIndex] ?? '';
    if (program === computeBudgetProgram) {
      const { data } = instruction;
      if (data[0] === 2 && data.length === 5) requestedUnitLimit = u32(data);
      if (data[0] === 3 && data.length === 9) unitPrice = u64(data);
    }
    if (builtinPrograms.has(program)) builtins++;
    else others++;
  }
  const defaultLimit = builtins * maxBuiltinAllocationComputeUnitLimit + others * defaultInstructionComputeUnitLimit;
  const limit = requestedUnitLimit ?? defaultLimit;
  return { requestedUnitLimit, unitLimit: limit < maxComputeUnitLimit ? limit : maxComputeUnitLimit, unitPrice };
}

/** `get_prioritization_fee`: rounded up to whole lamports. */
export function prioritizationFee(budget: ComputeBudget): bigint {
  return (budget.unitPrice * budget.unitLimit + 999_999n) / 1_000_000n;
}

/** Signatures the fee charges for: the transaction's own plus those verified by precompiles. */
export function feeSignatureCount(decoded: DecodedMessage, keys: readonly string[]): bigint {
  let count = BigInt(decoded.header.numRequiredSignatures);
  for (const instruction of decoded.instructions) {
    const program = keys[instruction.programIdIndex];
    if (program === ed25519Program || program === secp256k1Program || program === secp256r1Program) count += BigInt(instruction.data[0] ?? 0);
  }
  return count;
}

export interface FeeDetails {
  /** Base (signature) fee: half of it is burned. */
  transactionFee: bigint;
  /** Priority fee: all of it goes to the block producer. */
  prioritizationFee: bigint;
  total: bigint;
}

export function transactionFee(decoded: DecodedMessage, keys: readonly string[]): FeeDetails {
  const transactionFeePart = feeSignatureCount(decoded, keys) * lamportsPerSignature;
  const priority = prioritizationFee(computeBudget(keys, decoded.instructions));
  return { transactionFee: transactionFeePart, prioritizationFee: priority, total: transactionFeePart + priority };
}

const signatureCost = 720n;
const writeLockUnits = 300n;
const instructionDataBytesCost = 4n;
const heapPageBytes = 32n * 1024n;
const heapCostPerPage = 8n;
/** TRANSACTION_ACCOUNT_BASE_SIZE: what each loaded account counts for beyond its data. */
export const transactionAccountBaseSize = 64;

/**
 * `CostModel::calculate_cost_for_executed_transaction(..).sum()`: signature, write-lock and
 * instruction-data costs, the executed compute units and 8 CUs per 32 KiB of loaded account data.
 */
export function costUnits(
  decoded: DecodedMessage,
  keys: readonly string[],
  writableCount: number,
  computeUnits: bigint,
  loadedAccountsDataSize: number,
): bigint {
  let precompileCost = 0n;
  for (const instruction of decoded.instructions) {
    const program = keys[instruction.programIdIndex];
    const count = BigInt(instruction.data[0] ?? 0);
    if (program === ed25519Program) precompileCost += count * 2_400n;
    if (program === secp256k1Program) precompileCost += count * 6_690n;
    if (program === secp256r1Program) precompileCost += count * 4_800n;
  }
  const dataBytes = decoded.instructions.reduce((sum, instruction) => sum + instruction.data.length, 0);
  const loadedCost = ((BigInt(loadedAccountsDataSize) + heapPageBytes - 1n) / heapPageBytes) * heapCostPerPage;
  return (
    BigInt(decoded.header.numRequiredSignatures) * signatureCost +
    precompileCost +
    BigInt(writableCount) * writeLockUnits +
    BigInt(dataBytes) / instructionDataBytesCost +
    computeUnits +
    loadedCost
  );
}
