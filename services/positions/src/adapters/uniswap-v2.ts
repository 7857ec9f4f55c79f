import { protocolFeeLiquidity, v2BurnAmounts } from '@wallet-api/core/protocol-math';
import { LRUCache } from 'lru-cache';
import { getAddress, parseAbi, zeroAddress, type Address } from 'viem';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ProtocolPosition } from './protocol-position.js';

const pairAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function kLast() view returns (uint256)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function factory() view returns (address)',
]);

const factoryAbi = parseAbi(['function feeTo() view returns (address)', 'function getPair(address tokenA, address tokenB) view returns (address)']);

const erc20Abi = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

const lower = (address: string) => address.toLowerCase() as Address;

/**
 * Uniswap V2 liquidity: for each pair whose LP token the wallet holds, what burning the whole
 * balance pays (UniswapV2Pair.burn after the protocol-fee mint), one deposit per pool token, with
 * the LP token as receipt. Pairs come from the registry, plus held tokens the factory confirms as
 * its own pairs (factory() names it and getPair gives the token back).
 */
export function createUniswapV2Adapter(deployment: { factory: string; pairs: readonly string[] }): ProtocolAdapter {
  const factory = lower(deployment.factory);
  const listed = new Set(deployment.pairs.map(lower));
  // Whether a held token is one of the factory's pairs never changes: asked once per token, not
  // at every read of every wallet holding it (a wallet of 200 tokens meant 600 probe calls a read).
  const isPair = new LRUCache<Address, boolean>({ max: 100_000 });

  return {
    async read({ reader, wallet, blockNumber, heldTokens }) {
      const read = { blockNumber, allowFailure: false } as const;
      const unlisted = [...new Set(heldTokens.map(lower))].filter((token) => !listed.has(token) && isPair.get(token) === undefined);
      // factory() first: most held tokens are not pairs and fail it, so token0 and token1 are asked
      // only of the tokens that name this factory.
      const probes = await reader.multicall({
        blockNumber,
        allowFailure: true,
        contracts: unlisted.map((token) => ({ address: token, abi: pairAbi, functionName: 'factory' }) as const),
      });
      const claimants = unlisted.filter((_token, index) => {
        const probe = probes[index];
        return probe?.status === 'success' && lower(probe.result as string) === factory;
      });
      const sides = await reader.multicall({
        blockNumber,
        allowFailure: true,
        contracts: claimants.flatMap((token) => [
          { address: token, abi: pairAbi, functionName: 'token0' } as const,
          { address: token, abi: pairAbi, functionName: 'token1' } as const,
        ]),
      });
      const claimed = claimants.flatMap((token, index) => {
        const [token0, token1] = sides.slice(index * 2, index * 2 + 2);
        if (token0?.status !== 'success' || token1?.status !== 'success') return [];
        return [{ token, token0: token0.result as Address, token1: token1.result as Address }];
      });
      const registered = await reader.multicall({
        ...read,
        contracts: claimed.map(({ token0, token1 }) => ({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [token0, token1] }) as const),
      });
      const discovered = new Set(claimed.filter((candidate, index) => lower(registered[index]!) === candidate.token).map((candidate) => candidate.token));
      for (const token of unlisted) isPair.set(token, discovered.has(token));

      const pairs = [...listed, ...new Set(heldTokens.map(lower).filter((token) => !listed.has(token) && isPair.get(token) === true))];
      const balances = await reader.multicall({
        ...read,
        contracts: pairs.map((pair) => ({ address: pair, abi: pairAbi, functionName: 'balanceOf', args: [wallet] }) as const),
      });
      const held = pairs.map((pair, index) => ({ pair, balance: balances[index]! })).filter((entry) => entry.balance > 0n);
      if (held.length === 0) return [];

      const [[feeTo], states] = await Promise.all([
        reader.multicall({ ...read, contracts: [{ address: factory, abi: factoryAbi, functionName: 'feeTo' }] }),
        reader.multicall({
          ...read,
          contracts: held.flatMap(({ pair }) => [
            { address: pair, abi: pairAbi, functionName: 'totalSupply' } as const,
            { address: pair, abi: pairAbi, functionName: 'getReserves' } as const,
            { address: pair, abi: pairAbi, functionName: 'kLast' } as const,
            { address: pair, abi: pairAbi, functionName: 'token0' } as const,
            { address: pair, abi: pairAbi, functionName: 'token1' } as const,
          ]),
        }),
      ]);
      const pairStates = held.map((entry, index) => {
        const [totalSupply, reserves, kLast, token0, token1] = states.slice(index * 5, index * 5 + 5);
        const [reserve0, reserve1] = reserves as readonly [bigint, bigint, number];
        return {
          ...entry,
          totalSupply: totalSupply as bigint,
          reserve0,
          reserve1,
          kLast: kLast as bigint,
          token0: lower(token0 as string),
          token1: lower(token1 as string),
        };
      });
      // burn pays pro rata of the pair's token balances, which may exceed the reserves until the next sync.
      const pairBalances = await reader.multicall({
        ...read,
        contracts: pairStates.flatMap(({ pair, token0, token1 }) => [
          { address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [pair] } as const,
          { address: token1, abi: erc20Abi, functionName: 'balanceOf', args: [pair] } as const,
        ]),
      });
      const feeOn = getAddress(feeTo) !== zeroAddress;

      return pairStates.flatMap((state, index): ProtocolPosition[] => {
        const feeLiquidity = protocolFeeLiquidity(feeOn, state.kLast, state.reserve0, state.reserve1, state.totalSupply);
        const { amount0, amount1 } = v2BurnAmounts({
          liquidity: state.balance,
          totalSupply: state.totalSupply,
          balance0: pairBalances[index * 2]!,
          balance1: pairBalances[index * 2 + 1]!,
          feeLiquidity,
        });
        const common = {
          protocol: 'uniswap-v2',
          type: 'deposit',
          key: state.pair,
          contract: factory,
          poolAddress: state.pair,
          group: state.pair,
          parentType: '',
          receipt: { kind: 'fungible', token: state.pair, amount: state.balance },
        } as const;
        return [
          { ...common, token: state.token0, amount: amount0 },
          { ...common, token: state.token1, amount: amount1 },
        ];
      });
    },
  };
}
