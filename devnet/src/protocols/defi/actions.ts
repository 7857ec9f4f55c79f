import { encodeFunctionData, maxUint256, type Address, type Hash, type Hex } from 'viem';
import { lendingAccountValue, readLendingPositions, readStakingHolding, type LendingPosition } from '../../truth/defi.js';
import type { ActionContext, ActionResult, ActionSpec, Rng } from '../../world/index.js';
import { erc20Abi, lendingAbi, stakingAbi, vaultAbi, wethAbi } from './abi.js';
import { chooseAmount, shareOf } from './amounts.js';
import type { DefiManifest } from './manifest.js';

const wad = 10n ** 18n;
/** ETH a wallet keeps for gas rather than wrapping it. */
const gasReserve = 5n * 10n ** 16n;
const gas = { approve: 80_000n, wrap: 80_000n, vault: 300_000n, staking: 300_000n, lending: 600_000n, owner: 200_000n };

/** Transactions of one action, sent in order from one wallet (or the deployer) into the same block. */
interface Sender {
  context: ActionContext;
  from: Address;
  hashes: Hash[];
}

async function send(sender: Sender, to: Address, data: Hex, gasLimit: bigint, value?: bigint): Promise<void> {
  sender.hashes.push(await sender.context.session.send({ from: sender.from, to, data, gas: gasLimit, ...(value ? { value } : {}) }));
}

function result(sender: Sender, label: string, expectFailure = false): ActionResult {
  return { label, hashes: sender.hashes, actor: sender.from, ...(expectFailure ? { expectFailure } : {}) };
}

function balanceOf(context: ActionContext, token: Address, owner: Address): Promise<bigint> {
  return context.session.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

/** Approves `spender` unless its allowance already covers `amount`: often exactly the amount, sometimes without limit. */
async function approve(sender: Sender, rng: Rng, token: Address, spender: Address, amount: bigint): Promise<void> {
  const allowance = await sender.context.session.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [sender.from, spender],
  });
  if (allowance >= amount) return;
  const approved = rng.chance(0.35) ? maxUint256 : amount;
  await send(sender, token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, approved] }), gas.approve);
}

/** What the wallet can put into a token, counting half its spare ETH when the token is WETH (it wraps first). */
async function spendable(context: ActionContext, weth: Address, token: Address, wallet: Address): Promise<{ balance: bigint; available: bigint }> {
  const balance = await balanceOf(context, token, wallet);
  if (token !== weth) return { balance, available: balance };
  const eth = await context.session.client.getBalance({ address: wallet });
  return { balance, available: balance + (eth > gasReserve ? (eth - gasReserve) / 2n : 0n) };
}

async function wrapShortfall(sender: Sender, weth: Address, token: Address, balance: bigint, amount: bigint): Promise<void> {
  if (token !== weth || amount <= balance) return;
  await send(sender, weth, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), gas.wrap, amount - balance);
}

async function latestBlock(context: ActionContext): Promise<bigint> {
  return context.session.client.getBlockNumber();
}

/** Lending positions as they will stand in the block the action lands in (interest to its timestamp). */
async function positionsAtAction(context: ActionContext, manifest: DefiManifest, wallet: Address): Promise<LendingPosition[]> {
  return readLendingPositions(context.session.client, manifest.lending, wallet, {
    blockNumber: await latestBlock(context),
    timestamp: BigInt(context.timestamp),
  });
}

function tokenAmountForUsd(position: LendingPosition, usd: bigint): bigint {
  return (usd * 10n ** BigInt(position.config.decimals)) / position.config.price;
}

