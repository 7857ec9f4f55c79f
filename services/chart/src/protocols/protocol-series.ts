import type { ChartWindow } from '@wallet-api/core/charts';
import { unary } from '@wallet-api/core/grpc';
import type { PositionsClient, ProtocolAmount } from '@wallet-api/core/proto/positions';
import { assetKey, pointCount, type ChartAsset } from '../series/bucketed-changes.js';
import type { BlockClock } from '../store/block-clock.js';

/** Spec 4.1's `filter[positions]` with the pool filters, values lowercase. */
export interface PositionSelection {
  positions: 'only_simple' | 'only_complex' | 'no_filter';
  /** Only the protocol positions matching one of these, and no simple balances. */
  poolAddresses: readonly string[];
  excludePoolAddresses: readonly string[];
}

export interface AssetSeries {
  asset: ChartAsset;
  balances: bigint[];
}

export interface ProtocolPoints {
  /** Per asset, what the selected protocol positions hold of it at each point (loans negative). */
  assets: Map<string, AssetSeries>;
  /**
   * Per fungible receipt (share token) of the wallets' protocol positions, the amount they carry
   * at each point, selected or not: the protocol rows stand for those simple balances.
   */
  receipts: Map<string, AssetSeries>;
}

export interface ProtocolSeries {
  points(request: { addresses: readonly string[]; chainIds: readonly string[] }, window: ChartWindow, selection: PositionSelection): Promise<ProtocolPoints>;
}

export interface ProtocolSeriesOptions {
  positions: PositionsClient;
  clock: BlockClock;
  /** The change token of rollbacks (ChangeVersions.everything): positions read at a block are kept under it. */
  everything: () => Promise<string>;
  /** Wallet-blocks kept; all are dropped when full. */
  maxEntries?: number;
}

const evmAddress = /^0x[0-9a-f]{40}$/;

/** The spec 4.1 pool forms a position answers to: its pool, its share token, its LP NFT. */
export function poolNames(position: ProtocolAmount): string[] {
  return [position.poolAddress, position.fungibleReceipt ?? '', position.nftReceipt ?? ''].filter((name) => name !== '');
}

/** Whether the selection charts this protocol position. */
export function selects(selection: PositionSelection, position: ProtocolAmount): boolean {
  const names = poolNames(position);
  if (selection.poolAddresses.length > 0) return names.some((name) => selection.poolAddresses.includes(name));
  if (selection.positions === 'only_simple') return false;
  return !names.some((name) => selection.excludePoolAddresses.includes(name));
}

/** A position's contribution to the wallet's value: what it holds, or, for a loan, what it owes. */
const signedAmount = (position: ProtocolAmount) => (position.positionType === 'loan' ? -BigInt(position.amount) : BigInt(position.amount));

function addAt(series: Map<string, AssetSeries>, asset: ChartAsset, point: number, count: number, amount: bigint): void {
  const key = assetKey(asset);
  let entry = series.get(key);
  if (!entry) series.set(key, (entry = { asset, balances: new Array<bigint>(count).fill(0n) }));
  entry.balances[point]! += amount;
}

/**
 * Protocol positions over time: each point's block from the block clock, the EVM wallets'
 * positions after that block from the positions service (read from the chain then), kept per
 * wallet and block until a rollback.
 */
export function createProtocolSeries(options: ProtocolSeriesOptions): ProtocolSeries {
  const { positions, clock } = options;
  const maxEntries = options.maxEntries ?? 200_000;
  const kept = new Map<string, ProtocolAmount[]>();
  let generation: string | undefined;

  async function positionsAt(chainId: string, wallet: string, blocks: readonly bigint[], current: string): Promise<Map<bigint, ProtocolAmount[]>> {
    const found = new Map<bigint, ProtocolAmount[]>();
    const missing: bigint[] = [];
    for (const block of new Set(blocks)) {
      const known = kept.get(`${chainId}|${wallet}|${block}`);
      if (known) found.set(block, known);
      else missing.push(block);
    }
    if (missing.length === 0) return found;
    const response = await unary(
      positions,
      positions.getProtocolPositionsAt,
      { address: wallet, chainId, blockNumbers: missing.map(String) },
      { name: 'Positions/GetProtocolPositionsAt', deadlineMs: 60_000 },
    );
    for (const { blockNumber, positions: read } of response.blocks) {
      const block = BigInt(blockNumber);
      found.set(block, read);
      if (generation !== current) continue;
      if (kept.size >= maxEntries) kept.clear();
      kept.set(`${chainId}|${wallet}|${block}`, read);
    }
    return found;
  }

  return {
    async points(request, window, selection) {
      const result: ProtocolPoints = { assets: new Map(), receipts: new Map() };
      const wallets = request.addresses.filter((address) => evmAddress.test(address));
      if (wallets.length === 0) return result;
      const current = await options.everything();
      if (current !== generation) {
        kept.clear();
        generation = current;
      }
      const count = pointCount(window);
      await Promise.all(
        request.chainIds.map(async (chainId) => {
          const blocks = await clock.blocksAt(chainId, window);
          const known = blocks.filter((block): block is bigint => block !== undefined);
          if (known.length === 0) return;
          for (const wallet of wallets) {
            const byBlock = await positionsAt(chainId, wallet, known, current);
            blocks.forEach((block, point) => {
              if (block === undefined) return;
              // A share token stands for one pool: counted once per point, however many rows carry it.
              const receipts = new Map<string, bigint>();
              for (const position of byBlock.get(block) ?? []) {
                if (selects(selection, position)) addAt(result.assets, { chainId, asset: position.token }, point, count, signedAmount(position));
                if (position.fungibleReceipt && position.receiptAmount !== '') receipts.set(position.fungibleReceipt, BigInt(position.receiptAmount));
              }
              for (const [token, amount] of receipts) addAt(result.receipts, { chainId, asset: token }, point, count, amount);
            });
          }
        }),
      );
      return result;
    },
  };
}
