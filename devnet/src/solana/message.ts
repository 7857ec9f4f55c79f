// A signed transaction taken apart the way the runtime sees it: signatures, header, static keys,
// address-lookup-table keys resolved from the tables' current contents, compiled instructions,
// and which keys are writable (with the runtime's demotions of reserved keys and invoked programs).
import {
  getAddressDecoder,
  getAddressEncoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
  type Transaction,
} from '@solana/kit';
import { createPublicKey, verify } from 'node:crypto';
import type { LiteSVM } from 'litesvm';

export interface CompiledInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface AddressTableLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

export interface DecodedTransaction {
  /** base58; a missing signature reads as 64 zero bytes, as on the wire. */
  signatures: string[];
  wire: Uint8Array;
  version: 'legacy' | 0 | 1;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  staticKeys: string[];
  recentBlockhash: string;
  instructions: CompiledInstruction[];
  lookups: AddressTableLookup[];
}

export interface LoadedAddresses {
  writable: string[];
  readonly: string[];
}

const base58 = getBase58Decoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const transactionEncoder = getTransactionEncoder();
const addressDecoder = getAddressDecoder();

export type DecodedMessage = Omit<DecodedTransaction, 'signatures' | 'wire'>;

/** A compiled message (legacy, v0 or v1) from its bytes; throws when they do not decode. */
export function decodeMessage(messageBytes: Uint8Array): DecodedMessage {
  const message = messageDecoder.decode(messageBytes);
  const lookups = 'addressTableLookups' in message && message.addressTableLookups ? message.addressTableLookups : [];
  return {
    version: message.version,
    header: {
      numRequiredSignatures: message.header.numSignerAccounts,
      numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
    },
    staticKeys: [...message.staticAccounts],
    recentBlockhash: message.lifetimeToken,
    // v1 messages (not executed here) lay instructions out differently; they decode with none.
    instructions: ('instructions' in message ? message.instructions : []).map((instruction) => ({
      programIdIndex: instruction.programAddressIndex,
      accounts: [...(instruction.accountIndices ?? [])],
      data: new Uint8Array(instruction.data ?? new Uint8Array(0)),
    })),
    lookups: lookups.map((lookup) => ({
      accountKey: lookup.lookupTableAddress,
      writableIndexes: [...lookup.writableIndexes],
      readonlyIndexes: [...lookup.readonlyIndexes],
    })),
  };
}

export function decodeTransaction(transaction: Transaction): DecodedTransaction {
  const signatures = Object.values(transaction.signatures).map((signature) => base58.decode(signature ?? new Uint8Array(64)));
  return { ...decodeMessage(new Uint8Array(transaction.messageBytes)), signatures, wire: new Uint8Array(transactionEncoder.encode(transaction)) };
}

export const addressLookupTableProgram = 'AddressLookupTab1e1111111111111111111111111';
const lookupTableMetaSize = 56;

/**
 * The addresses a v0 message loads from its lookup tables (writable of every table first, then
 * readonly), or the runtime's error name when a table or an index is missing.
 */
export function resolveLookups(svm: LiteSVM, lookups: readonly AddressTableLookup[]): LoadedAddresses | string {
  const loaded: LoadedAddresses = { writable: [], readonly: [] };
  for (const lookup of lookups) {
    const table = svm.getAccount(lookup.accountKey as never);
    if (!table.exists) return 'AddressLookupTableNotFound';
    if (table.programAddress !== addressLookupTableProgram) return 'InvalidAddressLookupTableOwner';
    const data = table.data;
    if (data.length < lookupTableMetaSize || (data.length - lookupTableMetaSize) % 32 !== 0) return 'InvalidAddressLookupTableData';
    const count = (data.length - lookupTableMetaSize) / 32;
    const at = (index: number) => addressDecoder.decode(data.subarray(lookupTableMetaSize + index * 32, lookupTableMetaSize + index * 32 + 32));
    for (const index of [...lookup.writableIndexes, ...lookup.readonlyIndexes]) if (index >= count) return 'InvalidAddressLookupTableIndex';
    loaded.writable.push(...lookup.writableIndexes.map(at));
    loaded.readonly.push(...lookup.readonlyIndexes.map(at));
  }
  return loaded;
}

export function allAccountKeys(decoded: DecodedTransaction, loaded: LoadedAddresses): string[] {
  return [...decoded.staticKeys, ...loaded.writable, ...loaded.readonly];
}

/** `ReservedAccountKeys::new_all_activated()`: builtin programs and sysvars, never write-locked. */
export const reservedAccountKeys = new Set([
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'Feature111111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  '11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111',
  'ZkTokenProof1111111111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
]);

const upgradeableLoader = 'BPFLoaderUpgradeab1e11111111111111111111111';

/** Writable per the header (static keys) or the lookup (loaded keys), before any demotion. */
export function isWritableIndex(decoded: DecodedTransaction, loaded: LoadedAddresses, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = decoded.header;
  const staticCount = decoded.staticKeys.length;
  if (index >= staticCount) return index - staticCount < loaded.writable.length;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < staticCount - numReadonlyUnsignedAccounts;
}

/** `is_writable` / `is_maybe_writable`: reserved keys and invoked programs (without the upgradeable loader in the message) are demoted. */
export function isWritable(decoded: DecodedTransaction, keys: readonly string[], loaded: LoadedAddresses, index: number): boolean {
  if (!isWritableIndex(decoded, loaded, index)) return false;
  if (reservedAccountKeys.has(keys[index]!)) return false;
  const invoked = decoded.instructions.some((instruction) => instruction.programIdIndex === index);
  return !(invoked && !keys.includes(upgradeableLoader));
}

export function isSigner(decoded: DecodedTransaction, index: number): boolean {
  return index < decoded.header.numRequiredSignatures;
}

/** DER SubjectPublicKeyInfo prefix of a raw Ed25519 public key. */
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');
const addressEncoder = getAddressEncoder();

/** Every required signature present and valid for its signer over the message bytes. */
export function verifySignatures(transaction: Transaction): boolean {
  const entries = Object.entries(transaction.signatures);
  if (entries.length === 0) return false;
  return entries.every(([signer, signature]) => {
    if (!signature) return false;
    const key = createPublicKey({ key: Buffer.concat([spkiPrefix, Buffer.from(addressEncoder.encode(signer as never))]), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(transaction.messageBytes), key, Buffer.from(signature));
  });
}

/** The same transaction naming another blockhash (simulateTransaction's replaceRecentBlockhash). */
export function withRecentBlockhash(transaction: Transaction, blockhash: string): Transaction {
  const message = messageDecoder.decode(transaction.messageBytes);
  const messageBytes = getCompiledTransactionMessageEncoder().encode({ ...message, lifetimeToken: blockhash } as never);
  return { ...transaction, messageBytes } as Transaction;
}
