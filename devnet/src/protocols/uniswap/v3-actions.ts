import { encodeFunctionData, zeroAddress, type Address, type Hash, type Hex } from 'viem';
import type { ActionContext, ActionSpec, Rng } from '../../world/index.js';
import { readUniswapV3Positions, type UniswapV3Position } from '../../truth/uniswap.js';
import { positionManagerAbi, quoterAbi, swapRouterAbi, v3PoolAbi } from './abi.js';
import type { UniswapManifest, UniswapV3PoolInfo } from './manifest.js';
import { alignTick, usableTickRange } from '@wallet-api/core/protocol-math';
import { actionGas, approveIfNeeded, deadline, isTradable, minimumOut, portion, readHoldings, tokenByAddress, type Holdings } from './wallet.js';

const maxUint128 = (1n << 128n) - 1n;

/**
 * Ranges placed wholly above or below the price start at least this many ticks (about 1%) away,
 * so that the same block's other trades cannot move the price into them: the single token such a
 * mint provides would then not be enough and the mint would revert.
 */
const oneSidedMinDistance = 100;

interface Funding {
  /** Base units of the token (or of ether standing in for WETH) the action may use. */
  amount: bigint;
  /** Paid in ether, wrapped by the periphery contract. */
  eth: boolean;
}

/**
 * How a wallet would pay `token`: ether for WETH when it holds little WETH or half the time
 * otherwise (both periphery contracts wrap msg.value), else its token balance.
 */
function fundingFor(manifest: UniswapManifest, holdings: Holdings, token: Address, rng: Rng): Funding | undefined {
  const held = holdings.tokens.get(token) ?? 0n;
  const tradable = isTradable(tokenByAddress(manifest, token), held);
  if (token === manifest.weth && isTradable(tokenByAddress(manifest, token), holdings.spendableEth) && (!tradable || rng.chance(0.5))) {
    return { amount: holdings.spendableEth, eth: true };
  }
  return tradable ? { amount: held, eth: false } : undefined;
}

async function currentTick(context: ActionContext, pool: Address): Promise<number> {
  const [, tick] = await context.session.client.readContract({ address: pool, abi: v3PoolAbi, functionName: 'slot0' });
  return tick;
}

async function walletPositions(context: ActionContext, manifest: UniswapManifest, wallet: Address): Promise<UniswapV3Position[]> {
  return readUniswapV3Positions(context.session.client, manifest, wallet, await context.session.client.getBlockNumber());
}

type RangeShape = 'wide' | 'narrow' | 'above' | 'below';

/**
 * The range from `ticksBelow` under the current tick to `ticksAbove` over it, aligned to the
 * spacing (the upper bound one spacing past the aligned tick, so the current tick is inside) and
 * kept inside the usable range.
 */
export function rangeAround(tick: number, spacing: number, ticksBelow: number, ticksAbove: number): { tickLower: number; tickUpper: number } {
  const { minUsable, maxUsable } = usableTickRange(spacing);
  const clamp = (value: number) => Math.min(maxUsable, Math.max(minUsable, value));
  return { tickLower: clamp(alignTick(tick - ticksBelow, spacing)), tickUpper: clamp(alignTick(tick + ticksAbove, spacing) + spacing) };
}

/**
 * A tick range of the given shape around the current tick, aligned to the spacing: wide ones
 * (roughly -10% to -60% / +10% to +150% in price), narrow ones of one to three spacings that
 * trades soon push out of range, and one-sided ones wholly above or below the price.
 */
function pickRange(shape: RangeShape, tick: number, spacing: number, rng: Rng): { tickLower: number; tickUpper: number } {
  const { minUsable, maxUsable } = usableTickRange(spacing);
  const base = alignTick(tick, spacing);
  const clamp = (value: number) => Math.min(maxUsable, Math.max(minUsable, value));
  switch (shape) {
    case 'wide': {
      const ticksBelow = rng.int(1_000, 9_000);
      return rangeAround(tick, spacing, ticksBelow, rng.int(1_000, 9_000));
    }
    case 'narrow':
      return { tickLower: clamp(base - spacing * rng.int(0, 1)), tickUpper: clamp(base + spacing * rng.int(1, 2)) };
    case 'above': {
      const tickLower = clamp(alignTick(tick + oneSidedMinDistance, spacing) + spacing * rng.int(1, 20));
      return { tickLower, tickUpper: clamp(tickLower + spacing * rng.int(1, 40)) };
    }
    case 'below': {
      const tickUpper = clamp(alignTick(tick - oneSidedMinDistance, spacing) - spacing * rng.int(0, 20));
      return { tickLower: clamp(tickUpper - spacing * rng.int(1, 40)), tickUpper };
    }
  }
}

