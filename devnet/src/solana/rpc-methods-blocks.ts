// Ledger history: blocks, block lists and times, transactions, signatures by address and
// signature statuses. Sealed blocks count as finalized; the open block's transactions are
// `processed` (getSignatureStatuses) and not yet in any block (getTransaction returns null).
import type { RecordedTransaction, SolanaLedger } from './ledger-types.js';
import { memoPrograms } from './parse-instruction.js';
import { blockCleanedUp, blockNotAvailable, invalidParams } from './rpc-errors.js';
import { encodeBlock, encodeConfirmedTransaction, statusJson, type TransactionDetails, type TransactionEncoding } from './rpc-encoding.js';
import {
  atLeastConfirmed,
  boolParam,
  checkMinContextSlot,
  configParam,
  enumParam,
  optionalU8,
  positional,
  pubkeyParam,
  signatureParam,
  u64Param,
  usizeParam,
  type Config,
} from './rpc-params.js';
import { contextSlot, withContext, type RpcMethod } from './rpc-context.js';
import { getBase58Encoder } from '@solana/kit';

const transactionEncodings: readonly TransactionEncoding[] = ['binary', 'base64', 'base58', 'json', 'jsonParsed'];
const detailLevels: readonly TransactionDetails[] = ['full', 'signatures', 'none', 'accounts'];
/** MAX_GET_CONFIRMED_BLOCKS_RANGE */
const maxBlocksRange = 500_000n;
const maxSignaturesLimit = 1_000;
const maxSignatureStatuses = 256;
/** Slots the bank's status cache answers for without searchTransactionHistory. */
const statusCacheSlots = 300n;
const base58 = getBase58Encoder();

/** `RpcEncodingConfigWrapper`: the deprecated form is a bare encoding string. */
function encodingConfig(value: unknown): Config {
  return typeof value === 'string' ? { encoding: value } : configParam(value);
}

/** A sealed block's slot, or the node's error for one it does not have. */
function sealedSlot(ledger: SolanaLedger, slot: bigint): void {
  const head = ledger.head();
  if (!head || slot > head.slot) throw blockNotAvailable(slot);
  if (slot < ledger.firstSlot) throw blockCleanedUp(slot, ledger.firstSlot);
}

/** `extract_and_fmt_memos`: `[length] text` of each memo instruction, joined with `; `. */
export function memoOf(transaction: RecordedTransaction): string | null {
  const memos: string[] = [];
  for (const instruction of transaction.message.instructions) {
    if (!memoPrograms.has(transaction.message.accountKeys[instruction.programIdIndex] ?? '')) continue;
    const data = new Uint8Array(base58.encode(instruction.data));
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      text = '(unparsable)';
    }
    memos.push(`[${data.length}] ${text}`);
  }
  return memos.length > 0 ? memos.join('; ') : null;
}

