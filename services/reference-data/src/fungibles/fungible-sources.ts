import type { Logger } from '@wallet-api/core/logger';
import type { ChainConfig } from '../chains/chain-config.js';
import type { RegistryConfig } from '../registry/registry-config.js';
import type { Registry } from '../registry/registry.js';
import type { ListedTokenStore } from '../store/listed-token-store.js';
import { derivedFungibleId, isSpamToken } from '../tokens/token-flags.js';
import { canonicalAddress, createFungibleSearchIndex, type FungibleSearchIndex, type IndexedFungible } from './fungible-search-index.js';

export interface FungibleSourcesOptions {
  chains: readonly ChainConfig[];
  /** The merged registry file: its tokens are the verified fungibles. */
  registryConfig: RegistryConfig;
  registry: Registry;
  tokens: ListedTokenStore;
  logger: Logger;
  /** The index is built again when older than this (new tokens enter token metadata as wallets are read). */
  refreshMs?: number;
  /** Known tokens taken from token metadata at most, oldest first: the index's memory bound. */
  maxTokens?: number;
  now?: () => number;
}

export interface FungibleSources {
  /** The current index; the first call builds it, later ones get it while a rebuild runs behind them. */
  index(): Promise<FungibleSearchIndex>;
}

/**
 * The fungibles the list serves: the registry's verified tokens, every chain's native asset, and
 * the fungible tokens of token metadata the registry does not verify, spam left out (the
 * registry's spam list and look-alikes of verified or native symbols, as token-flags decides).
 */
export async function readFungibles(options: Omit<FungibleSourcesOptions, 'logger' | 'refreshMs' | 'now'>): Promise<IndexedFungible[]> {
  const { chains, registry } = options;
  const configured = new Set(chains.map((chain) => chain.id));
  const nativeSymbols = new Set(chains.map((chain) => chain.native.symbol.toUpperCase()));
  const fungibles: IndexedFungible[] = [];
  for (const token of options.registryConfig.tokens) {
    const implementations = token.implementations
      .filter((ref) => configured.has(ref.chain_id) && !registry.isListedSpam(ref.chain_id, ref.address))
      .map((ref) => ({ chainId: ref.chain_id, address: canonicalAddress(ref.address) }));
    if (implementations.length === 0) continue;
    fungibles.push({
      id: token.fungible_id,
      name: token.name,
      symbol: token.symbol,
      verified: true,
      native: false,
      implementations,
      assetClass: token.asset_class ?? undefined,
    });
  }
  const natives = new Map<string, IndexedFungible>();
  for (const chain of chains) {
    const known = natives.get(chain.native_fungible_id);
    if (known) known.implementations.push({ chainId: chain.id, address: '' });
    else
      natives.set(chain.native_fungible_id, {
        id: chain.native_fungible_id,
        name: chain.native.name,
        symbol: chain.native.symbol,
        verified: true,
        native: true,
        implementations: [{ chainId: chain.id, address: '' }],
        assetClass: undefined,
      });
  }
  fungibles.push(...natives.values());
  for (const token of await options.tokens.fungibleTokens([...configured], options.maxTokens ?? 200_000)) {
    if (registry.verifiedToken(token.chainId, token.address)) continue;
    if (isSpamToken(token, registry, nativeSymbols)) continue;
    fungibles.push({
      id: derivedFungibleId(token.chainId, token.address),
      name: token.name,
      symbol: token.symbol,
      verified: false,
      native: false,
      implementations: [{ chainId: token.chainId, address: token.address }],
      assetClass: undefined,
    });
  }
  return fungibles;
}

/** The search index over `readFungibles`, rebuilt in the background once older than `refreshMs`. */
export function createFungibleSources(options: FungibleSourcesOptions): FungibleSources {
  const refreshMs = options.refreshMs ?? 60_000;
  const now = options.now ?? Date.now;
  let current: { index: FungibleSearchIndex; builtAt: number } | undefined;
  let building: Promise<FungibleSearchIndex> | undefined;

  function build(): Promise<FungibleSearchIndex> {
    building ??= readFungibles(options)
      .then((fungibles) => {
        const index = createFungibleSearchIndex(fungibles);
        current = { index, builtAt: now() };
        return index;
      })
      .finally(() => {
        building = undefined;
      });
    return building;
  }

  return {
    async index() {
      if (!current) return build();
      if (current.builtAt + refreshMs <= now())
        build().catch((error: unknown) => options.logger.warn({ err: error }, 'fungibles: rebuilding the search index failed'));
      return current.index;
    },
  };
}
