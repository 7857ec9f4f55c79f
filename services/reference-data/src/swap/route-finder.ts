import { getAddress, zeroAddress, type Address, type PublicClient } from 'viem';
import type { ChainProtocolsConfig } from '../registry/registry-config.js';
import { factoryAbi } from './swap-abi.js';
import type { SwapRoute } from './swap-route.js';

/** The V3 fee tiers the factory enables by default (pips). */
export const v3FeeTiers = [100, 500, 3_000, 10_000] as const;

type Client = Pick<PublicClient, 'readContract'>;

/**
 * The routes from `tokenIn` to `tokenOut` through the registry's factories that have a router
 * (V2) or a SwapRouter and QuoterV2 (V3): the direct pool, and one hop through each of `hubs`.
 * A pool is trusted when its registry factory names it for its tokens (and fee), as pool-trust
 * decides for prices. Read at `blockNumber`.
 */
export async function findRoutes(options: {
  client: Client;
  protocols: ChainProtocolsConfig;
  tokenIn: Address;
  tokenOut: Address;
  hubs: readonly Address[];
  blockNumber: bigint;
}): Promise<SwapRoute[]> {
  const { client, protocols, tokenIn, tokenOut, blockNumber } = options;
  const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();
  const hubs = options.hubs.filter((hub) => !same(hub, tokenIn) && !same(hub, tokenOut));
  const paths: Address[][] = [[tokenIn, tokenOut], ...hubs.map((hub) => [tokenIn, hub, tokenOut])];
  const pools = new Map<string, Promise<Address | undefined>>();
  // One read per factory, pair and fee, however many paths share it.
  const pool = (factory: Address, a: Address, b: Address, fee?: number): Promise<Address | undefined> => {
    const [x, y] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
    const key = `${factory}:${x}:${y}:${fee ?? ''}`.toLowerCase();
    let read = pools.get(key);
    if (!read) {
      read = (
        fee === undefined
          ? client.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [x, y], blockNumber })
          : client.readContract({ address: factory, abi: factoryAbi, functionName: 'getPool', args: [x, y, fee], blockNumber })
      ).then((address) => (address === zeroAddress ? undefined : getAddress(address)));
      pools.set(key, read);
    }
    return read;
  };

  const routes: Promise<SwapRoute[]>[] = [];
  for (const entry of protocols.uniswap_v2) {
    if (!entry.router) continue;
    const factory = getAddress(entry.factory);
    const router = getAddress(entry.router);
    for (const tokens of paths) {
      routes.push(
        Promise.all(tokens.slice(1).map((token, index) => pool(factory, tokens[index]!, token))).then((found) =>
          found.every((address) => address !== undefined) ? [{ kind: 'v2', router, tokens, pools: found as Address[] }] : [],
        ),
      );
    }
  }
  for (const entry of protocols.uniswap_v3) {
    if (!entry.swap_router || !entry.quoter) continue;
    const factory = getAddress(entry.factory);
    const swapRouter = getAddress(entry.swap_router);
    const quoter = getAddress(entry.quoter);
    for (const tokens of paths) {
      // Every combination of fee tiers along the path: each is its own route.
      const feeLists = tokens.slice(1).reduce<number[][]>((lists) => lists.flatMap((list) => v3FeeTiers.map((fee) => [...list, fee])), [[]]);
      for (const fees of feeLists) {
        routes.push(
          Promise.all(fees.map((fee, index) => pool(factory, tokens[index]!, tokens[index + 1]!, fee))).then((found) =>
            found.every((address) => address !== undefined) ? [{ kind: 'v3', swapRouter, quoter, tokens, fees, pools: found as Address[] }] : [],
          ),
        );
      }
    }
  }
  return (await Promise.all(routes)).flat();
}
