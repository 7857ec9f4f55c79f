import type { FeeHistory } from 'viem';
import { gasSpeeds, speedBlocks, speedPercentiles, type Eip1559Speed, type GasInfo, type GasSpeed } from './gas-snapshot.js';

/** The percentiles to ask `eth_feeHistory` for, in `gasSpeeds` order. */
export const rewardPercentiles = gasSpeeds.map((speed) => speedPercentiles[speed]);

/** The middle value (the lower middle of an even count): robust to one block's outlier tips. */
export function median(values: readonly bigint[]): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * EIP-1559 prices from one `eth_feeHistory(blocks, newest, rewardPercentiles)` answer. The base fee
 * is the last `baseFeePerGas`, the one of the block after the newest (the block a transaction sent
 * now lands in at the earliest). Each speed's priority fee is the median of its percentile column
 * over the blocks that carried transactions (an empty block's rewards are zeros that say nothing
 * about what builders take); zero when none did. max_fee = 2 x base_fee + priority_fee.
 */
export function eip1559FromFeeHistory(history: Pick<FeeHistory, 'baseFeePerGas' | 'gasUsedRatio' | 'reward'>, blockSeconds: number): GasInfo {
  const baseFee = history.baseFeePerGas[history.baseFeePerGas.length - 1] ?? 0n;
  const rows = (history.reward ?? []).filter((_row, index) => (history.gasUsedRatio[index] ?? 0) > 0);
  const speeds = Object.fromEntries(
    gasSpeeds.map((speed, column): [GasSpeed, Eip1559Speed] => {
      const priorityFee = median(rows.map((row) => row[column] ?? 0n));
      return [speed, { priorityFee, maxFee: 2n * baseFee + priorityFee, estimationSeconds: Math.round(speedBlocks[speed] * blockSeconds) }];
    }),
  ) as Record<GasSpeed, Eip1559Speed>;
  return { type: 'eip1559', baseFee, speeds };
}