export const blockMethods: Record<string, RpcMethod> = {
  getBlock: (params, { ledger }) => {
    const [slotParam, configValue] = positional(params, 1);
    const slot = u64Param(slotParam);
    const config = encodingConfig(configValue);
    atLeastConfirmed(config);
    const encoding = enumParam(config.encoding, transactionEncodings, 'json');
    const details = enumParam(config.transactionDetails, detailLevels, 'full');
    const showRewards = config.rewards === undefined || config.rewards === null ? true : boolParam(config.rewards);
    const maxSupportedTransactionVersion = optionalU8(config.maxSupportedTransactionVersion);
    sealedSlot(ledger, slot);
    return encodeBlock(ledger.block(slot)!, details, { encoding, showRewards, maxSupportedTransactionVersion });
  },

  getBlocks: (params, { ledger }) => {
    const [startParam, second, third] = positional(params, 1);
    const start = u64Param(startParam);
    const endParam = typeof second === 'object' ? undefined : second;
    const config = configParam(typeof second === 'object' && second !== null ? second : third);
    atLeastConfirmed(config);
    checkMinContextSlot(config, contextSlot(ledger));
    const head = ledger.head();
    if (!head) return [];
    const requested = endParam === undefined || endParam === null ? start + maxBlocksRange : u64Param(endParam);
    const end = requested < head.slot ? requested : head.slot;
    if (end < start) return [];
    if (end - start > maxBlocksRange) throw invalidParams(`Slot range too large; max ${maxBlocksRange}`);
    const slots: bigint[] = [];
    for (let slot = start > ledger.firstSlot ? start : ledger.firstSlot; slot <= end; slot++) slots.push(slot);
    return slots;
  },

  getBlocksWithLimit: (params, { ledger }) => {
    const [startParam, limitParam, configValue] = positional(params, 2);
    const start = u64Param(startParam);
    const limit = BigInt(usizeParam(limitParam));
    const config = configParam(configValue);
    atLeastConfirmed(config);
    if (limit > maxBlocksRange) throw invalidParams(`Limit too large; max ${maxBlocksRange}`);
    checkMinContextSlot(config, contextSlot(ledger));
    const head = ledger.head();
    const slots: bigint[] = [];
    if (!head) return slots;
    for (let slot = start > ledger.firstSlot ? start : ledger.firstSlot; slot <= head.slot && BigInt(slots.length) < limit; slot++) slots.push(slot);
    return slots;
  },

  getBlockTime: (params, { ledger }) => {
    const slot = u64Param(positional(params, 1)[0]);
    sealedSlot(ledger, slot);
    return ledger.block(slot)!.blockTime;
  },

  getTransaction: (params, { ledger }) => {
    const [signatureValue, configValue] = positional(params, 1);
    const signature = signatureParam(signatureValue);
    const config = encodingConfig(configValue);
    atLeastConfirmed(config);
    const encoding = enumParam(config.encoding, transactionEncodings, 'json');
    const maxSupportedTransactionVersion = optionalU8(config.maxSupportedTransactionVersion);
    const transaction = ledger.transaction(signature);
    if (!transaction) return null;
    return encodeConfirmedTransaction(transaction, { encoding, maxSupportedTransactionVersion, showRewards: true });
  },

  getSignaturesForAddress: (params, { ledger }) => {
    const [addressValue, configValue] = positional(params, 1);
    const address = pubkeyParam(addressValue);
    const config = configParam(configValue);
    const before = config.before === undefined || config.before === null ? undefined : signatureParam(config.before);
    const until = config.until === undefined || config.until === null ? undefined : signatureParam(config.until);
    const limit = config.limit === undefined || config.limit === null ? maxSignaturesLimit : usizeParam(config.limit);
    if (limit === 0 || limit > maxSignaturesLimit) throw invalidParams(`Invalid limit; max ${maxSignaturesLimit}`);
    atLeastConfirmed(config);
    checkMinContextSlot(config, contextSlot(ledger));
    const all = ledger.signaturesForAddress(address);
    let start = 0;
    if (before !== undefined) {
      const position = all.findIndex((transaction) => transaction.signatures[0] === before);
      if (position < 0) return [];
      start = position + 1;
    }
    const results: Record<string, unknown>[] = [];
    for (let index = start; index < all.length && results.length < limit; index++) {
      const transaction = all[index]!;
      if (transaction.signatures[0] === until) break;
      results.push({
        signature: transaction.signatures[0],
        slot: transaction.slot,
        err: transaction.meta.err,
        memo: memoOf(transaction),
        blockTime: transaction.blockTime,
        confirmationStatus: 'finalized',
      });
    }
    return results;
  },

  getSignatureStatuses: (params, { ledger }) => {
    const [signaturesValue, configValue] = positional(params, 1);
    if (!Array.isArray(signaturesValue)) throw invalidParams('Invalid params: invalid type: expected a sequence.');
    if (signaturesValue.length > maxSignatureStatuses) throw invalidParams(`Too many inputs provided; max ${maxSignatureStatuses}`);
    const signatures = signaturesValue.map(signatureParam);
    const config = configParam(configValue);
    const searchHistory =
      config.searchTransactionHistory === undefined || config.searchTransactionHistory === null ? false : boolParam(config.searchTransactionHistory);
    const head = contextSlot(ledger);
    return withContext(
      ledger,
      signatures.map((signature) => {
        const status = ledger.signatureStatus(signature);
        if (!status) return null;
        if (status.sealed && !searchHistory && head - status.slot >= statusCacheSlots) return null;
        return {
          slot: status.slot,
          confirmations: status.sealed ? null : 0,
          status: statusJson(status.err),
          err: status.err,
          confirmationStatus: status.sealed ? 'finalized' : 'processed',
        };
      }),
    );
  },
};
