// Node and chain state: health, version, slot and height, blockhashes, rent, fees, epoch.
import { getBase64Encoder } from '@solana/kit';
import { transactionFee } from './fees.js';
import { decodeMessage, resolveLookups } from './message.js';
import { invalidParams } from './rpc-errors.js';
import { checkMinContextSlot, commitmentOf, configParam, positional, stringParam, usizeParam } from './rpc-params.js';
import { contextSlot, featureSet, solanaCoreVersion, withContext, type RpcMethod } from './rpc-context.js';

const base64 = getBase64Encoder();
/** MAX_BASE64_SIZE of agave's decode_and_deserialize. */
const maxBase64Size = 1644;

/** The optional `RpcContextConfig` most read methods take: commitment and minContextSlot. */
function contextConfig(value: unknown, slot: bigint) {
  const config = configParam(value);
  commitmentOf(config);
  checkMinContextSlot(config, slot);
  return config;
}

export const chainMethods: Record<string, RpcMethod> = {
  getHealth: () => 'ok',

  getVersion: () => ({ 'solana-core': solanaCoreVersion, 'feature-set': featureSet }),

  getSlot: (params, { ledger }) => {
    contextConfig(positional(params, 0)[0], contextSlot(ledger));
    return contextSlot(ledger);
  },

  getBlockHeight: (params, { ledger }) => {
    contextConfig(positional(params, 0)[0], contextSlot(ledger));
    return ledger.head()?.blockHeight ?? 0n;
  },

  getLatestBlockhash: (params, { ledger }) => {
    contextConfig(positional(params, 0)[0], contextSlot(ledger));
    const latest = ledger.latestBlockhash();
    return withContext(ledger, { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
  },

  isBlockhashValid: (params, { ledger }) => {
    const [hash, config] = positional(params, 1);
    const text = stringParam(hash);
    contextConfig(config, contextSlot(ledger));
    return withContext(ledger, ledger.isBlockhashValid(text));
  },

  getMinimumBalanceForRentExemption: (params, { ledger }) => {
    const [length, config] = positional(params, 1);
    commitmentOf(configParam(config));
    return ledger.svm.minimumBalanceForRentExemption(BigInt(usizeParam(length)));
  },

  /** Base plus priority fee of a base64 message; null when its blockhash is no longer valid. */
  getFeeForMessage: (params, { ledger }) => {
    const [data, config] = positional(params, 1);
    const text = stringParam(data);
    contextConfig(config, contextSlot(ledger));
    if (text.length > maxBase64Size)
      throw invalidParams(`base64 encoded solana_message::versions::VersionedMessage too large: ${text.length} bytes (max: encoded/raw ${maxBase64Size}/1232)`);
    let message: ReturnType<typeof decodeMessage>;
    try {
      message = decodeMessage(new Uint8Array(base64.encode(text)));
    } catch (error) {
      throw invalidParams(`failed to deserialize solana_message::versions::VersionedMessage: ${(error as Error).message}`);
    }
    if (!ledger.isBlockhashValid(message.recentBlockhash)) return withContext(ledger, null);
    const loaded = message.version === 0 ? resolveLookups(ledger.svm, message.lookups) : { writable: [], readonly: [] };
    if (typeof loaded === 'string') throw invalidParams(`invalid transaction message: ${loaded}`);
    const keys = [...message.staticKeys, ...loaded.writable, ...loaded.readonly];
    return withContext(ledger, transactionFee(message, keys).total);
  },

  getGenesisHash: (_params, { ledger }) => ledger.genesisHash,

  getIdentity: (_params, { ledger }) => ({ identity: ledger.leader }),

  getFirstAvailableBlock: (_params, { ledger }) => ledger.firstSlot,

  minimumLedgerSlot: (_params, { ledger }) => ledger.firstSlot,

  getTransactionCount: (params, { ledger }) => {
    contextConfig(positional(params, 0)[0], contextSlot(ledger));
    let count = 0n;
    for (let slot = ledger.firstSlot; slot <= contextSlot(ledger); slot++) count += BigInt(ledger.block(slot)?.transactions.length ?? 0);
    return count;
  },

  getEpochInfo: (params, { ledger }) => {
    contextConfig(positional(params, 0)[0], contextSlot(ledger));
    const schedule = ledger.svm.getEpochSchedule();
    const slot = contextSlot(ledger);
    let transactionCount = 0n;
    for (let at = ledger.firstSlot; at <= slot; at++) transactionCount += BigInt(ledger.block(at)?.transactions.length ?? 0);
    return {
      absoluteSlot: slot,
      blockHeight: ledger.head()?.blockHeight ?? 0n,
      epoch: slot / schedule.slotsPerEpoch,
      slotIndex: slot % schedule.slotsPerEpoch,
      slotsInEpoch: schedule.slotsPerEpoch,
      transactionCount,
    };
  },

  getEpochSchedule: (_params, { ledger }) => {
    const schedule = ledger.svm.getEpochSchedule();
    return {
      slotsPerEpoch: schedule.slotsPerEpoch,
      leaderScheduleSlotOffset: schedule.leaderScheduleSlotOffset,
      warmup: schedule.warmup,
      firstNormalEpoch: schedule.firstNormalEpoch,
      firstNormalSlot: schedule.firstNormalSlot,
    };
  },
};
