import { address, type Rpc, type SolanaRpcApi } from '@solana/kit';

/** A wallet's holding of one asset on a Solana chain: `asset` is the mint, or '' for SOL. */
export interface SolanaHoldingQuery {
  wallet: string;
  asset: string;
}

export interface SolanaBalanceReader {
  /**
   * Each holding as the node's newest finalized state has it, with the slot that state is at.
   * A Solana node reads no past state, so an opening is read now, and its slot (never below the
   * entry that asked for it) says which later entries it already contains.
   */
  currentBalances(holdings: readonly SolanaHoldingQuery[]): Promise<{ slot: bigint; amount: bigint }[]>;
}

/** The indexer publishes finalized blocks only; reads at the same commitment see the same chain. */
const commitment = 'finalized';

interface ParsedTokenAccount {
  account: { data: { parsed?: { info?: { tokenAmount?: { amount?: string } } } } | unknown };
}

function tokenAmountOf(entry: ParsedTokenAccount): bigint {
  const data = entry.account.data as { parsed?: { info?: { tokenAmount?: { amount?: string } } } };
  const amount = data.parsed?.info?.tokenAmount?.amount;
  if (amount === undefined) throw new Error('getTokenAccountsByOwner answered an account without parsed tokenAmount.amount');
  return BigInt(amount);
}

export function createSolanaBalanceReader(rpc: Rpc<SolanaRpcApi>): SolanaBalanceReader {
  async function read({ wallet, asset }: SolanaHoldingQuery): Promise<{ slot: bigint; amount: bigint }> {
    if (asset === '') {
      const { context, value } = await rpc.getBalance(address(wallet), { commitment }).send();
      return { slot: context.slot, amount: value };
    }
    // Every token account the wallet owns for the mint (its associated account and any other).
    const { context, value } = await rpc.getTokenAccountsByOwner(address(wallet), { mint: address(asset) }, { commitment, encoding: 'jsonParsed' }).send();
    return { slot: context.slot, amount: (value as readonly ParsedTokenAccount[]).reduce((sum, entry) => sum + tokenAmountOf(entry), 0n) };
  }
  return { currentBalances: (holdings) => Promise.all(holdings.map(read)) };
}
