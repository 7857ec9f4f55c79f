import type { ExcludeCriteria } from './subscription-entry.js';

/** What a subscribed wallet's reading of a transaction offers the filters. */
export interface FilterSubject {
  operationType: string;
  isTrash: boolean;
  /** Dapps of the called contract and of every act. */
  dappIds: readonly string[];
  /** The other side of the wallet's transfers and approvals, and the contract it called. */
  counterparties: readonly string[];
}

/** True when `filters.exclude` drops the event: any one criterion that matches is enough. */
export function isExcluded(exclude: ExcludeCriteria | undefined, subject: FilterSubject): boolean {
  if (!exclude) return false;
  if (exclude.operation_types?.includes(subject.operationType)) return true;
  if (exclude.trash === true && subject.isTrash) return true;
  if (exclude.dapp_ids && subject.dappIds.some((id) => exclude.dapp_ids!.includes(id))) return true;
  if (exclude.addresses && subject.counterparties.some((address) => exclude.addresses!.includes(address))) return true;
  return false;
}
