import type { Act, Approval, Asset, CollectionApproval, Transfer, WalletTransaction } from '@wallet-api/core/proto/events';
import type { Transaction, TransactionReceipt } from 'viem';
import type { TransactionTrace } from '../fetch/block-bundle.js';
import { zeroAddress } from '@wallet-api/core/transactions';
import { decodeLog, type CollectionApprovalEvent, type LogEvent, type ReceiptLog, type TokenApproval } from './log-event.js';
import { methodOf } from './method-names.js';
import type { AssetRef, Movement } from './movement.js';
import { nativeTransfers } from './native-transfers.js';
import { operationRank, type ActType } from '@wallet-api/core/transactions';

export interface BlockContext {
  chainId: string;
  number: bigint;
  hash: string;
  timestamp: bigint;
}

/** A transaction as decoded, amounts still bigint; `toWalletTransaction` makes the proto message. */
export interface DecodedTransaction {
  block: BlockContext;
  index: number;
  hash: string;
  from: string;
  to: string;
  nonce: number;
  failed: boolean;
  fee: bigint;
  value: bigint;
  methodId: string;
  methodName: string;
  createdContract: string;
  paymaster: string;
  acts: DecodedAct[];
  /** Account-abstraction accounts the transaction acted for (they send nothing themselves). */
  accounts: string[];
}

export interface DecodedAct {
  type: ActType;
  sentFrom: string;
  contract: string;
  movements: Movement[];
  approvals: TokenApproval[];
  collectionApprovals: CollectionApprovalEvent[];
}

const act = (type: ActType, sentFrom: string, contract: string, fields: Partial<DecodedAct> = {}): DecodedAct => ({
  type,
  sentFrom,
  contract,
  movements: [],
  approvals: [],
  collectionApprovals: [],
  ...fields,
});

/**
 * The account each log was emitted for: a Safe's ExecutionSuccess or an EntryPoint's
 * UserOperationEvent comes after everything it executed, so a log belongs to the first such
 * wrapper at or after it; logs after the last wrapper belong to the transaction's sender.
 */
function actorsOf(events: (LogEvent | undefined)[], from: string): string[] {
  const actors: string[] = new Array(events.length);
  let actor = from;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === 'user-operation' || event?.type === 'safe-execution') actor = event.account;
    actors[index] = actor;
  }
  return actors;
}

/**
 * Movements no protocol event explains become mints (from the zero address), burns (to it) and
 * plain transfers grouped by sender, so a multi-send is one act per sender.
 */
function looseActs(movements: { movement: Movement; actor: string }[]): DecodedAct[] {
  const mints = movements.filter(({ movement }) => movement.sender === zeroAddress);
  const burns = movements.filter(({ movement }) => movement.sender !== zeroAddress && movement.recipient === zeroAddress);
  const acts: DecodedAct[] = [];
  if (mints.length > 0) acts.push(act('mint', mints[0]!.actor, mints[0]!.movement.asset.address, { movements: mints.map(({ movement }) => movement) }));
  if (burns.length > 0)
    acts.push(act('burn', burns[0]!.movement.sender, burns[0]!.movement.asset.address, { movements: burns.map(({ movement }) => movement) }));
  const bySender = new Map<string, DecodedAct>();
  for (const { movement } of movements) {
    if (movement.sender === zeroAddress || movement.recipient === zeroAddress) continue;
    const existing = bySender.get(movement.sender);
    if (existing) existing.movements.push(movement);
    else {
      const created = act('transfer', movement.sender, movement.asset.address, { movements: [movement] });
      bySender.set(movement.sender, created);
      acts.push(created);
    }
  }
  return acts;
}

export interface TransactionInput {
  block: BlockContext;
  /** The fields read: a pending transaction's simulation (pending/decode-pending.ts) gives them too. */
  transaction: Pick<Transaction, 'hash' | 'from' | 'to' | 'input' | 'value' | 'nonce'>;
  receipt: Pick<TransactionReceipt, 'status' | 'contractAddress' | 'transactionIndex' | 'gasUsed' | 'effectiveGasPrice'> & { logs: readonly ReceiptLog[] };
  trace: TransactionTrace;
}

