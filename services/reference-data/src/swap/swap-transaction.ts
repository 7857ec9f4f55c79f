import { encodeFunctionData, type Address, type Hex } from 'viem';
import { swapRouterAbi, v2RouterAbi } from './swap-abi.js';
import { encodeV3Path, type SwapRoute } from './swap-route.js';

export interface SwapCall {
  /** The router the transaction is sent to. */
  to: Address;
  data: Hex;
  /** Wei sent with it: the amount in when the input is the native asset. */
  value: bigint;
}

export interface SwapCallInput {
  route: SwapRoute;
  amountIn: bigint;
  minimumOut: bigint;
  /** Whether the input (output) is the chain's native asset, swapped as its wrapped token. */
  nativeIn: boolean;
  nativeOut: boolean;
  recipient: Address;
  /** Unix seconds after which the router refuses the swap. */
  deadline: bigint;
}

/**
 * The router call that performs `route`: V2 through Router02's ETH-aware functions; V3 through the
 * SwapRouter's `exactInput`, with the native asset wrapped by the router from `value` (and what
 * is left refunded) or the wrapped output unwrapped to the recipient in the same multicall.
 */
export function buildSwapCall(input: SwapCallInput): SwapCall {
  const { route, amountIn, minimumOut, recipient, deadline } = input;
  if (route.kind === 'v2') {
    const path = route.tokens;
    if (input.nativeIn) {
      return {
        to: route.router,
        value: amountIn,
        data: encodeFunctionData({ abi: v2RouterAbi, functionName: 'swapExactETHForTokens', args: [minimumOut, path, recipient, deadline] }),
      };
    }
    const functionName = input.nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens';
    return {
      to: route.router,
      value: 0n,
      data: encodeFunctionData({ abi: v2RouterAbi, functionName, args: [amountIn, minimumOut, path, recipient, deadline] }),
    };
  }
  const path = encodeV3Path(route.tokens, route.fees);
  // The wrapped output stays with the router until unwrapWETH9 sends it on as the native asset.
  const swapRecipient = input.nativeOut ? route.swapRouter : recipient;
  const exactInput = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'exactInput',
    args: [{ path, recipient: swapRecipient, deadline, amountIn, amountOutMinimum: minimumOut }],
  });
  const calls: Hex[] = [exactInput];
  if (input.nativeIn) calls.push(encodeFunctionData({ abi: swapRouterAbi, functionName: 'refundETH' }));
  if (input.nativeOut) calls.push(encodeFunctionData({ abi: swapRouterAbi, functionName: 'unwrapWETH9', args: [minimumOut, recipient] }));
  const data = calls.length === 1 ? exactInput : encodeFunctionData({ abi: swapRouterAbi, functionName: 'multicall', args: [calls] });
  return { to: route.swapRouter, value: input.nativeIn ? amountIn : 0n, data };
}
