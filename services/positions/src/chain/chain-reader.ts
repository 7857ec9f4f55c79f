import type { Address, PublicClient } from 'viem';

/** Multicall3's address on every chain that has it (the same deterministic deployment everywhere). */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export interface ChainReader {
  /** The chain's newest block. */
  latestBlock(): Promise<{ number: bigint; timestamp: bigint }>;
  /**
   * viem's multicall, or, where the chain has no Multicall3 (a fresh anvil), the same calls as
   * plain eth_calls sent together in JSON-RPC batches (the client's transport batches them).
   * Pass `blockNumber` so that every read of one refresh sees the same state.
   */
  multicall: PublicClient['multicall'];
}

type MulticallParameters = Parameters<PublicClient['multicall']>[0];

/**
 * Reads for the adapters. Deployless multicall is not used: its results come back as the code
 * of a contract under construction, which EIP-170 caps at 24 KiB, and a wallet's positions and
 * ticks exceed that.
 */
export function createChainReader(client: PublicClient): ChainReader {
  let hasMulticall3: Promise<boolean> | undefined;
  const multicall3 = () => {
    hasMulticall3 ??= client.getCode({ address: multicall3Address }).then(
      (code) => code !== undefined && code !== '0x',
      (error: unknown) => {
        hasMulticall3 = undefined;
        throw error;
      },
    );
    return hasMulticall3;
  };

  async function batchedReads({ contracts, allowFailure = true, blockNumber, blockTag }: MulticallParameters) {
    const settled = await Promise.allSettled(
      contracts.map((contract) => client.readContract({ ...(contract as Parameters<PublicClient['readContract']>[0]), blockNumber, blockTag } as never)),
    );
    if (!allowFailure) {
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
    }
    return settled.map((outcome) => (outcome.status === 'fulfilled' ? { status: 'success', result: outcome.value } : { status: 'failure', error: outcome.reason }));
  }

  return {
    async latestBlock() {
      const block = await client.getBlock({ blockTag: 'latest' });
      return { number: block.number, timestamp: block.timestamp };
    },
    multicall: (async (parameters: MulticallParameters) =>
      (await multicall3()) ? client.multicall({ ...parameters, multicallAddress: multicall3Address }) : batchedReads(parameters)) as PublicClient['multicall'],
  };
}
