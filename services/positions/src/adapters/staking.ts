import { parseAbi, type Address } from 'viem';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ProtocolPosition } from './protocol-position.js';

const stakingAbi = parseAbi([
  'struct Lock { uint128 amount; uint64 unlockTime; uint32 boostBps; bool withdrawn; }',
  'function stakingToken() view returns (address)',
  'function rewardToken() view returns (address)',
  'function flexibleBalanceOf(address account) view returns (uint256)',
  'function locksOf(address account) view returns (Lock[])',
  'function earned(address account) view returns (uint256)',
]);

const lower = (address: string) => address.toLowerCase() as Address;

/**
 * Staking contracts of the devnet kind (Synthetix rewards over stake weights): the flexible stake
 * (`staked`), each lock not yet withdrawn (`locked`, keyed by lock id) and the rewards earned()
 * reports claimable at the block (`reward`).
 */
export function createStakingAdapter(contracts: readonly string[]): ProtocolAdapter {
  const addresses = contracts.map(lower);
  return {
    async read({ reader, wallet, blockNumber }) {
      const results = await reader.multicall({
        blockNumber,
        allowFailure: false,
        contracts: addresses.flatMap((staking) => [
          { address: staking, abi: stakingAbi, functionName: 'stakingToken' } as const,
          { address: staking, abi: stakingAbi, functionName: 'rewardToken' } as const,
          { address: staking, abi: stakingAbi, functionName: 'flexibleBalanceOf', args: [wallet] } as const,
          { address: staking, abi: stakingAbi, functionName: 'locksOf', args: [wallet] } as const,
          { address: staking, abi: stakingAbi, functionName: 'earned', args: [wallet] } as const,
        ]),
      });
      return addresses.flatMap((staking, index): ProtocolPosition[] => {
        const [stakingToken, rewardToken, flexible, locks, earned] = results.slice(index * 5, index * 5 + 5) as [
          Address,
          Address,
          bigint,
          readonly { amount: bigint; unlockTime: bigint; boostBps: number; withdrawn: boolean }[],
          bigint,
        ];
        const common = { protocol: 'staking', contract: staking, poolAddress: '', group: '', parentType: '' } as const;
        const positions: ProtocolPosition[] = [];
        if (flexible > 0n) positions.push({ ...common, type: 'staked', token: lower(stakingToken), amount: flexible, key: staking });
        locks.forEach((lock, lockId) => {
          if (!lock.withdrawn && lock.amount > 0n)
            positions.push({ ...common, type: 'locked', token: lower(stakingToken), amount: lock.amount, key: `${staking}:${lockId}` });
        });
        if (earned > 0n) positions.push({ ...common, type: 'reward', token: lower(rewardToken), amount: earned, key: staking });
        return positions;
      });
    },
  };
}
