import type { Position } from '@wallet-api/core/proto/positions';
import type { ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { DefiManifest } from '../../../devnet/src/protocols/defi/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import type { TokenInfo, TokensManifest } from '../../../devnet/src/protocols/tokens/index.js';
import { readWalletTruth, type WalletTruth } from '../../../devnet/src/truth/index.js';
import { parseEther, type Address, type PublicClient } from 'viem';

/** One position reduced to what the chain decides: kind, asset, exact amount, receipt and pool. */
export interface Holding {
  type: string;
  token: string;
  amount: bigint;
  /** `fungible:<token>:<amount>`, `nft:<contract>:<token id>` or ''. */
  receipt: string;
  pool: string;
}

const lower = (address: string) => address.toLowerCase();

/** What the wallet holds outright, per asset ('' = native): the chain's non-zero balances, LP tokens included. */
export function walletHoldings(truth: WalletTruth): Map<string, bigint> {
  const held = new Map<string, bigint>();
  if (truth.native !== 0n) held.set('', truth.native);
  for (const token of truth.tokens) held.set(lower(token.address), token.balance);
  for (const share of truth.uniswapV2) held.set(lower(share.pair), share.balance);
  return held;
}

/** The protocol positions the chain says the wallet has, as the positions service should report them. */
export function protocolHoldings(truth: WalletTruth, chain: ChainWorld): Holding[] {
  const uniswap = chain.protocols.uniswap as UniswapManifest;
  const defi = chain.protocols.defi as DefiManifest;
  const positionManager = lower(uniswap.v3.positionManager);
  const holdings: Holding[] = [];
  for (const share of truth.uniswapV2) {
    const common = { type: 'deposit', receipt: `fungible:${lower(share.pair)}:${share.balance}`, pool: lower(share.pair) };
    holdings.push({ ...common, token: lower(share.token0), amount: share.amount0 }, { ...common, token: lower(share.token1), amount: share.amount1 });
  }
  for (const position of truth.uniswapV3) {
    if (position.liquidity === 0n && position.uncollected0 === 0n && position.uncollected1 === 0n) continue;
    const common = { receipt: `nft:${positionManager}:${position.tokenId}`, pool: lower(position.pool) };
    holdings.push(
      { ...common, type: 'deposit', token: lower(position.token0), amount: position.amount0 },
      { ...common, type: 'deposit', token: lower(position.token1), amount: position.amount1 },
    );
    if (position.uncollected0 > 0n) holdings.push({ ...common, type: 'reward', token: lower(position.token0), amount: position.uncollected0 });
    if (position.uncollected1 > 0n) holdings.push({ ...common, type: 'reward', token: lower(position.token1), amount: position.uncollected1 });
  }
  for (const vault of truth.defi.vaults) {
    if (vault.shares === 0n) continue;
    holdings.push({
      type: 'deposit',
      token: lower(vault.asset),
      amount: vault.assets,
      receipt: `fungible:${lower(vault.vault)}:${vault.shares}`,
      pool: lower(vault.vault),
    });
  }
  const staking = { receipt: '', pool: '' };
  if (truth.defi.staking.flexible > 0n)
    holdings.push({ ...staking, type: 'staked', token: lower(defi.staking.stakingToken), amount: truth.defi.staking.flexible });
  for (const lock of truth.defi.staking.locked) holdings.push({ ...staking, type: 'locked', token: lower(defi.staking.stakingToken), amount: lock.amount });
  if (truth.defi.staking.earned > 0n) holdings.push({ ...staking, type: 'reward', token: lower(defi.staking.rewardToken), amount: truth.defi.staking.earned });
  for (const market of truth.defi.lending) {
    if (market.supplied > 0n) holdings.push({ ...staking, type: 'deposit', token: lower(market.token), amount: market.supplied });
    if (market.debt > 0n) holdings.push({ ...staking, type: 'loan', token: lower(market.token), amount: market.debt });
  }
  return sortHoldings(holdings);
}

/** The service's protocol rows reduced the same way. */
export function servedHoldings(positions: readonly Position[]): Holding[] {
  return sortHoldings(
    positions
      .filter((position) => position.positionType !== 'wallet')
      .map((position) => ({
        type: position.positionType,
        token: position.token!.address,
        amount: BigInt(position.amount),
        receipt: position.fungibleReceipt
          ? `fungible:${position.fungibleReceipt.token!.address}:${position.fungibleReceipt.amount}`
          : position.nftReceipt
            ? `nft:${position.nftReceipt.contractAddress}:${position.nftReceipt.tokenId}`
            : '',
        pool: position.poolAddress,
      })),
  );
}

/** The service's wallet rows as asset -> amount. */
export function servedWalletHoldings(positions: readonly Position[]): Map<string, bigint> {
  return new Map(positions.filter((position) => position.positionType === 'wallet').map((position) => [position.token!.address, BigInt(position.amount)]));
}

export function sortHoldings(holdings: Holding[]): Holding[] {
  const key = (holding: Holding) => `${holding.type}|${holding.token}|${holding.receipt}|${holding.pool}|${holding.amount}`;
  return holdings.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * A world EOA holding more than 1 ether and more than one whole unit of a standard or stable
 * token at `block`, read from the chain: a sender for tests that move balances.
 */
export async function etherAndTokenHolder(client: PublicClient, world: ChainWorld, block: bigint): Promise<{ sender: Address; token: TokenInfo }> {
  const tokens = (world.protocols.tokens as TokensManifest).tokens.filter((token) => token.kind === 'standard' || token.kind === 'stable');
  for (const wallet of world.wallets.filter((candidate) => candidate.kind === 'eoa')) {
    const truth = await readWalletTruth(client, world, wallet.address as Address, block);
    const held = tokens.find((candidate) =>
      truth.tokens.some((balance) => balance.address.toLowerCase() === candidate.address.toLowerCase() && balance.balance > 10n ** BigInt(candidate.decimals)),
    );
    if (held && truth.native > parseEther('1')) return { sender: wallet.address.toLowerCase() as Address, token: held };
  }
  throw new Error('no EOA of the world holds ether and a standard token');
}
