import { TokenInterface } from '@wallet-api/core/proto/reference_data';
import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';
import type { ClickHouse } from '@wallet-api/core/clickhouse';
import type { PrismaClient } from '@wallet-api/core/db';
import type { Logger } from '@wallet-api/core/logger';
import type { PublicClient } from 'viem';
import { createAddressClassifier } from './addresses/address-classifier.js';
import { createAddressProber } from './addresses/address-prober.js';
import type { ChainConfig } from './chains/chain-config.js';
import { createHeadReads } from './chains/head-reads.js';
import { createFungibleCatalog } from './fungibles/fungible-catalog.js';
import { createTokenSupply } from './fungibles/token-supply.js';
import { createVolumeWindow } from './fungibles/volume-window.js';
import type { ReferenceDataDomain } from './grpc/reference-data-service.js';
import { createBlockClock } from './prices/block-clock.js';
import type { FxTable } from './prices/currencies.js';
import { createDerivedTokens } from './prices/derived-tokens.js';
import type { PricingRules } from './prices/price-book.js';
import { createPriceHistory } from './prices/price-history.js';
import { recordingPricedTokens, type PricedTokens } from './prices/priced-tokens.js';
import { createPriceOracle } from './prices/price-oracle.js';
import { createPriceTracker, type PriceTracker } from './prices/price-tracker.js';
import { createPoolTrust } from './prices/pool-trust.js';
import type { RegistryConfig } from './registry/registry-config.js';
import { createRegistry, type Registry } from './registry/registry.js';
import { createPoolEventStore } from './store/pool-event-store.js';
import { createPriceStore } from './store/price-store.js';
import type { PriceRows } from './store/price-rows.js';
import { createTokenStore } from './store/token-store.js';
import { createSolanaRpcClient, createSolanaTokenReader, jsonParsedAccounts, type SolanaRpc } from './tokens/solana-token-reader.js';
import { createTokenCatalog, type TokenCatalog } from './tokens/token-catalog.js';
import { createRpcClient, createTokenReader, type TokenReader } from './tokens/token-reader.js';

function evmClients(chains: readonly ChainConfig[]): Map<string, PublicClient> {
  return new Map(chains.filter((chain) => chain.family === 'evm').map((chain) => [chain.id, createRpcClient(chain.rpc.url)]));
}

function solanaClients(chains: readonly ChainConfig[]): Map<string, SolanaRpc> {
  return new Map(chains.filter((chain) => chain.family === 'solana').map((chain) => [chain.id, createSolanaRpcClient(chain.rpc.url)]));
}

/** Decimals of the ERC-20 tokens among `tokens`, from token metadata. */
function decimalsFrom(tokens: TokenCatalog) {
  return async (chainId: string, addresses: readonly string[]): Promise<Map<string, number>> => {
    const infos = await tokens.getTokens(addresses.map((address) => ({ chainId, address })));
    return new Map(infos.filter((info) => info.interface === TokenInterface.TOKEN_INTERFACE_ERC20).map((info) => [info.address, info.decimals]));
  };
}

/**
 * Builds the token, dapp and address lookups over the configured chains, the registry and
 * PostgreSQL; with `prices` (ClickHouse and the FX table), prices and fungibles too.
 */
