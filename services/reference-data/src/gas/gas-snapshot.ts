/** The four speeds every gas type is served at, slowest first. */
export const gasSpeeds = ['slow', 'standard', 'fast', 'rapid'] as const;
export type GasSpeed = (typeof gasSpeeds)[number];

/**
 * The reward percentiles asked of `eth_feeHistory` (and taken of a pre-London block's gas prices),
 * one per speed in `gasSpeeds` order: a transaction paying the 90th percentile of recent tips is
 * among the first a block builder takes.
 */
export const speedPercentiles: Record<GasSpeed, number> = { slow: 10, standard: 30, fast: 60, rapid: 90 };

/** Blocks a transaction paying a speed's fee is expected to wait, times the chain's block time. */
export const speedBlocks: Record<GasSpeed, number> = { slow: 6, standard: 3, fast: 2, rapid: 1 };

export interface Eip1559Speed {
  priorityFee: bigint;
  /** 2 x base fee + priority fee: stays includable through about six consecutive full blocks. */
  maxFee: bigint;
  estimationSeconds: number;
}

export type GasInfo = { type: 'eip1559'; baseFee: bigint; speeds: Record<GasSpeed, Eip1559Speed> } | { type: 'classic'; prices: Record<GasSpeed, bigint> };

/** A chain's gas prices as of one block, wei throughout. */
export type GasSnapshot = GasInfo & {
  chainId: string;
  /** The newest block the prices were computed from. */
  blockNumber: bigint;
  /** Unix milliseconds of the read. */
  updatedAt: number;
};
