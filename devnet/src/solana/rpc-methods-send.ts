// Transactions in: sendTransaction (preflight simulation unless skipped, then executed into the
// open block), simulateTransaction and requestAirdrop (a faucet transfer recorded like any other).
import { getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, type Transaction } from '@solana/kit';
import { accountEncodingOf, encodeAccount } from './account-encoding.js';
import type { SimulatedTransaction, SolanaLedger } from './ledger-types.js';
import { readAccount } from './ledger-snapshot.js';
import { decodeMessage, verifySignatures, withRecentBlockhash } from './message.js';
import { parseInstructionJson } from './parse-instruction.js';
import { invalidParams, preflightFailure, signatureVerificationFailure } from './rpc-errors.js';
import { tokenBalanceJson } from './rpc-encoding.js';
import {
  boolParam,
  checkMinContextSlot,
  commitmentOf,
  configParam,
  enumParam,
  positional,
  pubkeyParam,
  stringParam,
  u64Param,
  type Config,
} from './rpc-params.js';
import { contextSlot, withContext, type RpcMethod } from './rpc-context.js';
import { transactionErrorDisplay, type TransactionErrorJson } from './transaction-error.js';

const base58 = getBase58Encoder();
const base64 = getBase64Encoder();
const base64Text = getBase64Decoder();
const transactionDecoder = getTransactionDecoder();
const packetDataSize = 1232;
const maxBase58Size = 1683;
const maxBase64Size = 1644;
const typeName = 'solana_transaction::versioned::VersionedTransaction';
const encodings = ['binary', 'base64', 'base58', 'json', 'jsonParsed'] as const;

