// The registry file's shape, as reference-data reads it from REGISTRY_PATHS
// (services/reference-data/src/registry/registry-config.ts).

export interface RegistryDapp {
  id: string;
  name: string;
  description: string;
  icon_url: string;
  url: string;
  manage_positions_url: string;
  contracts: Record<string, string[]>;
}

export interface RegistryToken {
  fungible_id: string;
  symbol: string;
  name: string;
  icon_url: string;
  implementations: { chain_id: string; address: string }[];
  asset_class?: 'stablecoin';
  non_circulating_holders: { chain_id: string; address: string }[];
}

export interface RegistryProtocols {
  uniswap_v2: { factory: string; pairs: string[]; router: string }[];
  uniswap_v3: { factory: string; position_manager: string; swap_router: string; quoter: string }[];
  vaults: string[];
  staking: string[];
  lending: string[];
  nft_markets: string[];
}

export interface RegistryPricing {
  usd_stablecoins: string[];
  wrapped_native: string;
  btc: string[];
  min_liquidity_usd: number;
}

export interface DevnetRegistry {
  dapps: RegistryDapp[];
  tokens: RegistryToken[];
  spam_tokens: Record<string, string[]>;
  burn_addresses: string[];
  high_volume_addresses: { address: string; name: string }[];
  protocols: Record<string, RegistryProtocols>;
  pricing: Record<string, RegistryPricing>;
}
