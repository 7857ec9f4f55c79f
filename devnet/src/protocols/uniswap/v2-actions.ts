import { encodeFunctionData, type Address, type Hash } from 'viem';
import type { ActionContext, ActionSpec } from '../../world/index.js';
import { erc20Abi, v2PairAbi, v2RouterAbi } from './abi.js';
import type { UniswapManifest, UniswapV2PairInfo } from './manifest.js';
import { v2BurnAmounts } from './v2-math.js';
import {
  actionGas,
  approveIfNeeded,
  deadline,
  isTradable,
  lessSlippage,
  minimumOut,
  pickSlippageBps,
  portion,
  readHoldings,
  tokenByAddress,
  type Holdings,
} from './wallet.js';

function findPair(manifest: UniswapManifest, a: Address, b: Address): UniswapV2PairInfo | undefined {
  return manifest.v2.pairs.find((pair) => (pair.token0 === a && pair.token1 === b) || (pair.token0 === b && pair.token1 === a));
}

/** The route a router user would take: the direct pair, else through WETH. */
function route(manifest: UniswapManifest, tokenIn: Address, tokenOut: Address): Address[] | undefined {
  if (findPair(manifest, tokenIn, tokenOut)) return [tokenIn, tokenOut];
  if (tokenIn !== manifest.weth && tokenOut !== manifest.weth && findPair(manifest, tokenIn, manifest.weth) && findPair(manifest, manifest.weth, tokenOut)) {
    return [tokenIn, manifest.weth, tokenOut];
  }
  return undefined;
}

function heldTokens(manifest: UniswapManifest, holdings: Holdings): Address[] {
  return manifest.tokens.filter((token) => isTradable(token, holdings.tokens.get(token.address) ?? 0n)).map((token) => token.address);
}

async function quote(context: ActionContext, manifest: UniswapManifest, amountIn: bigint, path: Address[]): Promise<bigint> {
  const amounts = await context.session.client.readContract({
    address: manifest.v2.router,
    abi: v2RouterAbi,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  });
  return amounts[amounts.length - 1]!;
}

/** Whole-unit ETH amounts below this are not worth a swap's gas. */
const minEthTrade = 5_000_000_000_000_000n;