export function decodeTransaction({ block, transaction, receipt, trace }: TransactionInput): DecodedTransaction {
  const from = transaction.from.toLowerCase();
  const to = transaction.to?.toLowerCase() ?? '';
  const failed = receipt.status !== 'success';
  const createdContract = !failed && receipt.contractAddress ? receipt.contractAddress.toLowerCase() : '';
  const method = to === '' ? { id: '', name: '' } : methodOf(transaction.input);
  const events = failed ? [] : receipt.logs.map((log) => decodeLog(log));
  const actors = actorsOf(events, from);

  const acts: DecodedAct[] = [];
  // Acts that say what the transaction did, as opposed to those made up from loose movements.
  const named: DecodedAct[] = [];
  const nameAct = (created: DecodedAct) => {
    named.push(created);
    acts.push(created);
  };
  if (createdContract !== '') nameAct(act('deploy', from, createdContract));

  // Protocols emit their event after the token movements it sums up, so movements wait for the next one.
  let pending: { movement: Movement; actor: string }[] = [];
  const accounts = new Set<string>();
  const createdWallets = new Set<string>();
  let paymaster = '';
  events.forEach((event, index) => {
    switch (event?.type) {
      case undefined:
        return;
      case 'movements':
        pending.push(...event.movements.map((movement) => ({ movement, actor: actors[index]! })));
        return;
      case 'approval': {
        const revoke = event.approval.amount === 0n;
        acts.push(act(revoke ? 'revoke' : 'approve', event.approval.owner, event.approval.token, { approvals: [event.approval] }));
        return;
      }
      case 'collection-approval':
        acts.push(
          act(event.approval.approved ? 'approve' : 'revoke', event.approval.owner, event.approval.collection, { collectionApprovals: [event.approval] }),
        );
        return;
      case 'act':
        nameAct(act(event.act, event.actor ?? actors[index]!, event.contract, { movements: [...pending.map(({ movement }) => movement), ...event.movements] }));
        pending = [];
        return;
      case 'user-operation':
        accounts.add(event.account);
        if (paymaster === '' && event.paymaster !== zeroAddress) paymaster = event.paymaster;
        return;
      case 'safe-execution':
        accounts.add(event.account);
        return;
      case 'wallet-created':
        // One deployment can emit both ProxyCreation and InstanceCreation for the same Safe.
        if (createdWallets.has(event.account)) return;
        createdWallets.add(event.account);
        accounts.add(event.account);
        nameAct(act('deploy', actors[index]!, event.account));
        return;
    }
  });

  const natives = failed ? [] : nativeTransfers(trace.result, createdContract);
  if (named.length > 0) {
    // What follows the last protocol event is its tail (unwrapping, refunds, sweeps to the wallet).
    named[named.length - 1]!.movements.push(...pending.map(({ movement }) => movement));
    // Call traces carry no log position, so native value joins the act that best says what the transaction did.
    const main = named.reduce((best, candidate) => (rankOfAct(candidate.type) < rankOfAct(best.type) ? candidate : best));
    main.movements.push(...natives);
  } else {
    const loose = looseActs(pending);
    const paidFor = loose.find((candidate) => candidate.type === 'mint' || candidate.type === 'burn');
    if (paidFor) {
      // Value sent along with a mint is its price (a paid NFT mint), not a separate payment.
      paidFor.movements.push(...natives);
      acts.push(...loose);
    } else acts.push(...looseActs([...pending, ...natives.map((movement) => ({ movement, actor: from }))]));
  }
  if (acts.length === 0) acts.push(act('execute', actors[0] ?? from, to));

  return {
    block,
    index: receipt.transactionIndex,
    hash: transaction.hash.toLowerCase(),
    from,
    to,
    nonce: transaction.nonce,
    failed,
    fee: receipt.gasUsed * receipt.effectiveGasPrice,
    value: transaction.value,
    methodId: method.id,
    methodName: method.name,
    createdContract,
    paymaster,
    acts,
    accounts: [...accounts],
  };
}

function rankOfAct(type: ActType): number {
  return operationRank(type === 'transfer' ? 'send' : type);
}

function toAsset(asset: AssetRef): Asset {
  return { kind: asset.kind, address: asset.address, tokenId: asset.tokenId?.toString() ?? '' };
}

/** Every address the transaction touches, the zero address and empty fields left out. */
function walletsOf(decoded: DecodedTransaction): string[] {
  const found = new Set<string>([decoded.from, decoded.to, ...decoded.accounts]);
  for (const entry of decoded.acts) {
    for (const movement of entry.movements) found.add(movement.sender).add(movement.recipient);
    for (const approval of entry.approvals) found.add(approval.owner).add(approval.spender);
    for (const approval of entry.collectionApprovals) found.add(approval.owner).add(approval.operator);
  }
  found.delete('');
  found.delete(zeroAddress);
  return [...found].sort();
}

export function toWalletTransaction(decoded: DecodedTransaction): WalletTransaction {
  const acts: Act[] = [];
  const transfers: Transfer[] = [];
  const approvals: Approval[] = [];
  const collectionApprovals: CollectionApproval[] = [];
  decoded.acts.forEach((entry, index) => {
    const actId = index + 1;
    acts.push({ id: actId, type: entry.type, sentFrom: entry.sentFrom, contractAddress: entry.contract });
    for (const movement of entry.movements) {
      transfers.push({ actId, asset: toAsset(movement.asset), amount: movement.amount.toString(), sender: movement.sender, recipient: movement.recipient });
    }
    for (const approval of entry.approvals) {
      const asset = toAsset({ kind: approval.kind, address: approval.token, ...(approval.tokenId !== undefined ? { tokenId: approval.tokenId } : {}) });
      approvals.push({ actId, asset, owner: approval.owner, spender: approval.spender, amount: approval.amount.toString() });
    }
    for (const approval of entry.collectionApprovals) collectionApprovals.push({ actId, ...approval });
  });
  return {
    chainId: decoded.block.chainId,
    blockNumber: decoded.block.number.toString(),
    blockHash: decoded.block.hash,
    blockTimestamp: decoded.block.timestamp.toString(),
    transactionIndex: decoded.index,
    hash: decoded.hash,
    from: decoded.from,
    to: decoded.to,
    nonce: decoded.nonce.toString(),
    failed: decoded.failed,
    fee: decoded.fee.toString(),
    value: decoded.value.toString(),
    methodId: decoded.methodId,
    methodName: decoded.methodName,
    createdContract: decoded.createdContract,
    paymaster: decoded.paymaster,
    acts,
    transfers,
    approvals,
    collectionApprovals,
    wallets: walletsOf(decoded),
  };
}
