import type { Address, PublicClient } from 'viem';
import { lendingAbi, stakingAbi, vaultAbi } from '../protocols/defi/abi.js';
import type { DefiManifest } from '../protocols/defi/manifest.js';

// What a wallet holds in the `defi` module at a block, read straight from the chain and recomputed
// with the contracts' integer arithmetic (interest and rewards accrued to the block's timestamp).

export type ChainReader = Pick<PublicClient, 'readContract' | 'getBlock'>;

const wad = 10n ** 18n;

export interface VaultHolding {
  vault: Address;
  asset: Address;
  shares: bigint;
  /** Assets the shares redeem for at the block (ERC-4626 convertToAssets, rounded down). */
  assets: bigint;
}

export interface LockedStake {
  lockId: number;
  amount: bigint;
  unlockTime: number;
}

export interface StakingHolding {
  flexible: bigint;
  /** Locked stakes not yet withdrawn. */
  locked: LockedStake[];
  /** Reward tokens claimable at the block. */
  earned: bigint;
}

export interface LendingMarketConfig {
  decimals: number;
  collateralFactor: bigint;
  reserveFactor: bigint;
  baseRatePerSecond: bigint;
  slopePerSecond: bigint;
  /** USD value of one whole token, 1e18 scaled. */
  price: bigint;
}

export interface LendingMarketState {
  cash: bigint;
  totalBorrows: bigint;
  totalReserves: bigint;
  totalShares: bigint;
  borrowIndex: bigint;
  lastAccrual: bigint;
}

export interface LendingPosition {
  token: Address;
  config: LendingMarketConfig;
  /** Market state with interest accrued to the timestamp the position was read at. */
  state: LendingMarketState;
  shares: bigint;
  /** Underlying the account can withdraw, interest included. */
  supplied: bigint;
  /** Underlying the account owes, interest included. */
  debt: bigint;
}

export interface LendingHolding {
  token: Address;
  supplied: bigint;
  debt: bigint;
}

export interface DefiHoldings {
  blockNumber: bigint;
  timestamp: bigint;
  vaults: VaultHolding[];
  staking: StakingHolding;
  /** Markets where the wallet supplies or owes something. */
  lending: LendingHolding[];
}

/** OpenZeppelin ERC4626 `_convertToAssets` with no decimals offset, rounding down. */
export function vaultAssetsFromTotals(shares: bigint, totalAssets: bigint, totalSupply: bigint): bigint {
  return (shares * (totalAssets + 1n)) / (totalSupply + 1n);
}

export function borrowRatePerSecond(config: LendingMarketConfig, state: LendingMarketState): bigint {
  const total = state.cash + state.totalBorrows - state.totalReserves;
  const utilisation = state.totalBorrows === 0n || total === 0n ? 0n : (state.totalBorrows * wad) / total;
  return config.baseRatePerSecond + (utilisation * config.slopePerSecond) / wad;
}

/** The lending pool's `_accrued`: interest from the last accrual to `timestamp`, at the rate of the stored state. */
export function accrueMarket(config: LendingMarketConfig, state: LendingMarketState, timestamp: bigint): LendingMarketState {
  const elapsed = timestamp - state.lastAccrual;
  if (elapsed <= 0n) return state;
  const factor = borrowRatePerSecond(config, state) * elapsed;
  const interest = (state.totalBorrows * factor) / wad;
  return {
    cash: state.cash,
    totalBorrows: state.totalBorrows + interest,
    totalReserves: state.totalReserves + (interest * config.reserveFactor) / wad,
    totalShares: state.totalShares,
    borrowIndex: state.borrowIndex + (state.borrowIndex * factor) / wad,
    lastAccrual: timestamp,
  };
}

export function supplyValue(state: LendingMarketState, shares: bigint): bigint {
  if (shares === 0n) return 0n;
  return (shares * (state.cash + state.totalBorrows - state.totalReserves)) / state.totalShares;
}

export function debtValue(state: LendingMarketState, principal: bigint, index: bigint): bigint {
  if (principal === 0n) return 0n;
  return (principal * state.borrowIndex) / index;
}

/** Borrowing power (supplied value times collateral factors) and debt value in USD, 1e18 scaled, as the pool computes them. */
export function lendingAccountValue(positions: readonly LendingPosition[]): { powerUsd: bigint; debtUsd: bigint } {
  let powerUsd = 0n;
  let debtUsd = 0n;
  for (const position of positions) {
    const unit = 10n ** BigInt(position.config.decimals);
    powerUsd += (((position.supplied * position.config.price) / unit) * position.config.collateralFactor) / wad;
    debtUsd += (position.debt * position.config.price) / unit;
  }
  return { powerUsd, debtUsd };
}

export interface StakingAccountState {
  rewardRate: bigint;
  periodFinish: bigint;
  lastUpdateTime: bigint;
  rewardPerWeightStored: bigint;
  totalWeight: bigint;
  weight: bigint;
  rewardPerWeightPaid: bigint;
  rewards: bigint;
}

/** Synthetix `earned` over stake weights at `timestamp`. */
export function stakingEarned(state: StakingAccountState, timestamp: bigint): bigint {
  const applicable = timestamp < state.periodFinish ? timestamp : state.periodFinish;
  const rewardPerWeight =
    state.totalWeight === 0n
      ? state.rewardPerWeightStored
      : state.rewardPerWeightStored + ((applicable - state.lastUpdateTime) * state.rewardRate * wad) / state.totalWeight;
  return (state.weight * (rewardPerWeight - state.rewardPerWeightPaid)) / wad + state.rewards;
}

/**
 * The wallet's lending positions from the chain state at `blockNumber`, with interest accrued to
 * `timestamp` (the block's own unless given: actions pass the time of the block they will land in).
 */
