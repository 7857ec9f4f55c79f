import { PositionsFilter, TrashFilter, type Position } from '@wallet-api/core/proto/positions';

export interface PositionSelection {
  positions: PositionsFilter;
  /** Empty keeps every type. */
  positionTypes: readonly string[];
  /** Empty keeps every fungible. */
  fungibleIds: readonly string[];
  /** Empty keeps every position; otherwise only protocol positions of these dapps. */
  dappIds: readonly string[];
  trash: TrashFilter;
}

/** Whether plain wallet rows can pass the selection, so balances need reading at all. */
export function wantsWalletRows(selection: PositionSelection): boolean {
  return (
    selection.positions !== PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX &&
    (selection.positionTypes.length === 0 || selection.positionTypes.includes('wallet'))
  );
}

/** Whether protocol rows can pass the selection, so protocol positions need reading at all. */
export function wantsProtocolRows(selection: PositionSelection): boolean {
  return (
    selection.positions !== PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE &&
    (selection.positionTypes.length === 0 || selection.positionTypes.some((type) => type !== 'wallet'))
  );
}

function passes(position: Position, selection: PositionSelection): boolean {
  if (selection.positionTypes.length > 0 && !selection.positionTypes.includes(position.positionType)) return false;
  if (selection.fungibleIds.length > 0 && !selection.fungibleIds.includes(position.token?.fungibleId ?? '')) return false;
  if (selection.dappIds.length > 0 && !(position.dapp && selection.dappIds.includes(position.dapp.id))) return false;
  if (selection.trash === TrashFilter.TRASH_FILTER_ONLY_NON_TRASH) return !position.isTrash;
  if (selection.trash === TrashFilter.TRASH_FILTER_ONLY_TRASH) return position.isTrash;
  return true;
}

/**
 * The rows the selection keeps. With `no_filter`, a wallet row of a token that a returned protocol
 * position carries as its fungible receipt (LP token, vault share) is left out: the protocol rows
 * already show what it is worth (spec 4.4).
 */
export function selectPositions(walletRows: readonly Position[], protocolRows: readonly Position[], selection: PositionSelection): Position[] {
  const simple = selection.positions === PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX ? [] : walletRows.filter((row) => passes(row, selection));
  const complex = selection.positions === PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE ? [] : protocolRows.filter((row) => passes(row, selection));
  if (selection.positions !== PositionsFilter.POSITIONS_FILTER_NO_FILTER) return [...simple, ...complex];
  const receipts = new Set(complex.flatMap((row) => (row.fungibleReceipt?.token ? [`${row.chainId}:${row.fungibleReceipt.token.address}`] : [])));
  return [...simple.filter((row) => !receipts.has(`${row.chainId}:${row.token?.address ?? ''}`)), ...complex];
}
