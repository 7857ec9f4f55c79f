/** `filters` of decisions.md as stored: events matching any given criterion are dropped before delivery. */
export interface ExcludeCriteria {
  operation_types?: string[];
  trash?: boolean;
  dapp_ids?: string[];
  addresses?: string[];
}

export interface SubscriptionFiltersJson {
  exclude?: ExcludeCriteria;
}

export type Network = 'mainnet' | 'testnet';

/** What the matcher keeps of a subscription. */
export interface SubscriptionEntry {
  id: string;
  organizationId: string;
  network: Network;
  callbackUrl: string;
  /** The organization's add-ons: they decide `asset_class` in its webhooks. */
  addons: string[];
  /** Empty: every chain of its network that passes the gate. */
  chainIds: string[];
  enabled: boolean;
  filters: SubscriptionFiltersJson | null;
}
