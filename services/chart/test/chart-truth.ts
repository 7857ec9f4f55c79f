import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { formatUnits, type Address, type PublicClient } from 'viem';
import type { ChainWorld } from '../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../devnet/src/protocols/uniswap/index.js';
import { nativeBalance, readUniswapV2Shares, tokenBalances, worldTokens } from '../../devnet/src/truth/index.js';

const testnets = new Set(['sepolia']);

export const contextOf = (chainId: string) => ({ organizationId: '', roles: [], addons: [], network: testnets.has(chainId) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET });

/**
 * A chart's values as the chain and reference-data say they must be, worked out without the chart
 * service's code: a point's value is every native and ERC-20 balance read with viem at the newest
 * block at or before the point's time (Uniswap V2 LP tokens included), times GetPrices' price of the token at that time (spam
 * tokens, which no answer values, left out).
 */
export interface ChartTruth {
  /** Reads every block's time again (after new blocks or a reorg). */
  refreshBlocks(): Promise<void>;
  valueAt(wallet: Address, time: number): Promise<number>;
  /** Throws naming the first of `indices` whose served value is not the truth to 1e-9 relative. */
  check(chart: WalletChart, wallet: Address, indices: Iterable<number>, label: string): Promise<{ nonZero: number }>;
}

export async function createChartTruth(options: { chain: ChainWorld; client: PublicClient; referenceData: ReferenceDataClient }): Promise<ChartTruth> {
  const { chain, client, referenceData } = options;
  let blockTimes: number[] = [];
  const { tokens } = await unary(referenceData, referenceData.getTokens, {
    context: contextOf(chain.id),
    tokens: worldTokens(chain).tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase() })),
  });
  const spam = new Set(tokens.filter((token) => token.isSpam).map((token) => token.address));

  /** The newest block at or before `time` (unix seconds), undefined before genesis. */
  function blockAt(time: number): bigint | undefined {
    let low = 0;
    let high = blockTimes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (blockTimes[middle]! <= time) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : BigInt(low - 1);
  }

  const truth: ChartTruth = {
    async refreshBlocks() {
      const head = await client.getBlockNumber();
      const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, number) => client.getBlock({ blockNumber: BigInt(number) })));
      blockTimes = blocks.map((block) => Number(block.timestamp));
    },
    async valueAt(wallet, time) {
      const block = blockAt(time);
      if (block === undefined) return 0;
      const [native, balances, shares] = await Promise.all([
        nativeBalance(client, wallet, block),
        tokenBalances(client, worldTokens(chain), wallet, block),
        readUniswapV2Shares(client, chain.protocols.uniswap as UniswapManifest, wallet, block),
      ]);
      // LP tokens are ERC-20s held outright: simple balances, valued at their own price (as the positions endpoint's only_simple rows).
      const held = [
        { address: '', decimals: 18, balance: native },
        ...balances.filter((token) => !spam.has(token.address.toLowerCase())).map((token) => ({ address: token.address.toLowerCase(), decimals: token.decimals, balance: token.balance })),
        ...shares.map((share) => ({ address: share.pair.toLowerCase(), decimals: 18, balance: share.balance })),
      ].filter((entry) => entry.balance !== 0n);
      if (held.length === 0) return 0;
      const { prices } = await unary(referenceData, referenceData.getPrices, {
        context: contextOf(chain.id),
        currency: 'usd',
        queries: held.map((entry) => ({ token: { chainId: chain.id, address: entry.address }, timestamp: String(time) })),
      });
      return held.reduce((sum, entry, index) => sum + Number(formatUnits(entry.balance, entry.decimals)) * (prices[index]?.price ?? 0), 0);
    },
    async check(chart, wallet, indices, label) {
      let nonZero = 0;
      for (const index of indices) {
        const point = chart.points[index]!;
        const expected = await truth.valueAt(wallet, Number(point.timestamp));
        if (expected > 0) nonZero++;
        const tolerance = 1e-9 * Math.max(Math.abs(expected), 1e-12);
        if (Math.abs(point.value - expected) > tolerance) throw new Error(`${label} point ${index} (${point.timestamp}): served ${point.value}, chain and prices say ${expected}`);
      }
      return { nonZero };
    },
  };
  await truth.refreshBlocks();
  return truth;
}

/** Indices on both sides of the chart's first `steps` changes of value: a change counted a point early or late shows there. */
export function stepIndices(chart: WalletChart, steps: number): number[] {
  return chart.points.flatMap((point, index) => (index > 0 && point.value !== chart.points[index - 1]!.value ? [index - 1, index] : [])).slice(0, 2 * steps);
}