export async function readLendingPositions(
  client: ChainReader,
  lending: DefiManifest['lending'],
  wallet: Address,
  at: { blockNumber: bigint; timestamp?: bigint },
): Promise<LendingPosition[]> {
  const { blockNumber } = at;
  const timestamp = at.timestamp ?? (await client.getBlock({ blockNumber })).timestamp;
  const pool = lending.address;
  return Promise.all(
    lending.markets.map(async ({ token }) => {
      const [configTuple, stateTuple, shares, snapshot] = await Promise.all([
        client.readContract({ address: pool, abi: lendingAbi, functionName: 'marketConfig', args: [token], blockNumber }),
        client.readContract({ address: pool, abi: lendingAbi, functionName: 'marketState', args: [token], blockNumber }),
        client.readContract({ address: pool, abi: lendingAbi, functionName: 'supplySharesOf', args: [token, wallet], blockNumber }),
        client.readContract({ address: pool, abi: lendingAbi, functionName: 'borrowSnapshotOf', args: [token, wallet], blockNumber }),
      ]);
      const [, decimals, collateralFactor, reserveFactor, baseRatePerSecond, slopePerSecond, price] = configTuple;
      const [cash, totalBorrows, totalReserves, totalShares, borrowIndex, lastAccrual] = stateTuple;
      const config = { decimals, collateralFactor, reserveFactor, baseRatePerSecond, slopePerSecond, price };
      const state = accrueMarket(config, { cash, totalBorrows, totalReserves, totalShares, borrowIndex, lastAccrual }, timestamp);
      const [principal, index] = snapshot;
      return { token, config, state, shares, supplied: supplyValue(state, shares), debt: debtValue(state, principal, index) };
    }),
  );
}

export async function readStakingHolding(
  client: ChainReader,
  staking: DefiManifest['staking'],
  wallet: Address,
  at: { blockNumber: bigint; timestamp?: bigint },
): Promise<StakingHolding> {
  const { blockNumber } = at;
  const timestamp = at.timestamp ?? (await client.getBlock({ blockNumber })).timestamp;
  const contract = { address: staking.address, abi: stakingAbi, blockNumber } as const;
  const [rewardRate, periodFinish, lastUpdateTime, rewardPerWeightStored, totalWeight, weight, rewardPerWeightPaid, rewards, flexible, locks] =
    await Promise.all([
      client.readContract({ ...contract, functionName: 'rewardRate' }),
      client.readContract({ ...contract, functionName: 'periodFinish' }),
      client.readContract({ ...contract, functionName: 'lastUpdateTime' }),
      client.readContract({ ...contract, functionName: 'rewardPerWeightStored' }),
      client.readContract({ ...contract, functionName: 'totalWeight' }),
      client.readContract({ ...contract, functionName: 'weightOf', args: [wallet] }),
      client.readContract({ ...contract, functionName: 'rewardPerWeightPaid', args: [wallet] }),
      client.readContract({ ...contract, functionName: 'rewards', args: [wallet] }),
      client.readContract({ ...contract, functionName: 'flexibleBalanceOf', args: [wallet] }),
      client.readContract({ ...contract, functionName: 'locksOf', args: [wallet] }),
    ]);
  const earned = stakingEarned(
    { rewardRate, periodFinish, lastUpdateTime, rewardPerWeightStored, totalWeight, weight, rewardPerWeightPaid, rewards },
    timestamp,
  );
  const locked = locks.flatMap((lock, lockId) => (lock.withdrawn ? [] : [{ lockId, amount: lock.amount, unlockTime: Number(lock.unlockTime) }]));
  return { flexible, locked, earned };
}

/**
 * Vault shares and what they redeem for. The contract's convertToAssets is checked against the
 * same rounding applied to totalAssets and totalSupply; a mismatch means the reader is wrong.
 */
export async function readVaultHoldings(client: ChainReader, vaults: DefiManifest['vaults'], wallet: Address, blockNumber: bigint): Promise<VaultHolding[]> {
  return Promise.all(
    vaults.map(async (vault) => {
      const contract = { address: vault.address, abi: vaultAbi, blockNumber } as const;
      const [shares, totalAssets, totalSupply] = await Promise.all([
        client.readContract({ ...contract, functionName: 'balanceOf', args: [wallet] }),
        client.readContract({ ...contract, functionName: 'totalAssets' }),
        client.readContract({ ...contract, functionName: 'totalSupply' }),
      ]);
      const assets = await client.readContract({ ...contract, functionName: 'convertToAssets', args: [shares] });
      const computed = vaultAssetsFromTotals(shares, totalAssets, totalSupply);
      if (computed !== assets) throw new Error(`vault ${vault.address}: convertToAssets gave ${assets}, totals give ${computed} at block ${blockNumber}`);
      return { vault: vault.address, asset: vault.asset, shares, assets };
    }),
  );
}

export async function readDefiHoldings(client: ChainReader, manifest: DefiManifest, wallet: Address, blockNumber: bigint): Promise<DefiHoldings> {
  const { timestamp } = await client.getBlock({ blockNumber });
  const at = { blockNumber, timestamp };
  const [vaults, staking, positions] = await Promise.all([
    readVaultHoldings(client, manifest.vaults, wallet, blockNumber),
    readStakingHolding(client, manifest.staking, wallet, at),
    readLendingPositions(client, manifest.lending, wallet, at),
  ]);
  const lending = positions.filter((position) => position.supplied > 0n || position.debt > 0n).map(({ token, supplied, debt }) => ({ token, supplied, debt }));
  return { blockNumber, timestamp, vaults, staking, lending };
}
