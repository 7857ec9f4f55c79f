import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { formatUnits, type Address, type PublicClient } from 'viem';
import type { ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { nativeBalance, readUniswapV2Shares, readWalletTruth, tokenBalances, worldTokens } from '../../../devnet/src/truth/index.js';
import { protocolHoldings, type Holding } from '../../positions/test/chain-truth.js';

const testnets = new Set(['sepolia']);

export const contextOf = (chainId: string) => ({
  organizationId: '',
  roles: [],
  addons: [],
  network: testnets.has(chainId) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET,
});

/**
 * A chart's values as the chain and reference-data say they must be, worked out without the chart
 * service's code: a point's value is every native and ERC-20 balance read with viem at the newest
 * block at or before the point's time (Uniswap V2 LP tokens included), times GetPrices' price of the token at that time (spam
 * tokens, which no answer values, left out).
 */
export interface ChartTruth {
  /** Reads every block's time again (after new blocks or a reorg). */
  refreshBlocks(): Promise<void>;
  valueAt(wallet: Address, time: number, selection?: TruthSelection): Promise<number>;
  /** Throws naming the first of `indices` whose served value is not the truth to 1e-9 relative. */
  check(chart: WalletChart, wallet: Address, indices: Iterable<number>, label: string, selection?: TruthSelection): Promise<{ nonZero: number }>;
  /** The wallet's protocol positions at the newest block at or before `time`, as the devnet truth readers give them. */
  holdingsAt(wallet: Address, time: number): Promise<Holding[]>;
}

/**
 * Spec 4.1's position filters as the test reads them: protocol positions are those the devnet
 * truth readers find (V2 shares, V3 NFTs with their uncollected fees, vault shares, stakes and
 * rewards, lending deposits less loans), each matching a pool filter by its pool, its share token
 * or `<position manager>:<token id>`; a share token held is not counted again beside its position.
 */
export interface TruthSelection {
  positions: 'only_simple' | 'only_complex' | 'no_filter';
  poolAddresses?: string[];
  excludePoolAddresses?: string[];
}

function poolNamesOf(holding: Holding): string[] {
  const [kind, contract, rest] = holding.receipt.split(':');
  const receipt = kind === 'fungible' ? contract! : kind === 'nft' ? `${contract}:${rest}` : '';
  return [holding.pool, receipt].filter((name) => name !== '');
}

export async function createChartTruth(options: { chain: ChainWorld; client: PublicClient; referenceData: ReferenceDataClient }): Promise<ChartTruth> {
  const { chain, client, referenceData } = options;
  let blockTimes: number[] = [];
  const { tokens } = await unary(referenceData, referenceData.getTokens, {
    context: contextOf(chain.id),
    tokens: worldTokens(chain).tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase() })),
  });
  const spam = new Set(tokens.filter((token) => token.isSpam).map((token) => token.address));
  const decimals = new Map(worldTokens(chain).tokens.map((token) => [token.address.toLowerCase(), token.decimals]));

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
    async holdingsAt(wallet, time) {
      const block = blockAt(time);
      if (block === undefined) return [];
      // While the world deploys its protocols (before its activity starts) the readers fail on a
      // contract not there yet: nothing can be held in it.
      const read = readWalletTruth(client, chain, wallet, block).then((truth) => protocolHoldings(truth, chain));
      return block < BigInt(chain.activityStartBlock) ? read.catch(() => []) : read;
    },
    async valueAt(wallet, time, selection = { positions: 'only_simple' }) {
      const block = blockAt(time);
      if (block === undefined) return 0;
      const pools = selection.poolAddresses ?? [];
      const excluded = selection.excludePoolAddresses ?? [];
      const simple = selection.positions !== 'only_complex' && pools.length === 0;
      const holdings = selection.positions === 'only_simple' ? [] : await truth.holdingsAt(wallet, time);
      const selected = holdings.filter((holding) => {
        const names = poolNamesOf(holding);
        return pools.length > 0 ? names.some((name) => pools.includes(name)) : !names.some((name) => excluded.includes(name));
      });
      // A share token's balance is the position it stands for (each share token once: a V2 pair's two rows carry it alike).
      const receipts = new Map(
        holdings.flatMap((holding) =>
          holding.receipt.startsWith('fungible:') ? [[holding.receipt.split(':')[1]!, BigInt(holding.receipt.split(':')[2]!)] as const] : [],
        ),
      );
      const [native, balances, shares] = simple
        ? await Promise.all([
            nativeBalance(client, wallet, block),
            tokenBalances(client, worldTokens(chain), wallet, block),
            readUniswapV2Shares(client, chain.protocols.uniswap as UniswapManifest, wallet, block),
          ])
        : [0n, [], []];
      // LP tokens are ERC-20s held outright: simple balances, valued at their own price (as the positions endpoint's only_simple rows).
      const held = [
        { address: '', decimals: 18, balance: native },
        ...balances
          .filter((token) => !spam.has(token.address.toLowerCase()))
          .map((token) => ({ address: token.address.toLowerCase(), decimals: token.decimals, balance: token.balance })),
        ...shares.map((share) => ({ address: share.pair.toLowerCase(), decimals: 18, balance: share.balance })),
      ]
        .map((entry) => ({ ...entry, balance: entry.balance - (receipts.get(entry.address) ?? 0n) }))
        .concat(
          selected.map((holding) => ({
            address: holding.token,
            decimals: decimals.get(holding.token) ?? 18,
            balance: holding.type === 'loan' ? -holding.amount : holding.amount,
          })),
        )
        .filter((entry) => entry.balance !== 0n);
      if (held.length === 0) return 0;
      const { prices } = await unary(referenceData, referenceData.getPrices, {
        context: contextOf(chain.id),
        currency: 'usd',
        queries: held.map((entry) => ({ token: { chainId: chain.id, address: entry.address }, timestamp: String(time) })),
      });
      return held.reduce((sum, entry, index) => sum + Number(formatUnits(entry.balance, entry.decimals)) * (prices[index]?.price ?? 0), 0);
    },
    async check(chart, wallet, indices, label, selection) {
      const ordered = [...indices];
      // Each point's truth is a dozen chain reads and a price lookup: read eight points at a time,
      // then compare in order, so the first mismatch named is the same as one at a time.
      const values: number[] = [];
      for (let start = 0; start < ordered.length; start += 8) {
        values.push(
          ...(await Promise.all(ordered.slice(start, start + 8).map((index) => truth.valueAt(wallet, Number(chart.points[index]!.timestamp), selection)))),
        );
      }
      let nonZero = 0;
      for (const [position, index] of ordered.entries()) {
        const point = chart.points[index]!;
        const expected = values[position]!;
        if (expected > 0) nonZero++;
        const tolerance = 1e-9 * Math.max(Math.abs(expected), 1e-12);
        if (Math.abs(point.value - expected) > tolerance)
          throw new Error(`${label} point ${index} (${point.timestamp}): served ${point.value}, chain and prices say ${expected}`);
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
