import { encodeFunctionData, maxUint256, type Address, type Hash } from 'viem';
import type { ActionContext, Rng } from '../../world/index.js';
import { erc20Abi } from './abi.js';
import type { UniswapManifest, UniswapToken } from './manifest.js';
import { usdValueE6 } from './prices.js';

/** Gas limits sent explicitly, so transactions that depend on each other can share a block. */
export const actionGas = {
  approve: 100_000n,
  v2Swap: 400_000n,
  v2Liquidity: 500_000n,
  // V3 estimates run ~30% short for swaps that cross ticks; a fixed generous limit avoids estimating.
  v3: 1_500_000n,
};

/** Ether a wallet keeps for gas: ETH-paying actions never spend below it. */
export const gasReserveWei = 50_000_000_000_000_000n;

/** Holdings worth less than this (USD, six decimals, at reference prices) are dust nobody trades. */
export const minTradeUsdE6 = 2_000_000n;

export interface Holdings {
  /** Ether above the gas reserve. */
  spendableEth: bigint;
  tokens: Map<Address, bigint>;
}

/** Balances at the latest block (the wallet has no other action pending, so nothing moves them before this one). */
export async function readHoldings(context: ActionContext, manifest: UniswapManifest, wallet: Address): Promise<Holdings> {
  const client = context.session.client;
  const [eth, ...balances] = await Promise.all([
    client.getBalance({ address: wallet }),
    ...manifest.tokens.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })),
  ]);
  return {
    spendableEth: eth! > gasReserveWei ? eth! - gasReserveWei : 0n,
    tokens: new Map(manifest.tokens.map((token, index) => [token.address, balances[index]!])),
  };
}

export function isTradable(token: UniswapToken, amount: bigint): boolean {
  return usdValueE6(token, amount) >= minTradeUsdE6;
}

export function tokenByAddress(manifest: UniswapManifest, address: Address): UniswapToken {
  const token = manifest.tokens.find((entry) => entry.address === address);
  if (!token) throw new Error(`uniswap manifest has no token ${address}`);
  return token;
}

/** Rounds down to two significant digits, like amounts people type (1,200 USDC, 0.35 ETH). */
function typedAmount(amount: bigint): bigint {
  const digits = amount.toString().length;
  if (digits <= 2) return amount;
  const unit = 10n ** BigInt(digits - 2);
  return (amount / unit) * unit;
}

/**
 * The part of a holding one action uses: mostly a few percent to a half, sometimes all of it
 * (the "max" button); half of the partial amounts are rounded as if typed by hand.
 */
export function portion(amount: bigint, rng: Rng): bigint {
  const bucket = rng.weighted([
    { weight: 45, value: 'small' as const },
    { weight: 40, value: 'medium' as const },
    { weight: 15, value: 'all' as const },
  ]);
  if (bucket === 'all') return amount;
  const sharePpm = bucket === 'small' ? rng.int(10_000, 100_000) : rng.int(100_000, 600_000);
  const raw = (amount * BigInt(sharePpm)) / 1_000_000n;
  return rng.chance(0.5) ? typedAmount(raw) : raw;
}

/**
 * Tolerated slippage in basis points. Wider than a careful trader's 0.5%: quotes are taken at the
 * latest block while other wallets' trades land in the same block ahead of this one.
 */
export function pickSlippageBps(rng: Rng): bigint {
  return rng.weighted([
    { weight: 7, value: 300n },
    { weight: 3, value: 500n },
  ]);
}

export function lessSlippage(amount: bigint, slippageBps: bigint): bigint {
  return (amount * (10_000n - slippageBps)) / 10_000n;
}

/** Share of swaps sent with a minimum output they cannot meet, for failed-transaction coverage. */
const plannedFailureChance = 0.03;

/**
 * The minimum output a swap asks for: the quote less the tolerated slippage, or, for a planned
 * failure, 10% above the quote, which no trade in the same block can make up for.
 */
export function minimumOut(quote: bigint, rng: Rng): { amountOutMin: bigint; fail: boolean } {
  if (rng.chance(plannedFailureChance)) return { amountOutMin: (quote * 110n) / 100n, fail: true };
  return { amountOutMin: lessSlippage(quote, pickSlippageBps(rng)), fail: false };
}

export function deadline(context: ActionContext): bigint {
  return BigInt(context.timestamp + 20 * 60);
}

/**
 * Sends an approval first when the allowance is short: usually unlimited, as wallets default to,
 * sometimes exactly the amount.
 */
export async function approveIfNeeded(context: ActionContext, wallet: Address, token: Address, spender: Address, amount: bigint): Promise<Hash[]> {
  const allowance = await context.session.client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [wallet, spender] });
  if (allowance >= amount) return [];
  const value = context.rng.chance(0.7) ? maxUint256 : amount;
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, value] });
  return [await context.session.send({ from: wallet, to: token, data, gas: actionGas.approve })];
}
