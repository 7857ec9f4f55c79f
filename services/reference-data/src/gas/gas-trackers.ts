import type { Logger } from '@wallet-api/core/logger';
import { createPublicClient, http } from 'viem';
import type { ChainConfig } from '../chains/chain-config.js';
import { createGasTracker, type GasTracker } from './gas-tracker.js';

/**
 * A tracker per configured EVM chain, by chain id; Solana has no gas prices. Each has its own client
 * without retries: a failed poll is simply tried again at the next one.
 */
export function createGasTrackers(chains: readonly ChainConfig[], options: { intervalMs: number; logger: Logger }): Map<string, GasTracker> {
  return new Map(
    chains
      .filter((chain) => chain.family === 'evm')
      .map((chain) => [
        chain.id,
        createGasTracker({
          chainId: chain.id,
          client: createPublicClient({ transport: http(chain.rpc.url, { retryCount: 0, timeout: 10_000 }) }),
          intervalMs: options.intervalMs,
          logger: options.logger,
        }),
      ]),
  );
}