export function v2Actions(manifest: UniswapManifest): ActionSpec[] {
  const router = manifest.v2.router;
  const send = (context: ActionContext, wallet: Address, data: `0x${string}`, gas: bigint, value?: bigint) =>
    context.session.send({ from: wallet, to: router, data, gas, ...(value ? { value } : {}) });

  const swap: ActionSpec = {
    kind: 'uniswap-v2:swap',
    weight: 6,
    async run(context, wallet) {
      const holdings = await readHoldings(context, manifest, wallet);
      const options = heldTokens(manifest, holdings).flatMap((tokenIn) =>
        manifest.tokens.flatMap((out) => {
          const path = out.address === tokenIn ? undefined : route(manifest, tokenIn, out.address);
          return path ? [path] : [];
        }),
      );
      if (options.length === 0) return undefined;
      const path = context.rng.pick(options);
      const amountIn = portion(holdings.tokens.get(path[0]!)!, context.rng);
      if (amountIn === 0n) return undefined;
      const { amountOutMin, fail } = minimumOut(await quote(context, manifest, amountIn, path), context.rng);
      const hashes = await approveIfNeeded(context, wallet, path[0]!, router, amountIn);
      const data = encodeFunctionData({
        abi: v2RouterAbi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, amountOutMin, path, wallet, deadline(context)],
      });
      hashes.push(await send(context, wallet, data, actionGas.v2Swap));
      return { label: 'uniswap-v2:swap', hashes, ...(fail ? { expectFailure: true } : {}) };
    },
  };

  const swapEthForTokens: ActionSpec = {
    kind: 'uniswap-v2:swap-eth-for-tokens',
    weight: 3,
    async run(context, wallet) {
      const holdings = await readHoldings(context, manifest, wallet);
      if (holdings.spendableEth < minEthTrade) return undefined;
      const outs = manifest.tokens.filter((token) => token.address !== manifest.weth && findPair(manifest, manifest.weth, token.address));
      if (outs.length === 0) return undefined;
      const path = [manifest.weth, context.rng.pick(outs).address];
      const value = portion(holdings.spendableEth, context.rng);
      const { amountOutMin, fail } = minimumOut(await quote(context, manifest, value, path), context.rng);
      const data = encodeFunctionData({ abi: v2RouterAbi, functionName: 'swapExactETHForTokens', args: [amountOutMin, path, wallet, deadline(context)] });
      const hash = await send(context, wallet, data, actionGas.v2Swap, value);
      return { label: 'uniswap-v2:swap-eth-for-tokens', hashes: [hash], ...(fail ? { expectFailure: true } : {}) };
    },
  };

  const swapTokensForEth: ActionSpec = {
    kind: 'uniswap-v2:swap-tokens-for-eth',
    weight: 3,
    async run(context, wallet) {
      const holdings = await readHoldings(context, manifest, wallet);
      const ins = heldTokens(manifest, holdings).filter((token) => token !== manifest.weth && findPair(manifest, token, manifest.weth));
      if (ins.length === 0) return undefined;
      const tokenIn = context.rng.pick(ins);
      const path = [tokenIn, manifest.weth];
      const amountIn = portion(holdings.tokens.get(tokenIn)!, context.rng);
      if (amountIn === 0n) return undefined;
      const { amountOutMin, fail } = minimumOut(await quote(context, manifest, amountIn, path), context.rng);
      const hashes = await approveIfNeeded(context, wallet, tokenIn, router, amountIn);
      const data = encodeFunctionData({
        abi: v2RouterAbi,
        functionName: 'swapExactTokensForETH',
        args: [amountIn, amountOutMin, path, wallet, deadline(context)],
      });
      hashes.push(await send(context, wallet, data, actionGas.v2Swap));
      return { label: 'uniswap-v2:swap-tokens-for-eth', hashes, ...(fail ? { expectFailure: true } : {}) };
    },
  };

  const addLiquidity: ActionSpec = {
    kind: 'uniswap-v2:add-liquidity',
    weight: 2,
    async run(context, wallet) {
      const holdings = await readHoldings(context, manifest, wallet);
      const canFund = (token: Address) =>
        isTradable(tokenByAddress(manifest, token), holdings.tokens.get(token) ?? 0n) || (token === manifest.weth && holdings.spendableEth >= minEthTrade);
      const candidates = manifest.v2.pairs.filter((pair) => canFund(pair.token0) && canFund(pair.token1));
      if (candidates.length === 0) return undefined;
      const pair = context.rng.pick(candidates);
      const [reserve0, reserve1] = await context.session.client.readContract({ address: pair.address, abi: v2PairAbi, functionName: 'getReserves' });
      const wethHeld = holdings.tokens.get(manifest.weth) ?? 0n;
      const ethSide = pair.token0 === manifest.weth ? 0 : pair.token1 === manifest.weth ? 1 : undefined;
      // Paying the WETH side in ether is what the router's ETH variant is for; wallets holding
      // little WETH always take it, others half the time.
      const useEth =
        ethSide !== undefined &&
        holdings.spendableEth >= minEthTrade &&
        (!isTradable(tokenByAddress(manifest, manifest.weth), wethHeld) || context.rng.chance(0.5));
      const available = (side: 0 | 1) => {
        const token = side === 0 ? pair.token0 : pair.token1;
        return useEth && ethSide === side ? holdings.spendableEth : (holdings.tokens.get(token) ?? 0n);
      };
      // The router keeps the pool's ratio; pick one side's amount and match the other to the reserves.
      let amount0 = portion(available(0), context.rng);
      let amount1 = (amount0 * reserve1) / reserve0;
      if (amount1 > available(1)) {
        amount1 = available(1);
        amount0 = (amount1 * reserve0) / reserve1;
      }
      if (amount0 === 0n || amount1 === 0n) return undefined;
      const slippage = pickSlippageBps(context.rng);
      const hashes: Hash[] = [];
      if (useEth) {
        const token = ethSide === 0 ? pair.token1 : pair.token0;
        const [amountToken, amountEth] = ethSide === 0 ? [amount1, amount0] : [amount0, amount1];
        hashes.push(...(await approveIfNeeded(context, wallet, token, router, amountToken)));
        const data = encodeFunctionData({
          abi: v2RouterAbi,
          functionName: 'addLiquidityETH',
          args: [token, amountToken, lessSlippage(amountToken, slippage), lessSlippage(amountEth, slippage), wallet, deadline(context)],
        });
        hashes.push(await send(context, wallet, data, actionGas.v2Liquidity, amountEth));
        return { label: 'uniswap-v2:add-liquidity-eth', hashes };
      }
      hashes.push(...(await approveIfNeeded(context, wallet, pair.token0, router, amount0)));
      hashes.push(...(await approveIfNeeded(context, wallet, pair.token1, router, amount1)));
      const data = encodeFunctionData({
        abi: v2RouterAbi,
        functionName: 'addLiquidity',
        args: [pair.token0, pair.token1, amount0, amount1, lessSlippage(amount0, slippage), lessSlippage(amount1, slippage), wallet, deadline(context)],
      });
      hashes.push(await send(context, wallet, data, actionGas.v2Liquidity));
      return { label: 'uniswap-v2:add-liquidity', hashes };
    },
  };

  const removeLiquidity: ActionSpec = {
    kind: 'uniswap-v2:remove-liquidity',
    weight: 1.5,
    async run(context, wallet) {
      const client = context.session.client;
      const balances = await Promise.all(
        manifest.v2.pairs.map((pair) => client.readContract({ address: pair.address, abi: v2PairAbi, functionName: 'balanceOf', args: [wallet] })),
      );
      const held = manifest.v2.pairs.map((pair, index) => ({ pair, balance: balances[index]! })).filter((entry) => entry.balance > 0n);
      if (held.length === 0) return undefined;
      const { pair, balance } = context.rng.pick(held);
      // Interfaces offer 25/50/75/100% presets; some people drag the slider instead.
      const percent = context.rng.chance(0.7) ? context.rng.pick([25n, 50n, 75n, 100n]) : BigInt(context.rng.int(5, 95));
      const liquidity = (balance * percent) / 100n;
      if (liquidity === 0n) return undefined;
      const [totalSupply, balance0, balance1] = await Promise.all([
        client.readContract({ address: pair.address, abi: v2PairAbi, functionName: 'totalSupply' }),
        client.readContract({ address: pair.token0, abi: erc20Abi, functionName: 'balanceOf', args: [pair.address] }),
        client.readContract({ address: pair.token1, abi: erc20Abi, functionName: 'balanceOf', args: [pair.address] }),
      ]);
      const expected = v2BurnAmounts({ liquidity, totalSupply, balance0, balance1, feeLiquidity: 0n });
      const slippage = pickSlippageBps(context.rng);
      const hashes = await approveIfNeeded(context, wallet, pair.address, router, liquidity);
      const ethSide = pair.token0 === manifest.weth ? 0 : pair.token1 === manifest.weth ? 1 : undefined;
      if (ethSide !== undefined && context.rng.chance(0.5)) {
        const token = ethSide === 0 ? pair.token1 : pair.token0;
        const [amountToken, amountEth] = ethSide === 0 ? [expected.amount1, expected.amount0] : [expected.amount0, expected.amount1];
        const data = encodeFunctionData({
          abi: v2RouterAbi,
          functionName: 'removeLiquidityETH',
          args: [token, liquidity, lessSlippage(amountToken, slippage), lessSlippage(amountEth, slippage), wallet, deadline(context)],
        });
        hashes.push(await send(context, wallet, data, actionGas.v2Liquidity));
        return { label: 'uniswap-v2:remove-liquidity-eth', hashes };
      }
      const data = encodeFunctionData({
        abi: v2RouterAbi,
        functionName: 'removeLiquidity',
        args: [
          pair.token0,
          pair.token1,
          liquidity,
          lessSlippage(expected.amount0, slippage),
          lessSlippage(expected.amount1, slippage),
          wallet,
          deadline(context),
        ],
      });
      hashes.push(await send(context, wallet, data, actionGas.v2Liquidity));
      return { label: 'uniswap-v2:remove-liquidity', hashes };
    },
  };

  return [swap, swapEthForTokens, swapTokensForEth, addLiquidity, removeLiquidity];
}
