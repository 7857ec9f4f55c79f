// What a Solana wallet holds, read from the chain through its JSON-RPC with @solana/kit (Solana's
// RPC serves current state only: these readers have no block parameter).
import {
  address,
  getBase64Encoder,
  type GetAccountInfoApi,
  type GetBalanceApi,
  type GetBlockApi,
  type GetSlotApi,
  type GetTokenAccountsByOwnerApi,
  type Rpc,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS, getMintDecoder } from '@solana-program/token-2022';

/** The RPC methods the readers use; `createSolanaRpc(url)` has them. */
export type SolanaTruthRpc = Rpc<GetBalanceApi & GetTokenAccountsByOwnerApi & GetAccountInfoApi & GetSlotApi & GetBlockApi>;

export interface SolanaTokenHolding {
  mint: string;
  program: 'spl-token' | 'token-2022';
  /** Raw on-chain amount (base units), summed over the owner's token accounts of the mint. */
  amount: bigint;
  decimals: number;
  /**
   * ScaledUiAmount mints only: the multiplier in force (decimal text of the stored f64); the
   * display amount is amount x multiplier / 10^decimals (spec 2.1).
   */
  multiplier?: string;
}

/** Lamports `wallet` holds now. */
export async function solanaLamports(rpc: SolanaTruthRpc, wallet: string): Promise<bigint> {
  const { value } = await rpc.getBalance(address(wallet), { commitment: 'confirmed' }).send();
  return value;
}

/** Unix time of the newest block: the "now" against which a multiplier's effective time is compared. */
export async function solanaChainTime(rpc: SolanaTruthRpc): Promise<number> {
  const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
  const block = await rpc.getBlock(slot, { transactionDetails: 'none', rewards: false, maxSupportedTransactionVersion: 0 }).send();
  if (!block?.blockTime) throw new Error(`block ${slot} has no block time`);
  return Number(block.blockTime);
}

export interface ScaledUiAmountState {
  multiplier: number;
  newMultiplier: number;
  newMultiplierEffectiveTimestamp: number;
}

/** The ScaledUiAmount extension of a Token-2022 mint, or undefined when the mint has none. */
export async function readScaledUiAmount(rpc: SolanaTruthRpc, mint: string): Promise<ScaledUiAmountState | undefined> {
  const { value } = await rpc.getAccountInfo(address(mint), { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value || value.owner !== TOKEN_2022_PROGRAM_ADDRESS) return undefined;
  const decoded = getMintDecoder().decode(getBase64Encoder().encode(value.data[0]));
  if (decoded.extensions.__option === 'None') return undefined;
  const extension = decoded.extensions.value.find((entry) => entry.__kind === 'ScaledUiAmountConfig');
  if (extension?.__kind !== 'ScaledUiAmountConfig') return undefined;
  return {
    multiplier: extension.multiplier,
    newMultiplier: extension.newMultiplier,
    newMultiplierEffectiveTimestamp: Number(extension.newMultiplierEffectiveTimestamp),
  };
}

/** The multiplier in force at `time`: the new one from its effective time on, as the program applies it. */
export function multiplierAt(state: ScaledUiAmountState, time: number): string {
  return String(time >= state.newMultiplierEffectiveTimestamp ? state.newMultiplier : state.multiplier);
}

/**
 * Non-zero token holdings of `wallet` under both token programs, summed per mint (an owner may
 * hold a mint in several accounts), ordered by mint. ScaledUiAmount mints carry the multiplier in
 * force at `time` (default: the newest block's time).
 */
export async function solanaTokenHoldings(rpc: SolanaTruthRpc, wallet: string, time?: number): Promise<SolanaTokenHolding[]> {
  const owner = address(wallet);
  const programs = [
    { program: 'spl-token' as const, id: TOKEN_PROGRAM_ADDRESS },
    { program: 'token-2022' as const, id: TOKEN_2022_PROGRAM_ADDRESS },
  ];
  const byMint = new Map<string, SolanaTokenHolding>();
  for (const { program, id } of programs) {
    const { value } = await rpc.getTokenAccountsByOwner(owner, { programId: id }, { encoding: 'jsonParsed', commitment: 'confirmed' }).send();
    for (const { account } of value) {
      const info = account.data.parsed.info;
      const holding = byMint.get(info.mint) ?? { mint: info.mint, program, amount: 0n, decimals: info.tokenAmount.decimals };
      holding.amount += BigInt(info.tokenAmount.amount);
      byMint.set(info.mint, holding);
    }
  }
  const holdings = [...byMint.values()].filter((holding) => holding.amount > 0n).sort((a, b) => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0));
  let now = time;
  for (const holding of holdings) {
    if (holding.program !== 'token-2022') continue;
    const scaled = await readScaledUiAmount(rpc, holding.mint);
    if (!scaled) continue;
    now ??= await solanaChainTime(rpc);
    holding.multiplier = multiplierAt(scaled, now);
  }
  return holdings;
}

/** Display value of a holding as decimal text: amount x multiplier / 10^decimals, exact for the multiplier's decimal text. */
export function solanaDisplayAmount(holding: Pick<SolanaTokenHolding, 'amount' | 'decimals' | 'multiplier'>): string {
  const multiplier = holding.multiplier ?? '1';
  if (!/^\d+(\.\d+)?$/.test(multiplier)) throw new Error(`multiplier ${multiplier} is not plain decimal text`);
  const [whole, fraction = ''] = multiplier.split('.');
  const scaled = holding.amount * BigInt(`${whole}${fraction}`);
  const decimals = holding.decimals + fraction.length;
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const integer = digits.slice(0, digits.length - decimals);
  const rest = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return rest ? `${integer}.${rest}` : integer;
}
