// simulateTransaction on the ledger: the same checks as `send` (version, blockhash, duplicate,
// lookup tables), then LiteSVM's simulation, which keeps no effects. Signatures are not checked
// here (the RPC verifies them when asked to); the balances before and after are reported as a
// node's simulation reports them.
import type { Transaction } from '@solana/kit';
import { FailedTransactionMetadata, type LiteSVM } from 'litesvm';
import { transactionFee } from './fees.js';
import { innerInstructionRecords, loadedAccountsDataSize, returnDataRecord, snapshot, type AccountView } from './ledger-snapshot.js';
import type { SimulatedTransaction } from './ledger-types.js';
import { allAccountKeys, decodeTransaction, resolveLookups, type DecodedTransaction } from './message.js';
import { transactionErrorJson, type TransactionErrorJson } from './transaction-error.js';

export interface SimulationContext {
  svm: LiteSVM;
  read(address: string): AccountView | undefined;
  isBlockhashValid(blockhash: string): boolean;
  nonceValid(decoded: DecodedTransaction): boolean;
  alreadyProcessed(signature: string): boolean;
}

/** Errors raised before execution, for which no fee is charged. */
function charged(err: TransactionErrorJson | null): boolean {
  return err === null || typeof err !== 'string' || err === 'InvalidRentPayingAccount';
}

export function simulateOnLedger(context: SimulationContext, transaction: Transaction, options: { checkBlockhash?: boolean } = {}): SimulatedTransaction {
  const { svm, read } = context;
  const decoded = decodeTransaction(transaction);
  const unrun = (err: unknown): SimulatedTransaction => ({
    err,
    logs: [],
    computeUnitsConsumed: 0n,
    postAccounts: new Map(),
    innerInstructions: [],
    returnData: null,
    loadedAccountsDataSize: 0,
    fee: null,
    preBalances: null,
    postBalances: null,
    preTokenBalances: null,
    postTokenBalances: null,
    loadedAddresses: null,
    accountKeys: decoded.staticKeys,
  });
  if (decoded.version === 1) return unrun('UnsupportedVersion');
  if ((options.checkBlockhash ?? true) && !context.isBlockhashValid(decoded.recentBlockhash) && !context.nonceValid(decoded)) return unrun('BlockhashNotFound');
  if (decoded.signatures[0] && context.alreadyProcessed(decoded.signatures[0])) return unrun('AlreadyProcessed');
  const loaded = decoded.version === 0 ? resolveLookups(svm, decoded.lookups) : { writable: [], readonly: [] };
  if (typeof loaded === 'string') return unrun(loaded);
  const keys = allAccountKeys(decoded, loaded);
  const invoked = new Set(decoded.instructions.map((instruction) => instruction.programIdIndex));
  const unixTimestamp = svm.getClock().unixTimestamp;
  const before = snapshot(read, keys, invoked, unixTimestamp);
  const loadedSize = loadedAccountsDataSize(read, keys, invoked);
  svm.withSigverify(false);
  let result: ReturnType<LiteSVM['simulateTransaction']>;
  try {
    result = svm.simulateTransaction(transaction);
  } finally {
    svm.withSigverify(true);
  }
  const failed = result instanceof FailedTransactionMetadata;
  const meta = result.meta();
  const err = result instanceof FailedTransactionMetadata ? transactionErrorJson(result.err()) : null;
  const fee = charged(err) ? transactionFee(decoded, keys).total : null;
  const postAccounts = new Map<string, AccountView>();
  if (!(result instanceof FailedTransactionMetadata)) {
    for (const account of result.postAccounts()) {
      postAccounts.set(account.address, {
        lamports: account.lamports,
        data: new Uint8Array(account.data),
        owner: account.programAddress,
        executable: account.executable,
      });
    }
  }
  const readAfter = (address: string) => {
    const after = postAccounts.get(address);
    if (after) return after.lamports === 0n ? undefined : after;
    return read(address);
  };
  let after = snapshot(readAfter, keys, invoked, unixTimestamp);
  if (failed && fee !== null) {
    // Only the fee leaves the payer when execution fails.
    after = { lamports: before.lamports.map((balance, index) => (index === 0 ? balance - fee : balance)), tokens: before.tokens };
  }
  return {
    err,
    logs: meta.logs(),
    computeUnitsConsumed: meta.computeUnitsConsumed(),
    postAccounts,
    innerInstructions: innerInstructionRecords(meta),
    returnData: returnDataRecord(meta),
    loadedAccountsDataSize: loadedSize,
    fee,
    preBalances: fee === null ? null : before.lamports,
    postBalances: fee === null ? null : after.lamports,
    preTokenBalances: fee === null ? null : before.tokens,
    postTokenBalances: fee === null ? null : after.tokens,
    loadedAddresses: loaded,
    accountKeys: keys,
  };
}
