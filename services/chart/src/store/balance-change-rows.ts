import { canonicalWallet } from '@wallet-api/core/addresses';
import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import { fromLimbs, toLimbs, type Limbs } from '../series/amount-limbs.js';

/** A row of `chart_balance_changes` (migration 0009), as inserted (a type, not an interface: rows are records). */
export type BalanceChangeRow = {
  address: string;
  chain_id: string;
  asset: string;
  /** Unix seconds. */
  block_timestamp: number;
  block_number: string;
  block_hash: string;
  transaction_index: number;
  l0: number;
  l1: number;
  l2: number;
  l3: number;
  l4: number;
  l5: number;
  l6: number;
  l7: number;
};

/** The row of a change of a fungible (native or ERC-20) balance; undefined for NFTs and amounts beyond 256 bits. */
export function toBalanceChangeRow(change: BalanceChange): BalanceChangeRow | undefined {
  const kind = change.asset?.kind;
  if (kind !== AssetKind.ASSET_KIND_NATIVE && kind !== AssetKind.ASSET_KIND_ERC20) return undefined;
  let limbs: Limbs;
  try {
    limbs = toLimbs(BigInt(change.amount));
  } catch {
    return undefined;
  }
  const [l0, l1, l2, l3, l4, l5, l6, l7] = limbs;
  return {
    address: change.wallet,
    chain_id: change.chainId,
    asset: kind === AssetKind.ASSET_KIND_NATIVE ? '' : canonicalWallet(change.asset!.address),
    block_timestamp: Number(change.blockTimestamp),
    block_number: change.blockNumber,
    block_hash: change.blockHash.toLowerCase(),
    transaction_index: change.transactionIndex,
    l0,
    l1,
    l2,
    l3,
    l4,
    l5,
    l6,
    l7,
  };
}

export const rowAmount = (row: BalanceChangeRow): bigint => fromLimbs([row.l0, row.l1, row.l2, row.l3, row.l4, row.l5, row.l6, row.l7]);

/** What makes a row one change: a wallet's net change of one asset in one transaction of one block. */
export const rowIdentity = (row: Pick<BalanceChangeRow, 'address' | 'chain_id' | 'asset' | 'block_hash' | 'transaction_index'>): string =>
  `${row.address}|${row.chain_id}|${row.asset}|${row.block_hash}|${row.transaction_index}`;
