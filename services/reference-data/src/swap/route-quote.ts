import type { PublicClient } from 'viem';
import { quoterV2Abi, v2RouterAbi } from './swap-abi.js';
import { encodeV3Path, type SwapRoute } from './swap-route.js';

export interface RouteQuote {
  amountOut: bigint;
  /** Gas of the swap itself as the quoter measured it (V3); undefined for V2, whose router reports none. */
  swapGas: bigint | undefined;
}

type Client = Pick<PublicClient, 'readContract' | 'simulateContract'>;

/**
 * What `amountIn` of the route's first token buys at `blockNumber`: V2 Router02's
 * `getAmountsOut`, V3 QuoterV2's `quoteExactInputSingle` (one pool) or `quoteExactInput`, both by
 * eth_call. Undefined when the call reverts (a pool without the liquidity to fill it).
 */
export async function quoteRoute(client: Client, route: SwapRoute, amountIn: bigint, blockNumber: bigint): Promise<RouteQuote | undefined> {
  try {
    if (route.kind === 'v2') {
      const amounts = await client.readContract({
        address: route.router,
        abi: v2RouterAbi,
        functionName: 'getAmountsOut',
        args: [amountIn, route.tokens],
        blockNumber,
      });
      const amountOut = amounts[amounts.length - 1]!;
      return amountOut > 0n ? { amountOut, swapGas: undefined } : undefined;
    }
    if (route.pools.length === 1) {
      const { result } = await client.simulateContract({
        address: route.quoter,
        abi: quoterV2Abi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn: route.tokens[0]!, tokenOut: route.tokens[1]!, amountIn, fee: route.fees[0]!, sqrtPriceLimitX96: 0n }],
        blockNumber,
      });
      return result[0] > 0n ? { amountOut: result[0], swapGas: result[3] } : undefined;
    }
    const { result } = await client.simulateContract({
      address: route.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInput',
      args: [encodeV3Path(route.tokens, route.fees), amountIn],
      blockNumber,
    });
    return result[0] > 0n ? { amountOut: result[0], swapGas: result[3] } : undefined;
  } catch (error) {
    if (isRevert(error)) return undefined;
    throw error;
  }
}

/** A contract that refused the call, as opposed to a node that could not be reached. */
export function isRevert(error: unknown): boolean {
  let current: unknown = error;
  while (current instanceof Error) {
    const name = current.name;
    if (name === 'ContractFunctionRevertedError' || name === 'ExecutionRevertedError' || name === 'ContractFunctionZeroDataError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
