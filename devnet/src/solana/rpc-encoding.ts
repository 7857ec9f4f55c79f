// Transactions and blocks in the RPC's encodings, field for field as agave's
// transaction-status crate writes them: `json` (raw message, base58 instruction data),
// `jsonParsed` (annotated account keys, parsed instructions), `base64`/`base58` (wire bytes) and
// `binary` (legacy base58 string); `transactionDetails` full/accounts/signatures/none.
import { getBase58Decoder, getBase58Encoder, getBase64Decoder } from '@solana/kit';
import type { BlockReward, RecordedTransaction, SealedBlock, TokenBalance } from './ledger-types.js';
import { reservedAccountKeys } from './message.js';
import { parseInstructionJson } from './parse-instruction.js';
import { unsupportedTransactionVersion } from './rpc-errors.js';
import { uiTokenAmount } from './ui-amount.js';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58' | 'binary';
export type TransactionDetails = 'full' | 'accounts' | 'signatures' | 'none';

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();
/** TRANSACTION_LEVEL_STACK_HEIGHT: top-level instructions show stack height 1. */
const transactionLevelStackHeight = 1;
const upgradeableLoader = 'BPFLoaderUpgradeab1e11111111111111111111111';

export function statusJson(err: unknown): { Ok: null } | { Err: unknown } {
  return err === null || err === undefined ? { Ok: null } : { Err: err };
}

export function tokenBalanceJson(balance: TokenBalance): Record<string, unknown> {
  return {
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    uiTokenAmount: uiTokenAmount(BigInt(balance.amount), {
      decimals: balance.decimals,
      ...(balance.scaledUiAmount ? { scaled: balance.scaledUiAmount } : {}),
      ...(balance.interestBearing ? { interestBearing: balance.interestBearing } : {}),
      ...(balance.unixTimestamp !== undefined ? { unixTimestamp: balance.unixTimestamp } : {}),
    }),
    owner: balance.owner,
    programId: balance.programId,
  };
}

export function rewardJson(reward: BlockReward): Record<string, unknown> {
  return { pubkey: reward.pubkey, lamports: reward.lamports, postBalance: reward.postBalance, rewardType: reward.rewardType, commission: reward.commission };
}

/** Static keys, then the writable and readonly keys loaded from lookup tables. */
export function accountKeysOf(transaction: RecordedTransaction): string[] {
  return [...transaction.message.accountKeys, ...transaction.meta.loadedAddresses.writable, ...transaction.meta.loadedAddresses.readonly];
}

/** `parse_legacy_message_accounts` / `parse_v0_message_accounts`. */
export function parsedAccountKeys(transaction: RecordedTransaction): Record<string, unknown>[] {
  const { header, accountKeys: staticKeys, instructions } = transaction.message;
  const keys = accountKeysOf(transaction);
  const loadedWritable = transaction.meta.loadedAddresses.writable.length;
  const hasUpgradeableLoader = keys.includes(upgradeableLoader);
  return keys.map((pubkey, index) => {
    let writable: boolean;
    if (index >= staticKeys.length) writable = index - staticKeys.length < loadedWritable;
    else if (index < header.numRequiredSignatures) writable = index < header.numRequiredSignatures - header.numReadonlySignedAccounts;
    else writable = index < staticKeys.length - header.numReadonlyUnsignedAccounts;
    const invoked = instructions.some((instruction) => instruction.programIdIndex === index);
    if (reservedAccountKeys.has(pubkey) || (invoked && !hasUpgradeableLoader)) writable = false;
    return { pubkey, writable, signer: index < header.numRequiredSignatures, source: index < staticKeys.length ? 'transaction' : 'lookupTable' };
  });
}

function lookupsJson(transaction: RecordedTransaction): Record<string, unknown>[] | undefined {
  if (transaction.message.version !== 0) return undefined;
  return transaction.message.addressTableLookups.map((lookup) => ({
    accountKey: lookup.accountKey,
    writableIndexes: lookup.writableIndexes,
    readonlyIndexes: lookup.readonlyIndexes,
  }));
}

function binaryTransaction(transaction: RecordedTransaction, encoding: 'base64' | 'base58' | 'binary'): unknown {
  if (encoding === 'base64') return [base64.decode(transaction.wire), 'base64'];
  const text = base58.decode(transaction.wire);
  return encoding === 'base58' ? [text, 'base58'] : text;
}

function transactionJson(transaction: RecordedTransaction, encoding: TransactionEncoding): unknown {
  if (encoding === 'base64' || encoding === 'base58' || encoding === 'binary') return binaryTransaction(transaction, encoding);
  const { message } = transaction;
  if (encoding === 'json') {
    return {
      signatures: transaction.signatures,
      message: {
        header: {
          numRequiredSignatures: message.header.numRequiredSignatures,
          numReadonlySignedAccounts: message.header.numReadonlySignedAccounts,
          numReadonlyUnsignedAccounts: message.header.numReadonlyUnsignedAccounts,
        },
        accountKeys: message.accountKeys,
        recentBlockhash: message.recentBlockhash,
        instructions: message.instructions.map((instruction) => ({
          programIdIndex: instruction.programIdIndex,
          accounts: instruction.accounts,
          data: instruction.data,
          stackHeight: transactionLevelStackHeight,
        })),
        addressTableLookups: lookupsJson(transaction),
      },
    };
  }
  const keys = accountKeysOf(transaction);
  return {
    signatures: transaction.signatures,
    message: {
      accountKeys: parsedAccountKeys(transaction),
      recentBlockhash: message.recentBlockhash,
      instructions: message.instructions.map((instruction) =>
        parseInstructionJson(
          keys[instruction.programIdIndex]!,
          instruction.accounts.map((index) => keys[index]!),
          getBase58Bytes(instruction.data),
          transactionLevelStackHeight,
        ),
      ),
      addressTableLookups: lookupsJson(transaction),
    },
  };
}

