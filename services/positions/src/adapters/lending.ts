import { parseAbi, type Address } from 'viem';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ProtocolPosition } from './protocol-position.js';

const lendingAbi = parseAbi([
  'function marketCount() view returns (uint256)',
  'function marketTokens(uint256 index) view returns (address)',
  'function supplyBalanceOf(address token, address account) view returns (uint256)',
  'function borrowBalanceOf(address token, address account) view returns (uint256)',
]);

const lower = (address: string) => address.toLowerCase() as Address;

/**
 * Lending pools of the devnet kind (Compound-style markets in one contract): per market, what the
 * wallet could withdraw (`deposit`) and what it owes (`loan`), interest accrued to the block as
 * the pool's own supplyBalanceOf and borrowBalanceOf compute it.
 */
export function createLendingAdapter(pools: readonly string[]): ProtocolAdapter {
  const addresses = pools.map(lower);
  return {
    async read({ reader, wallet, blockNumber }) {
      const read = { blockNumber, allowFailure: false } as const;
      const counts = await reader.multicall({
        ...read,
        contracts: addresses.map((pool) => ({ address: pool, abi: lendingAbi, functionName: 'marketCount' }) as const),
      });
      const markets = addresses.flatMap((pool, index) => Array.from({ length: Number(counts[index]!) }, (_, market) => ({ pool, market: BigInt(market) })));
      const tokens = await reader.multicall({
        ...read,
        contracts: markets.map(({ pool, market }) => ({ address: pool, abi: lendingAbi, functionName: 'marketTokens', args: [market] }) as const),
      });
      const balances = await reader.multicall({
        ...read,
        contracts: markets.flatMap(({ pool }, index) => [
          { address: pool, abi: lendingAbi, functionName: 'supplyBalanceOf', args: [tokens[index]!, wallet] } as const,
          { address: pool, abi: lendingAbi, functionName: 'borrowBalanceOf', args: [tokens[index]!, wallet] } as const,
        ]),
      });
      return markets.flatMap(({ pool }, index): ProtocolPosition[] => {
        const token = lower(tokens[index]!);
        const supplied = balances[index * 2]!;
        const debt = balances[index * 2 + 1]!;
        const common = { protocol: 'lending', token, key: pool, contract: pool, poolAddress: '', group: '', parentType: '' } as const;
        return [
          ...(supplied > 0n ? [{ ...common, type: 'deposit', amount: supplied } as const] : []),
          ...(debt > 0n ? [{ ...common, type: 'loan', amount: debt } as const] : []),
        ];
      });
    },
  };
}