export function v3Actions(manifest: UniswapManifest): ActionSpec[] {
  const positionManager = manifest.v3.positionManager;
  const livePools = manifest.v3.pools.filter((pool) => !pool.thin);
  const encodeCollect = (tokenId: bigint, recipient: Address) =>
    encodeFunctionData({ abi: positionManagerAbi, functionName: 'collect', args: [{ tokenId, recipient, amount0Max: maxUint128, amount1Max: maxUint128 }] });
  /** Sends one call as is, several through the position manager's multicall. */
  const sendToManager = (context: ActionContext, wallet: Address, calls: Hex[], value: bigint) =>
    context.session.send({
      from: wallet,
      to: positionManager,
      data: calls.length === 1 ? calls[0]! : encodeFunctionData({ abi: positionManagerAbi, functionName: 'multicall', args: [calls] }),
      gas: actionGas.v3,
      ...(value > 0n ? { value } : {}),
    });
  const poolOf = (position: UniswapV3Position) => manifest.v3.pools.find((pool) => pool.address === position.pool);

  const swap: ActionSpec = {
    kind: 'uniswap-v3:swap',
    weight: 8,
    async run(context, wallet) {
      const rng = context.rng;
      const holdings = await readHoldings(context, manifest, wallet);
      const options = livePools.flatMap((pool) =>
        [
          { pool, tokenIn: pool.token0, tokenOut: pool.token1 },
          { pool, tokenIn: pool.token1, tokenOut: pool.token0 },
        ].flatMap((option) => {
          const funding = fundingFor(manifest, holdings, option.tokenIn, rng);
          return funding ? [{ ...option, funding }] : [];
        }),
      );
      if (options.length === 0) return undefined;
      const { pool, tokenIn, tokenOut, funding } = rng.pick(options);
      const amountIn = portion(funding.amount, rng);
      if (amountIn === 0n) return undefined;
      const { result } = await context.session.client.simulateContract({
        address: manifest.v3.quoter,
        abi: quoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n }],
      });
      // A planned failure reverts with "Too little received".
      const { amountOutMin: amountOutMinimum, fail } = minimumOut(result[0], rng);
      const ethOut = tokenOut === manifest.weth && rng.chance(0.4);
      const hashes: Hash[] = funding.eth ? [] : await approveIfNeeded(context, wallet, tokenIn, manifest.v3.swapRouter, amountIn);
      // Ether out: the router receives the WETH and unwraps it to the wallet in the same call.
      const swapCall = encodeFunctionData({
        abi: swapRouterAbi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn,
            tokenOut,
            fee: pool.fee,
            recipient: ethOut ? manifest.v3.swapRouter : wallet,
            deadline: deadline(context),
            amountIn,
            amountOutMinimum,
            sqrtPriceLimitX96: 0n,
          },
        ],
      });
      const data = ethOut
        ? encodeFunctionData({
            abi: swapRouterAbi,
            functionName: 'multicall',
            args: [[swapCall, encodeFunctionData({ abi: swapRouterAbi, functionName: 'unwrapWETH9', args: [amountOutMinimum, wallet] })]],
          })
        : swapCall;
      hashes.push(
        await context.session.send({ from: wallet, to: manifest.v3.swapRouter, data, gas: actionGas.v3, ...(funding.eth ? { value: amountIn } : {}) }),
      );
      const label = funding.eth ? 'uniswap-v3:swap-eth-in' : ethOut ? 'uniswap-v3:swap-eth-out' : 'uniswap-v3:swap';
      return { label, hashes, ...(fail ? { expectFailure: true } : {}) };
    },
  };

  /**
   * Approves what a position needs and prepares the ether: WETH paid in ether goes as msg.value,
   * with refundETH after it since the manager takes only what the liquidity needs.
   */
  async function prepareDeposit(
    context: ActionContext,
    wallet: Address,
    pool: UniswapV3PoolInfo,
    amounts: [bigint, bigint],
    funding: [Funding | undefined, Funding | undefined],
  ) {
    const hashes: Hash[] = [];
    let value = 0n;
    for (const [index, token] of [pool.token0, pool.token1].entries()) {
      if (amounts[index] === 0n) continue;
      if (funding[index]?.eth) value += amounts[index]!;
      else hashes.push(...(await approveIfNeeded(context, wallet, token, positionManager, amounts[index]!)));
    }
    const tail = value > 0n ? [encodeFunctionData({ abi: positionManagerAbi, functionName: 'refundETH' })] : [];
    return { hashes, value, tail };
  }

  const mint: ActionSpec = {
    kind: 'uniswap-v3:mint',
    weight: 2,
    async run(context, wallet) {
      const rng = context.rng;
      const holdings = await readHoldings(context, manifest, wallet);
      const options = livePools.flatMap((pool) => {
        const funding: [Funding | undefined, Funding | undefined] = [
          fundingFor(manifest, holdings, pool.token0, rng),
          fundingFor(manifest, holdings, pool.token1, rng),
        ];
        const shapes: RangeShape[] = [];
        if (funding[0] && funding[1]) shapes.push('wide', 'wide', 'narrow', 'narrow', 'above', 'below');
        else if (funding[0]) shapes.push('above');
        else if (funding[1]) shapes.push('below');
        return shapes.map((shape) => ({ pool, shape, funding }));
      });
      if (options.length === 0) return undefined;
      const { pool, shape, funding } = rng.pick(options);
      const tick = await currentTick(context, pool.address);
      const { tickLower, tickUpper } = pickRange(shape, tick, pool.tickSpacing, rng);
      // A range above the price takes only token0, one below only token1.
      const amounts: [bigint, bigint] = [shape !== 'below' ? portion(funding[0]!.amount, rng) : 0n, shape !== 'above' ? portion(funding[1]!.amount, rng) : 0n];
      if (amounts[0] === 0n && amounts[1] === 0n) return undefined;
      const { hashes, value, tail } = await prepareDeposit(context, wallet, pool, amounts, funding);
      // Minimums stay 0: the manager's split between the tokens depends on the price when the
      // block runs, which the same block's trades move, so the usual 0.5% bounds would make narrow mints fail.
      const mintCall = encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0: pool.token0,
            token1: pool.token1,
            fee: pool.fee,
            tickLower,
            tickUpper,
            amount0Desired: amounts[0],
            amount1Desired: amounts[1],
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: wallet,
            deadline: deadline(context),
          },
        ],
      });
      hashes.push(await sendToManager(context, wallet, [mintCall, ...tail], value));
      return { label: value > 0n ? 'uniswap-v3:mint-eth' : 'uniswap-v3:mint', hashes };
    },
  };

  const increaseLiquidity: ActionSpec = {
    kind: 'uniswap-v3:increase-liquidity',
    weight: 1,
    async run(context, wallet) {
      const rng = context.rng;
      const [positions, holdings] = await Promise.all([walletPositions(context, manifest, wallet), readHoldings(context, manifest, wallet)]);
      const options = positions.flatMap((position) => {
        const pool = poolOf(position);
        if (!pool || pool.thin) return [];
        // Mirror of the pool's own rule: below the range only token0 is taken, above only token1.
        const needs: [boolean, boolean] = [position.tick < position.tickUpper, position.tick >= position.tickLower];
        const funding: [Funding | undefined, Funding | undefined] = [
          needs[0] ? fundingFor(manifest, holdings, pool.token0, rng) : undefined,
          needs[1] ? fundingFor(manifest, holdings, pool.token1, rng) : undefined,
        ];
        return needs.every((needed, index) => !needed || funding[index]) ? [{ position, pool, funding }] : [];
      });
      if (options.length === 0) return undefined;
      const { position, pool, funding } = rng.pick(options);
      const amounts: [bigint, bigint] = [funding[0] ? portion(funding[0].amount, rng) : 0n, funding[1] ? portion(funding[1].amount, rng) : 0n];
      if (amounts[0] === 0n && amounts[1] === 0n) return undefined;
      const { hashes, value, tail } = await prepareDeposit(context, wallet, pool, amounts, funding);
      // Zero minimums for the same reason as in mint.
      const call = encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'increaseLiquidity',
        args: [
          { tokenId: position.tokenId, amount0Desired: amounts[0], amount1Desired: amounts[1], amount0Min: 0n, amount1Min: 0n, deadline: deadline(context) },
        ],
      });
      hashes.push(await sendToManager(context, wallet, [call, ...tail], value));
      return { label: 'uniswap-v3:increase-liquidity', hashes };
    },
  };

  const decreaseLiquidity: ActionSpec = {
    kind: 'uniswap-v3:decrease-liquidity',
    weight: 1.5,
    async run(context, wallet) {
      const rng = context.rng;
      const live = (await walletPositions(context, manifest, wallet)).filter((position) => position.liquidity > 0n);
      if (live.length === 0) return undefined;
      const position = rng.pick(live);
      const percent = rng.chance(0.7) ? rng.pick([25n, 50n, 75n, 100n]) : BigInt(rng.int(5, 95));
      const liquidity = (position.liquidity * percent) / 100n;
      if (liquidity === 0n) return undefined;
      // Zero minimums: which tokens come out depends on the price when the block runs.
      const calls = [
        encodeFunctionData({
          abi: positionManagerAbi,
          functionName: 'decreaseLiquidity',
          args: [{ tokenId: position.tokenId, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: deadline(context) }],
        }),
      ];
      // Interfaces withdraw and collect together; a decrease alone leaves the tokens owed in the position.
      const collect = rng.chance(0.6);
      if (collect) calls.push(encodeCollect(position.tokenId, wallet));
      const hash = await sendToManager(context, wallet, calls, 0n);
      return { label: collect ? 'uniswap-v3:decrease-liquidity-and-collect' : 'uniswap-v3:decrease-liquidity', hashes: [hash] };
    },
  };

  const collectFees: ActionSpec = {
    kind: 'uniswap-v3:collect',
    weight: 3,
    async run(context, wallet) {
      const rng = context.rng;
      const owed = (await walletPositions(context, manifest, wallet)).filter((position) => position.uncollected0 > 0n || position.uncollected1 > 0n);
      if (owed.length === 0) return undefined;
      const position = rng.pick(owed);
      const other = position.token0 === manifest.weth ? position.token1 : position.token1 === manifest.weth ? position.token0 : undefined;
      if (other && rng.chance(0.4)) {
        // Collecting as ether: the manager keeps the tokens (recipient 0 means itself), unwraps
        // the WETH to the wallet and sweeps the other token to it.
        const calls = [
          encodeCollect(position.tokenId, zeroAddress),
          encodeFunctionData({ abi: positionManagerAbi, functionName: 'unwrapWETH9', args: [0n, wallet] }),
          encodeFunctionData({ abi: positionManagerAbi, functionName: 'sweepToken', args: [other, 0n, wallet] }),
        ];
        return { label: 'uniswap-v3:collect-eth', hashes: [await sendToManager(context, wallet, calls, 0n)] };
      }
      return { label: 'uniswap-v3:collect', hashes: [await sendToManager(context, wallet, [encodeCollect(position.tokenId, wallet)], 0n)] };
    },
  };

  const burn: ActionSpec = {
    kind: 'uniswap-v3:burn',
    weight: 0.7,
    async run(context, wallet) {
      const rng = context.rng;
      const positions = await walletPositions(context, manifest, wallet);
      if (positions.length === 0) return undefined;
      const emptied = positions.filter((position) => position.liquidity === 0n);
      // Emptied positions are burnt (after collecting what they still owe); without one, a live
      // position is closed outright: withdraw everything, collect, burn, in one multicall.
      const position = rng.pick(emptied.length > 0 ? emptied : positions);
      const calls: Hex[] = [];
      if (position.liquidity > 0n) {
        calls.push(
          encodeFunctionData({
            abi: positionManagerAbi,
            functionName: 'decreaseLiquidity',
            args: [{ tokenId: position.tokenId, liquidity: position.liquidity, amount0Min: 0n, amount1Min: 0n, deadline: deadline(context) }],
          }),
        );
      }
      if (position.liquidity > 0n || position.tokensOwed0 > 0n || position.tokensOwed1 > 0n) calls.push(encodeCollect(position.tokenId, wallet));
      calls.push(encodeFunctionData({ abi: positionManagerAbi, functionName: 'burn', args: [position.tokenId] }));
      const hash = await sendToManager(context, wallet, calls, 0n);
      return { label: position.liquidity > 0n ? 'uniswap-v3:close-position' : 'uniswap-v3:burn', hashes: [hash] };
    },
  };

  return [swap, mint, increaseLiquidity, decreaseLiquidity, collectFees, burn];
}