/** `decode_and_deserialize::<VersionedTransaction>` and sanitization, with the node's messages. */
function decodeWire(data: string, config: Config): Transaction {
  const encoding = enumParam(config.encoding, encodings, 'base58');
  if (encoding === 'json' || encoding === 'jsonParsed') throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
  let bytes: Uint8Array;
  if (encoding === 'base64') {
    if (data.length > maxBase64Size)
      throw invalidParams(`base64 encoded ${typeName} too large: ${data.length} bytes (max: encoded/raw ${maxBase64Size}/${packetDataSize})`);
    try {
      bytes = new Uint8Array(base64.encode(data));
    } catch (error) {
      throw invalidParams(`invalid base64 encoding: ${(error as Error).message}`);
    }
  } else {
    if (data.length > maxBase58Size)
      throw invalidParams(`base58 encoded ${typeName} too large: ${data.length} bytes (max: encoded/raw ${maxBase58Size}/${packetDataSize})`);
    try {
      bytes = new Uint8Array(base58.encode(data));
    } catch (error) {
      throw invalidParams(`invalid base58 encoding: ${(error as Error).message}`);
    }
  }
  if (bytes.length > packetDataSize) throw invalidParams(`decoded ${typeName} too large: ${bytes.length} bytes (max: ${packetDataSize} bytes)`);
  let transaction: Transaction;
  try {
    transaction = transactionDecoder.decode(bytes) as Transaction;
    const message = decodeMessage(new Uint8Array(transaction.messageBytes));
    if (Object.keys(transaction.signatures).length !== message.header.numRequiredSignatures) throw new Error('signature count');
    for (const instruction of message.instructions) {
      if (instruction.programIdIndex === 0 || instruction.programIdIndex >= message.staticKeys.length) throw new Error('program index');
    }
  } catch (error) {
    if ((error as Error).message === 'signature count' || (error as Error).message === 'program index') {
      throw invalidParams('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
    }
    throw invalidParams(`failed to deserialize ${typeName}: io error: ${(error as Error).message}`);
  }
  return transaction;
}

function returnDataJson(result: SimulatedTransaction): unknown {
  return result.returnData ? { programId: result.returnData.programId, data: [base64Text.decode(result.returnData.data), 'base64'] } : null;
}

function sendTransaction(params: unknown, ledger: SolanaLedger): string {
  const [dataValue, configValue] = positional(params, 1);
  const data = stringParam(dataValue);
  const config = configParam(configValue);
  const skipPreflight = config.skipPreflight === undefined || config.skipPreflight === null ? false : boolParam(config.skipPreflight);
  if (config.preflightCommitment !== undefined) commitmentOf({ commitment: config.preflightCommitment });
  checkMinContextSlot(config, contextSlot(ledger));
  const transaction = decodeWire(data, config);
  if (!skipPreflight) {
    if (!verifySignatures(transaction)) throw signatureVerificationFailure();
    const simulated = ledger.simulate(transaction);
    if (simulated.err !== null) {
      throw preflightFailure(`Transaction simulation failed: ${transactionErrorDisplay(simulated.err as TransactionErrorJson)}`, {
        err: simulated.err,
        logs: simulated.logs,
        accounts: null,
        unitsConsumed: simulated.computeUnitsConsumed,
        loadedAccountsDataSize: simulated.loadedAccountsDataSize,
        returnData: returnDataJson(simulated),
        innerInstructions: null,
        replacementBlockhash: null,
        fee: null,
        preBalances: null,
        postBalances: null,
        preTokenBalances: null,
        postTokenBalances: null,
        loadedAddresses: null,
      });
    }
  }
  // Refused transactions (skipped preflight) are dropped as a leader drops them; the signature is returned all the same.
  return ledger.send(transaction).signature;
}

function simulateTransaction(params: unknown, ledger: SolanaLedger): unknown {
  const [dataValue, configValue] = positional(params, 1);
  const data = stringParam(dataValue);
  const config = configParam(configValue);
  commitmentOf(config);
  checkMinContextSlot(config, contextSlot(ledger));
  const sigVerify = config.sigVerify === undefined || config.sigVerify === null ? false : boolParam(config.sigVerify);
  const replace = config.replaceRecentBlockhash === undefined || config.replaceRecentBlockhash === null ? false : boolParam(config.replaceRecentBlockhash);
  const withInner = config.innerInstructions === undefined || config.innerInstructions === null ? false : boolParam(config.innerInstructions);
  let transaction = decodeWire(data, config);
  let replacementBlockhash: unknown = null;
  if (replace) {
    if (sigVerify) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    const latest = ledger.latestBlockhash();
    transaction = withRecentBlockhash(transaction, latest.blockhash);
    replacementBlockhash = { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight };
  }
  if (sigVerify && !verifySignatures(transaction)) throw signatureVerificationFailure();
  const result = ledger.simulate(transaction);
  let accounts: unknown = null;
  if (config.accounts !== undefined && config.accounts !== null) {
    const accountsConfig = configParam(config.accounts);
    const encoding = accountEncodingOf(accountsConfig, 'base64');
    if (encoding === 'binary' || encoding === 'base58') throw invalidParams('base58 encoding not supported');
    const addresses = Array.isArray(accountsConfig.addresses) ? accountsConfig.addresses : [];
    if (addresses.length > result.accountKeys.length) throw invalidParams(`Too many accounts provided; max ${result.accountKeys.length}`);
    accounts = addresses.map((value) => {
      const address = pubkeyParam(value);
      if (result.err !== null) return null;
      const after = result.postAccounts.get(address);
      const account = after ? (after.lamports === 0n ? undefined : after) : readAccount(ledger.svm, address);
      return account ? encodeAccount(ledger.svm, account, encoding, undefined) : null;
    });
  }
  const keys = result.accountKeys;
  return withContext(ledger, {
    err: result.err,
    logs: result.logs,
    accounts,
    unitsConsumed: result.computeUnitsConsumed,
    loadedAccountsDataSize: result.loadedAccountsDataSize,
    returnData: returnDataJson(result),
    innerInstructions: withInner
      ? result.innerInstructions.map((entry) => ({
          index: entry.index,
          instructions: entry.instructions.map((instruction) =>
            parseInstructionJson(
              keys[instruction.programIdIndex]!,
              instruction.accounts.map((index) => keys[index]!),
              new Uint8Array(base58.encode(instruction.data)),
              instruction.stackHeight,
            ),
          ),
        }))
      : null,
    replacementBlockhash,
    fee: result.fee,
    preBalances: result.preBalances,
    postBalances: result.postBalances,
    preTokenBalances: result.preTokenBalances?.map(tokenBalanceJson) ?? null,
    postTokenBalances: result.postTokenBalances?.map(tokenBalanceJson) ?? null,
    loadedAddresses: result.loadedAddresses,
  });
}

export const sendMethods: Record<string, RpcMethod> = {
  sendTransaction: (params, { ledger }) => sendTransaction(params, ledger),
  simulateTransaction: (params, { ledger }) => simulateTransaction(params, ledger),
  requestAirdrop: (params, { ledger }) => {
    const [addressValue, lamportsValue, configValue] = positional(params, 2);
    const address = pubkeyParam(addressValue);
    const lamports = u64Param(lamportsValue);
    commitmentOf(configParam(configValue));
    return ledger.airdrop(address, lamports).signature;
  },
};
