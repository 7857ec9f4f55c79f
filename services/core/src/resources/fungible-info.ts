import type { Fungible, TokenInfo } from '../generated/proto/reference_data.js';
import { assetClasses, type AssetClass, type FungibleInfo } from './asset-schema.js';

const isAssetClass = (value: string): value is AssetClass => (assetClasses as readonly string[]).includes(value);
const known = (value: number | undefined) => value ?? null;
const implementationKey = (chainId: string, address: string) => `${chainId}:${address.toLowerCase()}`;
/** Wallet endpoints name a chain's native asset with a null address (spec 2.2). */
const walletAddress = (address: string) => (address === '' ? null : address);

const unknownMarketData: FungibleInfo['market_data'] = {
  price: null,
  total_supply: null,
  circulating_supply: null,
  fully_diluted_valuation: null,
  market_cap: null,
  changes: { percent_1d: null, percent_30d: null, percent_90d: null, percent_365d: null },
  trading_volumes: { volume_1d: null },
};

/**
 * Spec 2.2 `fungible_info` of a fungible as reference-data's GetFungibles describes it: every
 * implementation across the request's network, market data in the request's currency, and
 * `asset_class` only when reference-data gave one (it does so for organizations with the
 * classification add-on alone).
 */
export function toFungibleInfo(fungible: Fungible): FungibleInfo {
  const market = fungible.marketData;
  const changes = market?.changes;
  return {
    name: fungible.name,
    symbol: fungible.symbol,
    icon: fungible.iconUrl ? { url: fungible.iconUrl } : null,
    flags: { verified: fungible.verified },
    implementations: fungible.implementations.map((implementation) => ({
      chain_id: implementation.chainId,
      decimals: implementation.decimals,
      address: walletAddress(implementation.address),
    })),
    id: fungible.id,
    ...(isAssetClass(fungible.assetClass) ? { asset_class: fungible.assetClass } : {}),
    description: fungible.description,
    market_data: {
      price: known(market?.price),
      total_supply: known(market?.totalSupply),
      circulating_supply: known(market?.circulatingSupply),
      fully_diluted_valuation: known(market?.fullyDilutedValuation),
      market_cap: known(market?.marketCap),
      changes: {
        percent_1d: known(changes?.percent1d),
        percent_30d: known(changes?.percent30d),
        percent_90d: known(changes?.percent90d),
        percent_365d: known(changes?.percent365d),
      },
      trading_volumes: { volume_1d: known(market?.volume1d) },
    },
  };
}

/**
 * What token metadata alone says of a token GetFungibles does not know (a contract that is no
 * ERC-20 to reference-data): its implementation on the one chain it was seen on, no market data.
 */
export function tokenFungibleInfo(info: TokenInfo | undefined, chainId: string, address: string): FungibleInfo {
  return {
    name: info?.name ?? '',
    symbol: info?.symbol ?? '',
    icon: info?.iconUrl ? { url: info.iconUrl } : null,
    flags: { verified: info?.verified ?? false },
    implementations: [{ chain_id: chainId, decimals: info?.decimals ?? 0, address: walletAddress(address) }],
    id: info?.fungibleId ?? '',
    description: '',
    market_data: unknownMarketData,
  };
}

/** The fungibles of one response, as one GetFungibles answer gave them. */
export interface ResponseFungibles {
  /** `fungible_info` of the token at `address` ('' for the native asset) on `chainId`; `token` is its metadata, for a token GetFungibles does not know. */
  fungibleInfo(chainId: string, address: string, token: TokenInfo | undefined): FungibleInfo;
}

/** Looks each token up by implementation: a fungible answers for every chain and address it lives at. */
export function responseFungibles(fungibles: readonly Fungible[]): ResponseFungibles {
  const byImplementation = new Map<string, FungibleInfo>();
  for (const fungible of fungibles) {
    const info = toFungibleInfo(fungible);
    for (const implementation of fungible.implementations) byImplementation.set(implementationKey(implementation.chainId, implementation.address), info);
  }
  return {
    fungibleInfo: (chainId, address, token) => byImplementation.get(implementationKey(chainId, address)) ?? tokenFungibleInfo(token, chainId, address),
  };
}
