import { eip1559FromFeeHistory, median, rewardPercentiles } from './fee-history-gas.js';

describe('median', () => {
  test.each([
    [[], 0n],
    [[5n], 5n],
    [[9n, 1n, 5n], 5n],
    // Even counts take the lower middle: never above what half the blocks paid.
    [[4n, 1n, 3n, 2n], 2n],
    [[1n, 1n, 1_000_000n], 1n],
  ])('median(%j) = %s', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe('eip1559FromFeeHistory', () => {
  test('asks for the 10th, 30th, 60th and 90th percentiles, slow to rapid', () => {
    expect(rewardPercentiles).toEqual([10, 30, 60, 90]);
  });

  test("base fee is the next block's; each speed the median of its column over non-empty blocks; max = 2 x base + priority", () => {
    const info = eip1559FromFeeHistory(
      {
        baseFeePerGas: [100n, 110n, 120n, 130n, 125n],
        gasUsedRatio: [0.5, 0, 0.9, 0.2],
        reward: [
          [1n, 2n, 3n, 4n],
          [0n, 0n, 0n, 0n],
          [5n, 6n, 70n, 80n],
          [3n, 4n, 5n, 6n],
        ],
      },
      12,
    );
    expect(info).toEqual({
      type: 'eip1559',
      baseFee: 125n,
      speeds: {
        slow: { priorityFee: 3n, maxFee: 253n, estimationSeconds: 72 },
        standard: { priorityFee: 4n, maxFee: 254n, estimationSeconds: 36 },
        fast: { priorityFee: 5n, maxFee: 255n, estimationSeconds: 24 },
        rapid: { priorityFee: 6n, maxFee: 256n, estimationSeconds: 12 },
      },
    });
  });

  test('only empty blocks: no tip is needed, the base fee alone', () => {
    const info = eip1559FromFeeHistory({ baseFeePerGas: [7n, 7n], gasUsedRatio: [0], reward: [[0n, 0n, 0n, 0n]] }, 2);
    expect(info.type === 'eip1559' && info.speeds.rapid).toEqual({ priorityFee: 0n, maxFee: 14n, estimationSeconds: 2 });
  });
});
