import { createHash } from 'node:crypto';
// The local Solana chain: LiteSVM executes each transaction at once; the ledger keeps what a
// validator keeps (blocks by slot, transactions with their status meta, signatures by address)
// and computes what LiteSVM does not report (fees, pre/post lamports and token balances, cost
// units, block rewards). A block's hash is SHA-256 over its parent's hash, its slot and its
// transactions' signatures, as a validator's hash covers the entries it made: the same sends and
// seals give the same hashes, and a chain with other history has other hashes from its first
// differing block on (an indexer notices the chain behind a URL was replaced).
import {
  appendTransactionMessageInstruction,
  blockhash as toBlockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  lamports as toLamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type SignatureBytes,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { Clock, EpochSchedule, FailedTransactionMetadata, LiteSVM, type SlotHash } from 'litesvm';
import { costUnits, transactionFee } from './fees.js';
import { ledgerKey } from './ledger-keys.js';
import { innerInstructionRecords, loadedAccountsDataSize, readAccount, returnDataRecord, runtimeFee, snapshot } from './ledger-snapshot.js';
import type { BlockReward, RecordedTransaction, SealedBlock, SentTransaction, SolanaLedger } from './ledger-types.js';
import { allAccountKeys, decodeTransaction, isWritable, resolveLookups, type DecodedTransaction, type LoadedAddresses } from './message.js';
import { simulateOnLedger } from './ledger-simulate.js';
import { transactionErrorJson } from './transaction-error.js';

export interface SolanaLedgerOptions {
  /** Slot of the first block (default 0). */
  firstSlot?: bigint;
  /** Slots per epoch, without warm-up as on mainnet (default 432,000). */
  slotsPerEpoch?: bigint;
  /** Lamports the faucet starts with (default 500 million SOL). */
  faucetLamports?: bigint;
}

/** A blockhash stays valid for 150 blocks after its own (MAX_PROCESSING_AGE). */
export const maxProcessingAge = 150n;
/** Blocks of history the status cache keeps (MAX_RECENT_BLOCKHASHES). */
const maxRecentBlockhashes = 300;
const slotHashesEntries = 512;
const burnPercent = 50n;
const systemProgram = '11111111111111111111111111111111';
const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();

/** base58 SHA-256 of the parent's hash bytes, the slot (u64 little endian) and every signature's bytes, in block order. */
function blockhashOf(parent: string, slot: bigint, transactions: readonly RecordedTransaction[]): string {
  const digest = createHash('sha256').update(base58Bytes.encode(parent) as Uint8Array);
  const slotBytes = Buffer.alloc(8);
  slotBytes.writeBigUInt64LE(slot);
  digest.update(slotBytes);
  for (const transaction of transactions) for (const signature of transaction.signatures) digest.update(base58Bytes.encode(signature) as Uint8Array);
  return base58.decode(digest.digest());
}

export function createSolanaLedger(options: SolanaLedgerOptions = {}): SolanaLedger {
  const firstSlot = options.firstSlot ?? 0n;
  const slotsPerEpoch = options.slotsPerEpoch ?? 432_000n;
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n).withNativeMints();
  svm.setEpochSchedule(new EpochSchedule(slotsPerEpoch, slotsPerEpoch, false, 0n, 0n));
  const faucet = ledgerKey('faucet');
  const leader = ledgerKey('leader');
  const fund = (address: string, amount: bigint) =>
    svm.setAccount({
      address: address as Address,
      lamports: toLamports(amount),
      data: new Uint8Array(0),
      executable: false,
      programAddress: systemProgram as Address,
      space: 0n,
    });
  fund(faucet.address, options.faucetLamports ?? 500_000_000n * 1_000_000_000n);
  fund(leader.address, 1_000_000_000n);

  const genesisHash = svm.latestBlockhash();
  const blocks: SealedBlock[] = [];
  let pending: RecordedTransaction[] = [];
  const bySignature = new Map<string, RecordedTransaction>();
  /**
   * Messages of recorded transactions. A node's status cache holds the message hash beside the
   * signature, so a message seen before is AlreadyProcessed whatever its signatures: a
   * simulation of it with an unsigned fee-payer slot (as x402 facilitators simulate) included.
   */
  const processedMessages = new Set<string>();
  const messageKey = (transaction: Transaction) => createHash('sha256').update(new Uint8Array(transaction.messageBytes)).digest('base64');
  const byAddress = new Map<string, RecordedTransaction[]>();
  /** Blockhash to the block height it belongs to (the genesis hash counts as height 0). */
  const blockhashHeights = new Map<string, bigint>([[genesisHash, 0n]]);
  const slotHashes: { slot: bigint; hash: string }[] = [];
  let openSlot = firstSlot;
  let epochStartTimestamp = 0n;
  const epochOf = (slot: bigint) => slot / slotsPerEpoch;
  const setClock = (slot: bigint, unixTimestamp: bigint) =>
    svm.setClock(new Clock(slot, epochStartTimestamp, epochOf(slot), epochOf(slot) + 1n, unixTimestamp));
  setClock(openSlot, 0n);

  const head = () => blocks[blocks.length - 1];
  const openHeight = () => BigInt(blocks.length);
  const read = (address: string) => readAccount(svm, address);
  const lastValidBlockHeight = (hash: string) => {
    const height = blockhashHeights.get(hash);
    return height === undefined ? undefined : height + maxProcessingAge;
  };
  const isBlockhashValid = (hash: string) => {
    const last = lastValidBlockHeight(hash);
    return last !== undefined && openHeight() <= last;
  };

  /** A durable-nonce transaction: AdvanceNonceAccount first, naming the nonce account's stored value. */
  const nonceValid = (decoded: DecodedTransaction) => {
    const first = decoded.instructions[0];
    if (!first || decoded.staticKeys[first.programIdIndex] !== systemProgram) return false;
    if (first.data.length < 4 || new DataView(first.data.buffer, first.data.byteOffset, 4).getUint32(0, true) !== 4) return false;
    const nonceAccount = read(decoded.staticKeys[first.accounts[0] ?? -1] ?? '');
    if (!nonceAccount || nonceAccount.owner !== systemProgram || nonceAccount.data.length < 80) return false;
    return base58.decode(nonceAccount.data.subarray(40, 72)) === decoded.recentBlockhash;
  };

  const invokedIndexes = (decoded: DecodedTransaction) => new Set(decoded.instructions.map((instruction) => instruction.programIdIndex));

  function send(transaction: Transaction): SentTransaction {
    const decoded = decodeTransaction(transaction);
    const signature = decoded.signatures[0] ?? base58.decode(new Uint8Array(64));
    const refuse = (err: unknown, logs: readonly string[] = []): SentTransaction => ({ signature, recorded: false, err, logs });
    if (decoded.version === 1) return refuse('UnsupportedVersion');
    if (bySignature.has(signature) || processedMessages.has(messageKey(transaction))) return refuse('AlreadyProcessed');
    if (!isBlockhashValid(decoded.recentBlockhash) && !nonceValid(decoded)) return refuse('BlockhashNotFound');
    const loaded: LoadedAddresses | string = decoded.version === 0 ? resolveLookups(svm, decoded.lookups) : { writable: [], readonly: [] };
    if (typeof loaded === 'string') return refuse(loaded);
    const keys = allAccountKeys(decoded, loaded);
    const invoked = invokedIndexes(decoded);
    const unixTimestamp = svm.getClock().unixTimestamp;
    const before = snapshot(read, keys, invoked, unixTimestamp);
    const loadedSize = loadedAccountsDataSize(read, keys, invoked);
    const result = svm.sendTransaction(transaction);
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const err = failed ? transactionErrorJson(result.err()) : null;
    const after = snapshot(read, keys, invoked, unixTimestamp);
    // A failed transaction that left the fee payer untouched was refused before execution.
    if (failed && before.lamports[0] === after.lamports[0]) return refuse(err, meta.logs());
    const fee = runtimeFee(failed ? result : meta) ?? transactionFee(decoded, keys).total;
    const writable = keys.filter((_, index) => isWritable(decoded, keys, loaded, index)).length;
    const computeUnits = meta.computeUnitsConsumed();
    const recorded: RecordedTransaction = {
      slot: openSlot,
      blockTime: 0,
      index: pending.length,
      signatures: decoded.signatures,
      wire: decoded.wire,
      message: {
        header: decoded.header,
        accountKeys: decoded.staticKeys,
        recentBlockhash: decoded.recentBlockhash,
        instructions: decoded.instructions.map((instruction) => ({
          programIdIndex: instruction.programIdIndex,
          accounts: instruction.accounts,
          data: base58.decode(instruction.data),
          stackHeight: null,
        })),
        version: decoded.version,
        addressTableLookups: decoded.lookups,
      },
      meta: {
        err,
        fee,
        preBalances: before.lamports,
        postBalances: after.lamports,
        preTokenBalances: before.tokens,
        postTokenBalances: after.tokens,
        innerInstructions: innerInstructionRecords(meta),
        logMessages: meta.logs(),
        computeUnitsConsumed: computeUnits,
        loadedAddresses: loaded,
        returnData: returnDataRecord(meta),
        costUnits: costUnits(decoded, keys, writable, computeUnits, loadedSize),
      },
    };
    pending.push(recorded);
    bySignature.set(signature, recorded);
    processedMessages.add(messageKey(transaction));
    return { signature, recorded: true, err, logs: recorded.meta.logMessages };
  }

  function blockRewards(transactions: readonly RecordedTransaction[]): BlockReward[] {
    let total = 0n;
    let baseFees = 0n;
    for (const transaction of transactions) {
      total += transaction.meta.fee;
      baseFees += 5_000n * BigInt(transaction.message.header.numRequiredSignatures);
    }
    const deposit = total - (baseFees * burnPercent) / 100n;
    if (deposit <= 0n) return [];
    const account = svm.getAccount(leader.address as Address);
    const postBalance = (account.exists ? account.lamports : 0n) + deposit;
    fund(leader.address, postBalance);
    return [{ pubkey: leader.address, lamports: deposit, postBalance, rewardType: 'Fee', commission: null }];
  }

  function seal(blockTime: number): SealedBlock {
    const previous = head();
    if (!Number.isInteger(blockTime)) throw new Error(`block time must be whole unix seconds, got ${blockTime}`);
    if (previous && blockTime < previous.blockTime) throw new Error(`block time ${blockTime} is before the previous block's ${previous.blockTime}`);
    const transactions = pending;
    const rewards = blockRewards(transactions);
    svm.expireBlockhash();
    const hash = blockhashOf(previous ? previous.blockhash : genesisHash, openSlot, transactions);
    const block: SealedBlock = {
      slot: openSlot,
      parentSlot: previous ? previous.slot : openSlot > 0n ? openSlot - 1n : 0n,
      blockHeight: openHeight(),
      blockTime,
      blockhash: hash,
      previousBlockhash: previous ? previous.blockhash : genesisHash,
      transactions,
      rewards,
    };
    blocks.push(block);
    for (const transaction of transactions) {
      transaction.blockTime = blockTime;
      const keys = [...transaction.message.accountKeys, ...transaction.meta.loadedAddresses.writable, ...transaction.meta.loadedAddresses.readonly];
      for (const key of new Set(keys)) {
        const list = byAddress.get(key) ?? [];
        list.push(transaction);
        byAddress.set(key, list);
      }
    }
    pending = [];
    blockhashHeights.set(hash, block.blockHeight);
    // The queue keeps the last 300 blockhashes (only the last 151 still validate a transaction).
    if (blocks.length > maxRecentBlockhashes) {
      blockhashHeights.delete(blocks[blocks.length - 1 - maxRecentBlockhashes]!.blockhash);
      blockhashHeights.delete(genesisHash);
    }
    slotHashes.unshift({ slot: block.slot, hash });
    if (slotHashes.length > slotHashesEntries) slotHashes.pop();
    svm.setSlotHashes(slotHashes as unknown as SlotHash[]);
    openSlot += 1n;
    if (epochOf(openSlot) !== epochOf(block.slot)) epochStartTimestamp = BigInt(blockTime);
    setClock(openSlot, BigInt(blockTime));
    return block;
  }

  function airdrop(address: string, amount: bigint): SentTransaction {
    const latest = head()?.blockhash ?? genesisHash;
    const payer = createNoopSigner(faucet.address as Address);
    const message = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (draft) => setTransactionMessageFeePayer(faucet.address as Address, draft),
      (draft) =>
        setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(latest), lastValidBlockHeight: lastValidBlockHeight(latest) ?? 0n }, draft),
      (draft) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: payer, destination: address as Address, amount }), draft),
    );
    const unsigned = compileTransaction(message);
    const signed: Transaction = {
      ...unsigned,
      signatures: { ...unsigned.signatures, [faucet.address]: faucet.sign(new Uint8Array(unsigned.messageBytes)) as SignatureBytes },
    } as Transaction;
    return send(signed);
  }

  return {
    svm,
    firstSlot,
    genesisHash,
    leader: leader.address,
    faucet: faucet.address,
    openSlot: () => openSlot,
    head,
    send,
    seal,
    latestBlockhash: () => {
      const hash = head()?.blockhash ?? genesisHash;
      return { blockhash: hash, lastValidBlockHeight: lastValidBlockHeight(hash) ?? maxProcessingAge };
    },
    block: (slot) => (slot >= firstSlot ? blocks[Number(slot - firstSlot)] : undefined),
    transaction: (signature) => {
      const found = bySignature.get(signature);
      return found && found.slot < openSlot ? found : undefined;
    },
    signaturesForAddress: (address) => [...(byAddress.get(address) ?? [])].reverse(),
    pending: () => pending,
    signatureStatus: (signature) => {
      const found = bySignature.get(signature);
      return found ? { slot: found.slot, err: found.meta.err, sealed: found.slot < openSlot } : undefined;
    },
    isBlockhashValid,
    lastValidBlockHeight,
    simulate: (transaction, simulateOptions) =>
      simulateOnLedger(
        {
          svm,
          read,
          isBlockhashValid,
          nonceValid,
          alreadyProcessed: (signature) => bySignature.has(signature) || processedMessages.has(messageKey(transaction)),
        },
        transaction,
        simulateOptions,
      ),
    airdrop,
  };
}
