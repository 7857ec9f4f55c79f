// What the ledger reads around an execution, as a validator's transaction status service does:
// lamports of every account key and the token balances of the token accounts among them (with
// the mint's decimals and display scaling at that moment), plus the loaded account data size.
import { getBase58Decoder, type Address } from '@solana/kit';
import type { LiteSVM, TransactionMetadata } from 'litesvm';
import type { CompiledInstructionRecord, TokenBalance } from './ledger-types.js';
import { transactionAccountBaseSize } from './fees.js';
import { interestBearingOf, isTokenProgram, parseMint, parseTokenAccount, scaledUiAmountOf } from './token-state.js';

const base58 = getBase58Decoder();
const upgradeableLoader = 'BPFLoaderUpgradeab1e11111111111111111111111';

export interface AccountView {
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
}

/** The account as the RPC sees it: absent (and zero-lamport accounts, which the bank purges) as undefined. */
export function readAccount(svm: LiteSVM, address: string): AccountView | undefined {
  const account = svm.getAccount(address as Address);
  if (!account.exists || account.lamports === 0n) return undefined;
  return { lamports: account.lamports, data: account.data, owner: account.programAddress, executable: account.executable };
}

export interface Snapshot {
  lamports: bigint[];
  tokens: TokenBalance[];
}

/** Balances of `keys`; token balances skip invoked programs and the token programs themselves. */
export function snapshot(
  read: (address: string) => AccountView | undefined,
  keys: readonly string[],
  invoked: ReadonlySet<number>,
  unixTimestamp: bigint,
): Snapshot {
  const lamports: bigint[] = [];
  const tokens: TokenBalance[] = [];
  const mints = new Map<string, ReturnType<typeof parseMint>>();
  keys.forEach((key, accountIndex) => {
    const account = read(key);
    lamports.push(account?.lamports ?? 0n);
    if (!account || invoked.has(accountIndex) || isTokenProgram(key) || !isTokenProgram(account.owner)) return;
    const tokenAccount = parseTokenAccount(account.data);
    if (!tokenAccount) return;
    if (!mints.has(tokenAccount.mint)) {
      const mintAccount = read(tokenAccount.mint);
      mints.set(tokenAccount.mint, mintAccount && isTokenProgram(mintAccount.owner) ? parseMint(mintAccount.data) : undefined);
    }
    const mint = mints.get(tokenAccount.mint);
    if (!mint) return;
    const scaled = scaledUiAmountOf(mint);
    const interest = interestBearingOf(mint);
    tokens.push({
      accountIndex,
      mint: tokenAccount.mint,
      owner: tokenAccount.owner,
      programId: account.owner,
      amount: tokenAccount.amount.toString(),
      decimals: mint.decimals,
      ...(scaled ? { scaledUiAmount: scaled, unixTimestamp } : {}),
      ...(interest ? { interestBearing: interest, unixTimestamp } : {}),
    });
  });
  return { lamports, tokens };
}

/** Account data the transaction loads: every key (64 bytes plus its data) and the programdata of invoked upgradeable programs. */
export function loadedAccountsDataSize(read: (address: string) => AccountView | undefined, keys: readonly string[], invoked: ReadonlySet<number>): number {
  let size = 0;
  const programData = new Set<string>();
  keys.forEach((key, index) => {
    const account = read(key);
    size += transactionAccountBaseSize + (account?.data.length ?? 0);
    if (account && invoked.has(index) && account.owner === upgradeableLoader && account.data.length >= 36) {
      programData.add(base58.decode(account.data.subarray(4, 36)));
    }
  });
  for (const address of programData) size += transactionAccountBaseSize + (read(address)?.data.length ?? 0);
  return size;
}

export function innerInstructionRecords(meta: TransactionMetadata): { index: number; instructions: CompiledInstructionRecord[] }[] {
  return meta
    .innerInstructions()
    .map((instructions, index) => ({
      index,
      instructions: instructions.map((inner) => {
        const instruction = inner.instruction();
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: Array.from(instruction.accounts()),
          data: base58.decode(instruction.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

export function returnDataRecord(meta: TransactionMetadata): { programId: string; data: Uint8Array } | null {
  const returned = meta.returnData();
  const data = returned.data();
  return data.length > 0 ? { programId: base58.decode(returned.programId()), data: new Uint8Array(data) } : null;
}

/** The fee the runtime charged, from the metadata's Debug text (`fee: N`), when it shows one. */
export function runtimeFee(meta: { toString(): string }): bigint | undefined {
  const match = /fee: (\d+) \}[ })]*$/.exec(meta.toString().trim());
  return match ? BigInt(match[1]!) : undefined;
}