export function createReferenceDataDomain(options: {
  chains: readonly ChainConfig[];
  registry: RegistryConfig;
  prisma: PrismaClient;
  logger: Logger;
  /**
   * `currencyChainId` (default `ethereum`): whose wrapped native and BTC tokens price the `eth` and
   * `btc` currencies; `versions`: the change tokens the price consumer replaces, which the price
   * history kept in memory is checked against; `priced`: the tokens with price rows, so that
   * lookups of the others read nothing.
   */
  /** `rows`: the price rows the process's fold has not stored yet (the tracker's), read with the stored ones. */
  prices?: {
    clickhouse: ClickHouse;
    fx: FxTable;
    versions: ChangeVersions;
    currencyChainId?: string;
    priced?: Pick<PricedTokens, 'unpriced'>;
    rows?: PriceRows;
  };
  /** How long a Solana mint's ScaledUiAmount config is served before it is read again (default 15 s). */
  scaledTtlMs?: number;
}): ReferenceDataDomain & {
  /**
   * For the price consumer, with the tokens a stored batch is about to put in force: reads what
   * the batch added to the price days and volume windows that lookups used lately, and the head
   * reads of current prices and market data used lately, so the first lookups after the move
   * find them in memory.
   */
  prepareForPriceMove?: (tokens: SharedChangeTokens) => Promise<void>;
} {
  const registry = createRegistry(options.registry, new Map(options.chains.map((chain) => [chain.id, chain.family])));
  const clients = evmClients(options.chains);
  const solana = solanaClients(options.chains);
  const readers = new Map<string, TokenReader>([
    ...[...clients].map(([chainId, client]) => [chainId, createTokenReader(client)] as const),
    ...[...solana].map(
      ([chainId, rpc]) =>
        [chainId, createSolanaTokenReader({ account: jsonParsedAccounts(rpc), verified: (mint) => registry.verifiedToken(chainId, mint) })] as const,
    ),
  ]);
  const probers = new Map([...clients].map(([chainId, client]) => [chainId, createAddressProber(client)]));
  const tokens = createTokenCatalog({
    chains: options.chains,
    registry,
    store: createTokenStore(options.prisma),
    readers,
    logger: options.logger,
    ...(options.scaledTtlMs === undefined ? {} : { scaledTtlMs: options.scaledTtlMs }),
  });
  const domain: ReferenceDataDomain = {
    registry,
    tokens,
    addresses: createAddressClassifier({ chains: options.chains, registry, probers, logger: options.logger }),
  };
  if (!options.prices) return domain;
  const { versions } = options.prices;
  const store = createPriceStore(options.prices.clickhouse, options.prices.rows);
  const priceHistory = createPriceHistory({
    store,
    versions,
    chainIds: options.chains.filter((chain) => registry.pricing(chain.id)).map((chain) => chain.id),
    ...(options.prices.priced ? { priced: options.prices.priced } : {}),
  });
  // LP and vault reads behind current prices and supplies behind market data, as of the newest price move.
  const heads = createHeadReads({ versions });
  const oracle = createPriceOracle({
    registry,
    networks: new Map(options.chains.map((chain) => [chain.id, chain.network])),
    chains: new Map(options.chains.map((chain) => [chain.id, { family: chain.family, nativeFungibleId: chain.native_fungible_id }])),
    history: priceHistory,
    fx: options.prices.fx,
    derived: new Map([...clients].map(([chainId, client]) => [chainId, createDerivedTokens(chainId, registry.protocols(chainId), client)])),
    clocks: new Map([...clients].map(([chainId, client]) => [chainId, createBlockClock(client)])),
    decimals: decimalsFrom(tokens),
    currencyChainId: options.prices.currencyChainId ?? 'ethereum',
    tokens: () => versions.everythingAndPrices(),
    heads,
  });
  const volumes = createVolumeWindow({ store, versions });
  return {
    ...domain,
    prepareForPriceMove: async (tokens) => {
      await Promise.all([priceHistory.prepare(tokens), volumes.prepare(tokens), heads.prepare(tokens)]);
    },
    prices: oracle,
    fungibles: createFungibleCatalog({ chains: options.chains, registry, tokens, oracle, volumes, supply: createTokenSupply(clients, solana), heads }),
  };
}

/** The fold of pool events into price history, for the consumer of chain.pool-events.v1. */
export function createChainPriceTracker(options: {
  chains: readonly ChainConfig[];
  registry: Registry;
  tokens: TokenCatalog;
  clickhouse: ClickHouse;
  logger: Logger;
  rollbackWaitMs?: number;
  /** Where the tokens the fold prices are recorded before their rows are stored. */
  priced?: Pick<PricedTokens, 'add'>;
  /** Where the fold's rows wait for their INSERT, readable by the process's lookups; absent: stored as written. */
  rows?: PriceRows;
}): PriceTracker {
  const clients = evmClients(options.chains);
  const trusts = new Map([...clients].map(([chainId, client]) => [chainId, createPoolTrust(options.registry.protocols(chainId), client)]));
  const rules = new Map<string, PricingRules>();
  for (const chain of options.chains) {
    const pricing = options.registry.pricing(chain.id);
    if (pricing)
      rules.set(chain.id, {
        usdStablecoins: new Set(pricing.usd_stablecoins),
        wrappedNative: pricing.wrapped_native,
        minLiquidityUsd: pricing.min_liquidity_usd,
        maxDeviation: pricing.max_deviation,
      });
  }
  return createPriceTracker({
    rules: (chainId) => rules.get(chainId),
    trust: (chainId) => trusts.get(chainId),
    decimals: decimalsFrom(options.tokens),
    events: createPoolEventStore(options.clickhouse, options.rows),
    prices: options.priced
      ? recordingPricedTokens(createPriceStore(options.clickhouse, options.rows), options.priced)
      : createPriceStore(options.clickhouse, options.rows),
    logger: options.logger,
    ...(options.rollbackWaitMs === undefined ? {} : { rollbackWaitMs: options.rollbackWaitMs }),
  });
}