const base58Bytes = getBase58Encoder();
function getBase58Bytes(text: string): Uint8Array {
  return new Uint8Array(base58Bytes.encode(text));
}

function innerInstructionsJson(transaction: RecordedTransaction, parsed: boolean): unknown {
  const keys = parsed ? accountKeysOf(transaction) : [];
  return transaction.meta.innerInstructions.map((entry) => ({
    index: entry.index,
    instructions: entry.instructions.map((instruction) =>
      parsed
        ? parseInstructionJson(
            keys[instruction.programIdIndex]!,
            instruction.accounts.map((index) => keys[index]!),
            getBase58Bytes(instruction.data),
            instruction.stackHeight,
          )
        : { programIdIndex: instruction.programIdIndex, accounts: instruction.accounts, data: instruction.data, stackHeight: instruction.stackHeight },
    ),
  }));
}

function metaJson(transaction: RecordedTransaction, encoding: TransactionEncoding, showRewards: boolean): Record<string, unknown> {
  const { meta } = transaction;
  const parsed = encoding === 'jsonParsed';
  return {
    err: meta.err,
    status: statusJson(meta.err),
    fee: meta.fee,
    preBalances: meta.preBalances,
    postBalances: meta.postBalances,
    innerInstructions: innerInstructionsJson(transaction, parsed),
    logMessages: meta.logMessages,
    preTokenBalances: meta.preTokenBalances.map(tokenBalanceJson),
    postTokenBalances: meta.postTokenBalances.map(tokenBalanceJson),
    rewards: showRewards ? [] : null,
    loadedAddresses: parsed ? undefined : { writable: meta.loadedAddresses.writable, readonly: meta.loadedAddresses.readonly },
    returnData: meta.returnData ? { programId: meta.returnData.programId, data: [base64.decode(meta.returnData.data), 'base64'] } : undefined,
    computeUnitsConsumed: meta.computeUnitsConsumed,
    costUnits: meta.costUnits,
  };
}

/** `validate_version`: without a max version, a version-0 transaction is refused. */
function versionJson(transaction: RecordedTransaction, maxSupportedTransactionVersion: number | undefined): 'legacy' | 0 | undefined {
  const { version } = transaction.message;
  if (maxSupportedTransactionVersion === undefined) {
    if (version !== 'legacy') throw unsupportedTransactionVersion(version);
    return undefined;
  }
  if (version !== 'legacy' && version > maxSupportedTransactionVersion) throw unsupportedTransactionVersion(version);
  return version;
}

export interface EncodeOptions {
  encoding: TransactionEncoding;
  maxSupportedTransactionVersion: number | undefined;
  showRewards: boolean;
}

/** `EncodedTransactionWithStatusMeta`: `{ transaction, meta, version? }`. */
export function encodeTransactionWithMeta(transaction: RecordedTransaction, options: EncodeOptions): Record<string, unknown> {
  const version = versionJson(transaction, options.maxSupportedTransactionVersion);
  return { transaction: transactionJson(transaction, options.encoding), meta: metaJson(transaction, options.encoding, options.showRewards), version };
}

/** `transactionDetails: accounts`: signatures, annotated keys and the balance-only meta. */
function encodeTransactionAccounts(transaction: RecordedTransaction, options: EncodeOptions): Record<string, unknown> {
  const version = versionJson(transaction, options.maxSupportedTransactionVersion);
  const { meta } = transaction;
  return {
    transaction: { signatures: transaction.signatures, accountKeys: parsedAccountKeys(transaction) },
    meta: {
      err: meta.err,
      status: statusJson(meta.err),
      fee: meta.fee,
      preBalances: meta.preBalances,
      postBalances: meta.postBalances,
      preTokenBalances: meta.preTokenBalances.map(tokenBalanceJson),
      postTokenBalances: meta.postTokenBalances.map(tokenBalanceJson),
      rewards: options.showRewards ? [] : undefined,
    },
    version,
  };
}

/** `UiConfirmedBlock`. */
export function encodeBlock(block: SealedBlock, details: TransactionDetails, options: EncodeOptions): Record<string, unknown> {
  let transactions: unknown;
  let signatures: unknown;
  if (details === 'full') transactions = block.transactions.map((transaction) => encodeTransactionWithMeta(transaction, options));
  else if (details === 'accounts') transactions = block.transactions.map((transaction) => encodeTransactionAccounts(transaction, options));
  else if (details === 'signatures') signatures = block.transactions.map((transaction) => transaction.signatures[0]);
  return {
    previousBlockhash: block.previousBlockhash,
    blockhash: block.blockhash,
    parentSlot: block.parentSlot,
    transactions,
    signatures,
    rewards: options.showRewards ? block.rewards.map(rewardJson) : undefined,
    blockTime: block.blockTime,
    blockHeight: block.blockHeight,
  };
}

/** `EncodedConfirmedTransactionWithStatusMeta` (getTransaction). */
export function encodeConfirmedTransaction(transaction: RecordedTransaction, options: EncodeOptions): Record<string, unknown> {
  const encoded = encodeTransactionWithMeta(transaction, { ...options, showRewards: true });
  return { slot: transaction.slot, ...encoded, blockTime: transaction.blockTime, transactionIndex: transaction.index };
}
