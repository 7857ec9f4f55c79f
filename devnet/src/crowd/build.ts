import { encodeFunctionData, erc20Abi, maxUint256, parseAbi, type Address, type Hex } from 'viem';
import type { ChainSession, MinedBlock } from '../chain/index.js';
import type { Artifacts } from '../compile/index.js';
import { wethAbi } from '../protocols/tokens/abis.js';
import type { TokensManifest } from '../protocols/tokens/index.js';
import { positionManagerAbi, v3PoolAbi } from '../protocols/uniswap/abi.js';
import type { UniswapManifest } from '../protocols/uniswap/index.js';
import { rangeAround } from '../protocols/uniswap/v3-actions.js';
import type { CrowdWallet } from './plan.js';

const crowdFunderAbi = parseAbi(['struct Call { address target; uint256 value; bytes callData; }', 'function run(Call[] calls) payable']);

interface Call {
  target: Address;
  value: bigint;
  callData: Hex;
}

/** Why a transaction reverted, from running it again on its parent block's state. */
async function revertReason(session: ChainSession, hash: Hex, parent: bigint): Promise<string> {
  const transaction = await session.client.getTransaction({ hash });
  try {
    await session.client.call({
      account: transaction.from,
      to: transaction.to,
      data: transaction.input,
      value: transaction.value,
      gas: transaction.gas,
      blockNumber: parent,
    });
    return 'it succeeds on the parent block, so an earlier transaction of its block made it fail';
  } catch (error) {
    return error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  }
}

export interface BuildCrowdOptions {
  session: ChainSession;
  /** Compiled contracts of the devnet package (DevnetCrowdFunder). */
  artifacts: Artifacts;
  /** Holds the tokens' supply (the world's deployer); pays every wallet's ether and tokens. */
  deployer: Address;
  tokens: TokensManifest;
  uniswap: UniswapManifest;
  wallets: readonly CrowdWallet[];
  /** The timestamp of the next block, given the latest one's. */
  nextTimestamp: (latest: number) => number;
  /** Wallets funded per transaction (default 50) and transactions per block (default 4: a block of 200 new wallets traces in about a second on anvil). */
  batchSize?: number;
  batchesPerBlock?: number;
}

/**
 * Funds the crowd on chain as ordinary transactions, so the indexer sees transfers and mints like
 * any others: the deployer deploys a DevnetCrowdFunder and approves it, then each of its batches
 * pays wallets their ether (internal transfers) and tokens (`transferFrom` the deployer) and mints
 * their positions (the tokens moved to the funder first, WETH wrapped from ether); last, the
 * wallets that send do so from their own address. Fails if any transaction does not succeed.
 */
export async function buildCrowd(options: BuildCrowdOptions): Promise<MinedBlock[]> {
  const { session, deployer, tokens, uniswap, wallets } = options;
  const batchSize = options.batchSize ?? 50;
  const batchesPerBlock = options.batchesPerBlock ?? 4;
  const mined: MinedBlock[] = [];
  let latest = await session.latestTimestamp();
  const mine = async (hashes: readonly Hex[]) => {
    const block = await session.mine((latest = options.nextTimestamp(latest)));
    const failed = hashes.filter((hash) => block.receipts.get(hash)?.status !== 'success');
    if (failed.length > 0) {
      throw new Error(
        `crowd transaction ${failed[0]} in block ${block.number} did not succeed (${failed.length} failed, gas ${block.receipts.get(failed[0]!)?.gasUsed}): ${await revertReason(session, failed[0]!, block.number - 1n)}`,
      );
    }
    mined.push(block);
  };

  const funder = await session.deploy(options.artifacts.DevnetCrowdFunder!, [], deployer, (latest = options.nextTimestamp(latest)));
  const approvals: Hex[] = [];
  for (const token of tokens.tokens.filter((entry) => entry.kind !== 'spam' && entry.kind !== 'weth')) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [funder, maxUint256] });
    approvals.push(await session.send({ from: deployer, to: token.address, data, gas: 100_000n }));
  }
  await mine(approvals);

  const ticks = new Map<Address, number>();
  for (const pool of new Set(wallets.flatMap((wallet) => (wallet.position ? [wallet.position.pool] : [])))) {
    const [, tick] = await session.client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' });
    ticks.set(pool.address, tick);
  }
  const deadline = BigInt(latest + 86_400);
  const callsOf = (batch: readonly CrowdWallet[]): Call[] => {
    const call = (target: Address, callData: Hex, value = 0n): Call => ({ target, value, callData });
    const deposits = new Map<Address, bigint>();
    for (const { position } of batch) {
      if (!position) continue;
      deposits.set(position.pool.token0, (deposits.get(position.pool.token0) ?? 0n) + position.amount0);
      deposits.set(position.pool.token1, (deposits.get(position.pool.token1) ?? 0n) + position.amount1);
    }
    const calls: Call[] = [];
    for (const [token, amount] of deposits) {
      calls.push(
        token.toLowerCase() === tokens.weth.toLowerCase()
          ? call(token, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), amount)
          : call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [deployer, funder, amount] })),
        call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [uniswap.v3.positionManager, amount] })),
      );
    }
    for (const wallet of batch) {
      calls.push(call(wallet.address, '0x', wallet.eth));
      for (const { token, amount } of wallet.tokens) {
        calls.push(call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [deployer, wallet.address, amount] })));
      }
      if (wallet.position) {
        const { pool, amount0, amount1, ticksBelow, ticksAbove } = wallet.position;
        const { tickLower, tickUpper } = rangeAround(ticks.get(pool.address)!, pool.tickSpacing, ticksBelow, ticksAbove);
        const params = {
          token0: pool.token0,
          token1: pool.token1,
          fee: pool.fee,
          tickLower,
          tickUpper,
          amount0Desired: amount0,
          amount1Desired: amount1,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: wallet.address,
          deadline,
        };
        calls.push(call(uniswap.v3.positionManager, encodeFunctionData({ abi: positionManagerAbi, functionName: 'mint', args: [params] })));
      }
    }
    return calls;
  };

  let pending: Hex[] = [];
  for (let start = 0; start < wallets.length; start += batchSize) {
    const calls = callsOf(wallets.slice(start, start + batchSize));
    const value = calls.reduce((sum, entry) => sum + entry.value, 0n);
    const data = encodeFunctionData({ abi: crowdFunderAbi, functionName: 'run', args: [calls] });
    pending.push(await session.send({ from: deployer, to: funder, data, value, gas: 40_000_000n }));
    if (pending.length === batchesPerBlock) {
      await mine(pending);
      pending = [];
    }
  }
  if (pending.length > 0) await mine(pending);

  const senders = wallets.filter((wallet) => wallet.send);
  for (let start = 0; start < senders.length; start += batchSize * batchesPerBlock) {
    const hashes = await Promise.all(
      senders.slice(start, start + batchSize * batchesPerBlock).map(({ address, send }) => {
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [send!.to, send!.amount] });
        return session.send({ from: address, to: send!.token, data, gas: 120_000n });
      }),
    );
    await mine(hashes);
  }
  return mined;
}
