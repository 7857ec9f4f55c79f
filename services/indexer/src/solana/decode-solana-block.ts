import { AssetKind, type BalanceChange, type WalletTransaction } from '@wallet-api/core/proto/events';
import { toWalletTransaction, type BlockContext, type DecodedAct, type DecodedTransaction } from '../decode/decode-transaction.js';
import type { DecodedBlock } from '../decode/decode-block.js';
import { nativeAsset, type AssetRef, type Movement } from '../decode/movement.js';
import type { SolanaBlock, SolanaBlockTransaction, SolanaCompiledInstruction, SolanaTokenBalance } from './solana-block.js';
import { computeBudgetProgram, instructionMovement } from './solana-instructions.js';

/**
 * SPL Token and Token-2022 mints travel as `ASSET_KIND_ERC20` (the fungible-token kind) with the
 * mint's base58 address: every consumer's fungible handling applies to them unchanged.
 */
const tokenAsset = (mint: string): AssetRef => ({ kind: AssetKind.ASSET_KIND_ERC20, address: mint });

interface TokenAccount {
  owner: string;
  mint: string;
}

/** Static keys, then the writable and read-only keys a version-0 transaction loaded from lookup tables. */
function accountKeysOf(entry: SolanaBlockTransaction): string[] {
  const loaded = entry.meta?.loadedAddresses;
  return [...entry.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/** Token accounts the transaction touched, by account key, with their owner and mint (after, else before). */
function tokenAccountsOf(keys: readonly string[], balances: readonly SolanaTokenBalance[]): Map<string, TokenAccount> {
  const accounts = new Map<string, TokenAccount>();
  for (const balance of balances) {
    const key = keys[Number(balance.accountIndex)];
    if (key && balance.owner) accounts.set(key, { owner: balance.owner, mint: balance.mint });
  }
  return accounts;
}

/** Every instruction in execution order: each top-level one followed by those it invoked. */
function instructionsInOrder(entry: SolanaBlockTransaction): SolanaCompiledInstruction[] {
  const inner = new Map<number, readonly SolanaCompiledInstruction[]>();
  for (const group of entry.meta?.innerInstructions ?? []) inner.set(Number(group.index), group.instructions);
  return entry.transaction.message.instructions.flatMap((instruction, index) => [instruction, ...(inner.get(index) ?? [])]);
}

function movementsOf(entry: SolanaBlockTransaction, keys: readonly string[], tokenAccounts: ReadonlyMap<string, TokenAccount>): Movement[] {
  const mints = new Set([...tokenAccounts.values()].map((account) => account.mint));
  const movements: Movement[] = [];
  for (const instruction of instructionsInOrder(entry)) {
    const moved = instructionMovement(instruction, keys);
    if (!moved) continue;
    if (moved.type === 'lamports') {
      // Rent a new token account or mint is funded with stays with that account; it is no payment.
      if (tokenAccounts.has(moved.to) || mints.has(moved.to)) continue;
      movements.push({ asset: nativeAsset, amount: moved.amount, sender: moved.from, recipient: moved.to });
      continue;
    }
    const source = moved.source ? tokenAccounts.get(moved.source) : undefined;
    const destination = moved.destination ? tokenAccounts.get(moved.destination) : undefined;
    const mint = moved.mint ?? source?.mint ?? destination?.mint;
    // A side the transaction's token balances do not show cannot be named (a node too old to list owners).
    if (!mint || (moved.source && !source) || (moved.destination && !destination)) continue;
    movements.push({ asset: tokenAsset(mint), amount: moved.amount, sender: source?.owner ?? '', recipient: destination?.owner ?? '' });
  }
  return movements;
}

const act = (type: DecodedAct['type'], sentFrom: string, contract: string, movements: Movement[] = []): DecodedAct => ({
  type,
  sentFrom,
  contract,
  movements,
  approvals: [],
  collectionApprovals: [],
});

/** Mints, burns, and transfers grouped by sender (a multi-send is one act per sender), as the EVM decoder reads loose movements. */
function actsOf(movements: readonly Movement[], payer: string, program: string): DecodedAct[] {
  const acts: DecodedAct[] = [];
  const minted = movements.filter((movement) => movement.sender === '');
  const burned = movements.filter((movement) => movement.sender !== '' && movement.recipient === '');
  if (minted.length > 0) acts.push(act('mint', payer, minted[0]!.asset.address, minted));
  if (burned.length > 0) acts.push(act('burn', burned[0]!.sender, burned[0]!.asset.address, burned));
  const bySender = new Map<string, DecodedAct>();
  for (const movement of movements) {
    if (movement.sender === '' || movement.recipient === '') continue;
    const existing = bySender.get(movement.sender);
    if (existing) existing.movements.push(movement);
    else {
      const created = act('transfer', movement.sender, movement.asset.address, [movement]);
      bySender.set(movement.sender, created);
      acts.push(created);
    }
  }
  if (acts.length === 0) acts.push(act('execute', payer, program));
  return acts;
}

/** The program the transaction called (the first top-level instruction that is not a compute-budget setting). */
function mainProgramOf(entry: SolanaBlockTransaction, keys: readonly string[]): string {
  for (const instruction of entry.transaction.message.instructions) {
    const program = keys[Number(instruction.programIdIndex)] ?? '';
    if (program !== computeBudgetProgram) return program;
  }
  return '';
}

/**
 * Exact per-account deltas from the node's pre/post balances (fees, rent and every program's
 * effect included): lamports of every account that is not a token account, and token amounts
 * summed per owner and mint.
 */
function balanceDeltas(entry: SolanaBlockTransaction, keys: readonly string[], tokenAccounts: ReadonlyMap<string, TokenAccount>) {
  const meta = entry.meta!;
  const deltas = new Map<string, { wallet: string; asset: AssetRef; amount: bigint }>();
  const add = (wallet: string, asset: AssetRef, amount: bigint) => {
    if (amount === 0n) return;
    const key = `${wallet}|${asset.address}`;
    const found = deltas.get(key) ?? { wallet, asset, amount: 0n };
    found.amount += amount;
    deltas.set(key, found);
  };
  keys.forEach((key, index) => {
    if (tokenAccounts.has(key)) return;
    add(key, nativeAsset, BigInt(meta.postBalances[index] ?? 0) - BigInt(meta.preBalances[index] ?? 0));
  });
  for (const balance of meta.preTokenBalances ?? []) if (balance.owner) add(balance.owner, tokenAsset(balance.mint), -BigInt(balance.uiTokenAmount.amount));
  for (const balance of meta.postTokenBalances ?? []) if (balance.owner) add(balance.owner, tokenAsset(balance.mint), BigInt(balance.uiTokenAmount.amount));
  return [...deltas.values()].filter((delta) => delta.amount !== 0n);
}

export interface SolanaBlockInput {
  chainId: string;
  slot: bigint;
  block: SolanaBlock;
}

/** Every transaction of a block with the wallets it touches, and its balance changes, in block order. */
export function decodeSolanaBlock({ chainId, slot, block }: SolanaBlockInput): DecodedBlock {
  const context: BlockContext = { chainId, number: slot, hash: block.blockhash, timestamp: BigInt(block.blockTime ?? 0) };
  const transactions: WalletTransaction[] = [];
  const balanceChanges: BalanceChange[] = [];
  block.transactions.forEach((entry, index) => {
    const signature = entry.transaction.signatures[0];
    if (!entry.meta || !signature)
      throw new Error(`slot ${slot} of ${chainId}: transaction ${index} has no meta or signature (getBlock must ask for full transaction details)`);
    const keys = accountKeysOf(entry);
    const tokenAccounts = tokenAccountsOf(keys, [...(entry.meta.preTokenBalances ?? []), ...(entry.meta.postTokenBalances ?? [])]);
    const failed = entry.meta.err !== null && entry.meta.err !== undefined;
    const payer = keys[0]!;
    const program = mainProgramOf(entry, keys);
    const movements = failed ? [] : movementsOf(entry, keys, tokenAccounts);
    const deltas = balanceDeltas(entry, keys, tokenAccounts);
    const acts = actsOf(movements, payer, program);
    const paid = movements.filter((movement) => movement.sender === payer && movement.asset.kind === AssetKind.ASSET_KIND_NATIVE);
    const decoded: DecodedTransaction = {
      block: context,
      index,
      hash: signature,
      from: payer,
      to: movements.length === 1 && movements[0]!.recipient !== '' ? movements[0]!.recipient : program,
      nonce: 0,
      failed,
      fee: BigInt(entry.meta.fee),
      value: paid.reduce((sum, movement) => sum + movement.amount, 0n),
      methodId: '',
      methodName: '',
      createdContract: '',
      paymaster: '',
      acts,
      // Holders whose balances moved without a decoded movement (a program's own transfer logic) still see the transaction.
      accounts: deltas.map((delta) => delta.wallet).filter((wallet) => wallet !== payer),
    };
    transactions.push(toWalletTransaction(decoded));
    for (const delta of deltas) {
      balanceChanges.push({
        chainId,
        wallet: delta.wallet,
        asset: { kind: delta.asset.kind, address: delta.asset.address, tokenId: '' },
        blockNumber: slot.toString(),
        blockHash: block.blockhash,
        blockTimestamp: context.timestamp.toString(),
        transactionHash: signature,
        transactionIndex: index,
        amount: delta.amount.toString(),
      });
    }
  });
  return { transactions, balanceChanges };
}
