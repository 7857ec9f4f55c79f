import type { Address, PublicClient } from 'viem';

/** Multicall3's address on every chain that has it (the same deterministic deployment everywhere). */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** Calls per eth_call: a wallet's whole protocol state is a few hundred calls at most. */
const multicallBatchBytes = 16_384;

export interface ChainReader {
  /** The chain's newest block. */
  latestBlock(): Promise<{ number: bigint; timestamp: bigint }>;
  /**
   * viem's multicall, through Multicall3 where the chain has it and deployless otherwise (the
   * aggregator's creation code runs inside the eth_call, so chains without it, such as a fresh
   * anvil, answer too). Pass `blockNumber` so that every read of one refresh sees the same state.
   */
  multicall: PublicClient['multicall'];
}

export function createChainReader(client: PublicClient): ChainReader {
  let mode: Promise<{ multicallAddress: Address } | { deployless: true }> | undefined;
  const multicallMode = () => {
    mode ??= client.getCode({ address: multicall3Address }).then(
      (code) => (code && code !== '0x' ? { multicallAddress: multicall3Address } : { deployless: true as const }),
      (error: unknown) => {
        mode = undefined;
        throw error;
      },
    );
    return mode;
  };
  return {
    async latestBlock() {
      const block = await client.getBlock({ blockTag: 'latest' });
      return { number: block.number, timestamp: block.timestamp };
    },
    multicall: (async (parameters: Parameters<PublicClient['multicall']>[0]) =>
      client.multicall({ batchSize: multicallBatchBytes, ...parameters, ...(await multicallMode()) })) as PublicClient['multicall'],
  };
}