export function defiActions(manifest: DefiManifest): ActionSpec[] {
  const weth = manifest.weth;
  const pool = manifest.lending.address;
  const staking = manifest.staking.address;
  const stakingToken = manifest.staking.stakingToken;

  // Cash that earlier actions of the same block take out of a market (borrows, withdrawals): many
  // wallets act in one block, and each must leave enough for the others.
  const taken = new Map<Address, { timestamp: number; amount: bigint }>();
  const freeCash = (context: ActionContext, position: LendingPosition) => {
    const entry = taken.get(position.token);
    return position.state.cash - (entry?.timestamp === context.timestamp ? entry.amount : 0n);
  };
  const take = (context: ActionContext, token: Address, amount: bigint) => {
    const entry = taken.get(token);
    taken.set(token, { timestamp: context.timestamp, amount: (entry?.timestamp === context.timestamp ? entry.amount : 0n) + amount });
  };

  const vaultDeposit: ActionSpec = {
    kind: 'defi:vault-deposit',
    weight: 3,
    async run(context, wallet) {
      for (const vault of context.rng.shuffle(manifest.vaults)) {
        const { balance, available } = await spendable(context, weth, vault.asset, wallet);
        const amount = chooseAmount(context.rng, available, vault.decimals);
        if (amount === 0n) continue;
        const sender: Sender = { context, from: wallet, hashes: [] };
        await wrapShortfall(sender, weth, vault.asset, balance, amount);
        await approve(sender, context.rng, vault.asset, vault.address, amount);
        await send(sender, vault.address, encodeFunctionData({ abi: vaultAbi, functionName: 'deposit', args: [amount, wallet] }), gas.vault);
        return result(sender, 'defi:vault-deposit');
      }
      return undefined;
    },
  };

  const vaultWithdraw: ActionSpec = {
    kind: 'defi:vault-withdraw',
    weight: 2,
    async run(context, wallet) {
      for (const vault of context.rng.shuffle(manifest.vaults)) {
        const shares = await balanceOf(context, vault.address, wallet);
        if (shares === 0n) continue;
        const sender: Sender = { context, from: wallet, hashes: [] };
        if (context.rng.chance(0.4)) {
          await send(sender, vault.address, encodeFunctionData({ abi: vaultAbi, functionName: 'redeem', args: [shares, wallet, wallet] }), gas.vault);
          return result(sender, 'defi:vault-redeem');
        }
        // The share price only rises, so what can be withdrawn now can still be withdrawn when mined.
        const max = await context.session.client.readContract({ address: vault.address, abi: vaultAbi, functionName: 'maxWithdraw', args: [wallet] });
        const assets = chooseAmount(context.rng, max, vault.decimals);
        if (assets === 0n) continue;
        await send(sender, vault.address, encodeFunctionData({ abi: vaultAbi, functionName: 'withdraw', args: [assets, wallet, wallet] }), gas.vault);
        return result(sender, 'defi:vault-withdraw');
      }
      return undefined;
    },
  };

  const stake = (locked: boolean): ActionSpec => ({
    kind: locked ? 'defi:stake-locked' : 'defi:stake',
    weight: 2,
    async run(context, wallet) {
      const amount = chooseAmount(context.rng, await balanceOf(context, stakingToken, wallet), 18);
      if (amount === 0n) return undefined;
      const sender: Sender = { context, from: wallet, hashes: [] };
      await approve(sender, context.rng, stakingToken, staking, amount);
      const data = locked
        ? encodeFunctionData({ abi: stakingAbi, functionName: 'stakeLocked', args: [amount, BigInt(context.rng.pick(manifest.staking.lockDurations))] })
        : encodeFunctionData({ abi: stakingAbi, functionName: 'stake', args: [amount] });
      await send(sender, staking, data, gas.staking);
      return result(sender, locked ? 'defi:stake-locked' : 'defi:stake');
    },
  });

  const unstake: ActionSpec = {
    kind: 'defi:unstake',
    weight: 2,
    async run(context, wallet) {
      const holding = await readStakingHolding(context.session.client, manifest.staking, wallet, { blockNumber: await latestBlock(context) });
      const unlocked = holding.locked.filter((lock) => lock.unlockTime <= context.timestamp);
      const choices = [...(holding.flexible > 0n ? ['flexible' as const] : []), ...unlocked];
      if (choices.length === 0) return undefined;
      const choice = context.rng.pick(choices);
      const sender: Sender = { context, from: wallet, hashes: [] };
      if (choice === 'flexible') {
        const amount = context.rng.chance(0.4) ? holding.flexible : chooseAmount(context.rng, holding.flexible, 18);
        await send(sender, staking, encodeFunctionData({ abi: stakingAbi, functionName: 'withdraw', args: [amount] }), gas.staking);
        return result(sender, 'defi:unstake');
      }
      await send(sender, staking, encodeFunctionData({ abi: stakingAbi, functionName: 'withdrawLocked', args: [BigInt(choice.lockId)] }), gas.staking);
      return result(sender, 'defi:unstake-locked');
    },
  };

  const unstakeEarly: ActionSpec = {
    kind: 'defi:unstake-early',
    weight: 0.5,
    async run(context, wallet) {
      const holding = await readStakingHolding(context.session.client, manifest.staking, wallet, { blockNumber: await latestBlock(context) });
      const locked = holding.locked.filter((lock) => lock.unlockTime > context.timestamp);
      if (locked.length === 0) return undefined;
      const sender: Sender = { context, from: wallet, hashes: [] };
      const lock = context.rng.pick(locked);
      await send(sender, staking, encodeFunctionData({ abi: stakingAbi, functionName: 'withdrawLocked', args: [BigInt(lock.lockId)] }), gas.staking);
      return result(sender, 'defi:unstake-early', true);
    },
  };

  const claim: ActionSpec = {
    kind: 'defi:claim-rewards',
    weight: 2,
    async run(context, wallet) {
      const holding = await readStakingHolding(context.session.client, manifest.staking, wallet, {
        blockNumber: await latestBlock(context),
        timestamp: BigInt(context.timestamp),
      });
      if (holding.earned === 0n) return undefined;
      const sender: Sender = { context, from: wallet, hashes: [] };
      await send(sender, staking, encodeFunctionData({ abi: stakingAbi, functionName: 'claim' }), gas.staking);
      return result(sender, 'defi:claim-rewards');
    },
  };

  const supply: ActionSpec = {
    kind: 'defi:supply',
    weight: 3,
    async run(context, wallet) {
      for (const market of context.rng.shuffle(manifest.lending.markets)) {
        const { balance, available } = await spendable(context, weth, market.token, wallet);
        const amount = chooseAmount(context.rng, available, market.decimals);
        if (amount === 0n) continue;
        const sender: Sender = { context, from: wallet, hashes: [] };
        await wrapShortfall(sender, weth, market.token, balance, amount);
        await approve(sender, context.rng, market.token, pool, amount);
        await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'supply', args: [market.token, amount] }), gas.lending);
        return result(sender, 'defi:supply');
      }
      return undefined;
    },
  };

  // Withdrawals and borrows keep the debt under 90% of the borrowing power, so neither interest
  // until the block nor a price update by the deployer in the same block can make them revert.
  const withdrawSupply: ActionSpec = {
    kind: 'defi:withdraw-supply',
    weight: 2,
    async run(context, wallet) {
      const positions = await positionsAtAction(context, manifest, wallet);
      const { powerUsd, debtUsd } = lendingAccountValue(positions);
      for (const position of context.rng.shuffle(positions.filter((entry) => entry.supplied > 0n))) {
        const sender: Sender = { context, from: wallet, hashes: [] };
        const cash = freeCash(context, position) / 2n;
        if (debtUsd === 0n && position.supplied <= cash && context.rng.chance(0.4)) {
          take(context, position.token, position.supplied);
          await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'withdraw', args: [position.token, maxUint256] }), gas.lending);
          return result(sender, 'defi:withdraw-supply-all');
        }
        const spare = powerUsd - (debtUsd * 10n) / 9n;
        if (spare <= 0n) return undefined;
        const limit = (tokenAmountForUsd(position, shareOf(context.rng, spare, 2_000, 6_000)) * wad) / position.config.collateralFactor;
        const amount = chooseAmount(
          context.rng,
          [limit, position.supplied, cash].reduce((a, b) => (a < b ? a : b)),
          position.config.decimals,
        );
        if (amount === 0n) continue;
        take(context, position.token, amount);
        await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'withdraw', args: [position.token, amount] }), gas.lending);
        return result(sender, 'defi:withdraw-supply');
      }
      return undefined;
    },
  };

  const borrow: ActionSpec = {
    kind: 'defi:borrow',
    weight: 2,
    async run(context, wallet) {
      const positions = await positionsAtAction(context, manifest, wallet);
      const { powerUsd, debtUsd } = lendingAccountValue(positions);
      const headroom = (powerUsd * 9n) / 10n - debtUsd;
      if (headroom <= 0n) return undefined;
      const position = context.rng.pick(positions);
      const wanted = tokenAmountForUsd(position, shareOf(context.rng, headroom, 2_000, 6_000));
      const cash = freeCash(context, position) / 2n;
      const amount = wanted < cash ? wanted : cash;
      if (amount <= 0n) return undefined;
      take(context, position.token, amount);
      const sender: Sender = { context, from: wallet, hashes: [] };
      await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'borrow', args: [position.token, amount] }), gas.lending);
      return result(sender, 'defi:borrow');
    },
  };

  const borrowOverLimit: ActionSpec = {
    kind: 'defi:borrow-over-limit',
    weight: 0.5,
    async run(context, wallet) {
      const positions = await positionsAtAction(context, manifest, wallet);
      const { powerUsd, debtUsd } = lendingAccountValue(positions);
      const liquidity = powerUsd > debtUsd ? powerUsd - debtUsd : 0n;
      // Well past the limit: a quarter of the borrowing power (at least $50) beyond it.
      const floor = 50n * wad;
      const excess = powerUsd / 4n > floor ? powerUsd / 4n : floor;
      const position = context.rng.pick(positions);
      const amount = tokenAmountForUsd(position, liquidity + excess) + 1n;
      const sender: Sender = { context, from: wallet, hashes: [] };
      await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'borrow', args: [position.token, amount] }), gas.lending);
      return result(sender, 'defi:borrow-over-limit', true);
    },
  };

  const repay: ActionSpec = {
    kind: 'defi:repay',
    weight: 2,
    async run(context, wallet) {
      const positions = await positionsAtAction(context, manifest, wallet);
      for (const position of context.rng.shuffle(positions.filter((entry) => entry.debt > 0n))) {
        const { balance, available } = await spendable(context, weth, position.token, wallet);
        if (available === 0n) continue;
        const sender: Sender = { context, from: wallet, hashes: [] };
        // The debt at the action's block is known exactly: interest accrues from the stored state.
        const all = available >= position.debt && context.rng.chance(0.5);
        const amount = all ? position.debt : chooseAmount(context.rng, available < position.debt ? available : position.debt, position.config.decimals);
        await wrapShortfall(sender, weth, position.token, balance, amount);
        await approve(sender, context.rng, position.token, pool, amount);
        await send(
          sender,
          pool,
          encodeFunctionData({ abi: lendingAbi, functionName: 'repay', args: [position.token, all ? maxUint256 : amount] }),
          gas.lending,
        );
        return result(sender, all ? 'defi:repay-all' : 'defi:repay');
      }
      return undefined;
    },
  };

  // The two below are the deployer's: it keeps the vaults' yield streaming and moves the price table.
  const vaultYield: ActionSpec = {
    kind: 'defi:vault-yield',
    weight: 0.3,
    async run(context) {
      const vault = context.rng.pick(manifest.vaults);
      const totalAssets = await context.session.client.readContract({ address: vault.address, abi: vaultAbi, functionName: 'totalAssets' });
      const amount = shareOf(context.rng, totalAssets, 5, 40);
      if (amount === 0n) return undefined;
      const sender: Sender = { context, from: context.deployer, hashes: [] };
      const balance = await balanceOf(context, vault.asset, context.deployer);
      if (vault.asset === weth) await wrapShortfall(sender, weth, weth, balance, amount);
      else if (balance < amount) return undefined;
      const duration = BigInt(context.rng.int(30, 120) * 86_400);
      await send(sender, vault.address, encodeFunctionData({ abi: vaultAbi, functionName: 'donateYield', args: [amount, duration] }), gas.owner);
      return result(sender, 'defi:vault-yield');
    },
  };

  const priceUpdate: ActionSpec = {
    kind: 'defi:price-update',
    weight: 0.3,
    async run(context) {
      const sender: Sender = { context, from: context.deployer, hashes: [] };
      for (const market of manifest.lending.markets) {
        const config = await context.session.client.readContract({ address: pool, abi: lendingAbi, functionName: 'marketConfig', args: [market.token] });
        const price = config[6];
        if (price === wad) continue;
        // At most 2% a step, the move the lending actions leave room for.
        const moved = (price * BigInt(10_000 + context.rng.int(-200, 200))) / 10_000n;
        await send(sender, pool, encodeFunctionData({ abi: lendingAbi, functionName: 'setPrice', args: [market.token, moved] }), gas.owner);
      }
      return sender.hashes.length > 0 ? result(sender, 'defi:price-update') : undefined;
    },
  };

  return [
    vaultDeposit,
    vaultWithdraw,
    stake(false),
    stake(true),
    unstake,
    unstakeEarly,
    claim,
    supply,
    withdrawSupply,
    borrow,
    repay,
    borrowOverLimit,
    vaultYield,
    priceUpdate,
  ];
}
