import { status } from '@grpc/grpc-js';
import { GrpcError, invalidArgument, notFound, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily, ReferenceDataService, type ContractDapp, type ReferenceDataServer } from '@wallet-api/core/proto/reference_data';
import type { AddressClassifier } from '../addresses/address-classifier.js';
import type { ChainRegistry } from '../chains/chain-registry.js';
import type { Registry } from '../registry/registry.js';
import type { FungibleCatalog } from '../fungibles/fungible-catalog.js';
import { currencies, isCurrency, type Currency } from '../prices/currencies.js';
import type { PriceOracle } from '../prices/price-oracle.js';
import type { TokenCatalog } from '../tokens/token-catalog.js';

/** What the token, dapp and address RPCs answer from; chains alone are enough for the chain RPCs. */
export interface ReferenceDataDomain {
  tokens: TokenCatalog;
  registry: Registry;
  addresses: AddressClassifier;
  /** Absent on a server without ClickHouse: GetPrices and GetFungibles are then UNIMPLEMENTED. */
  prices?: PriceOracle;
  fungibles?: FungibleCatalog;
}

/** Requests larger than this are refused rather than fanned out to the chains in one go. */
export const maxItemsPerRequest = 1_000;

/** Steps a price series may have at most: 1.2 MB on the wire, so a dozen such series fit gRPC's 16 MB. */
const maxSeriesSteps = 100_000;

export function referenceDataService(chains: ChainRegistry, domain?: ReferenceDataDomain): ServiceRegistration {
  const network = (request: { context?: { network: Network } | undefined }) => request.context?.network ?? Network.NETWORK_MAINNET;
  // A server built with chains only (the gateway's chain tests) still serves the chain RPCs.
  const need = (): ReferenceDataDomain => {
    if (!domain) throw new GrpcError(status.UNIMPLEMENTED, 'this server serves chains only');
    return domain;
  };
  const limit = (count: number, what: string) => {
    if (count > maxItemsPerRequest) throw invalidArgument(`${what} should have at most ${maxItemsPerRequest} items`);
  };
  const currencyOf = (value: string): Currency => {
    const currency = value.trim().toLowerCase() || 'usd';
    if (!isCurrency(currency)) throw invalidArgument(`currency ${value} should be one of ${currencies.join(', ')}`);
    return currency;
  };
  const pricing = () => {
    const { prices, fungibles } = need();
    if (!prices || !fungibles) throw new GrpcError(status.UNIMPLEMENTED, 'this server serves no prices');
    return { prices, fungibles };
  };

  return registration<ReferenceDataServer>('walletapi.referencedata.ReferenceData', ReferenceDataService, {
    async listChains(request) {
      return { chains: chains.list(network(request)) };
    },
    async getChain(request) {
      const chain = chains.get(network(request), request.chainId);
      if (!chain) throw notFound(`chain ${request.chainId} is not supported`);
      return chain;
    },
    async getTokens(request) {
      limit(request.tokens.length, 'tokens');
      return { tokens: await need().tokens.getTokens(request.tokens) };
    },
    async resolveContracts(request) {
      const { registry } = need();
      limit(request.addresses.length, 'addresses');
      const chain = chains.find(request.chainId);
      if (!chain) throw invalidArgument(`chain ${request.chainId} is not supported`);
      // Solana program ids are base58, case-sensitive: kept as written.
      const solana = chain.family === ChainFamily.CHAIN_FAMILY_SOLANA;
      const contracts: ContractDapp[] = [];
      for (const address of request.addresses) {
        const normalized = solana ? address.trim() : address.trim().toLowerCase();
        const dapp = registry.dappForContract(request.chainId, normalized);
        if (dapp) contracts.push({ address: normalized, dapp });
      }
      return { contracts };
    },
    async classifyAddress(request) {
      return need().addresses.classify(request.address, network(request));
    },
    async findTokensBySymbol(request) {
      return { tokens: await need().tokens.findBySymbol(request.symbol, network(request)) };
    },
    async getPrices(request) {
      const { prices } = pricing();
      const currency = currencyOf(request.currency);
      limit(request.queries.length, 'queries');
      const answers = await prices.prices(
        currency,
        request.queries.map((query) => ({ chainId: query.token?.chainId ?? '', address: query.token?.address ?? '', timestamp: Number(query.timestamp) })),
      );
      return { prices: answers.map((price) => (price === undefined ? {} : { price })) };
    },
    async getPriceSeries(request) {
      const { prices } = pricing();
      const currency = currencyOf(request.currency);
      limit(request.queries.length, 'queries');
      const series = await prices.series(
        currency,
        request.queries.map((query) => ({
          chainId: query.token?.chainId ?? '',
          address: query.token?.address ?? '',
          from: query.from,
          to: query.to,
          maxSteps: Math.min(query.maxSteps || maxSeriesSteps, maxSeriesSteps),
        })),
      );
      return {
        series: series.map((steps) =>
          steps === undefined
            ? { stepwise: false, times: [], prices: [] }
            : { stepwise: true, times: steps.times, prices: steps.prices.map((price) => price ?? NaN) },
        ),
      };
    },
    async getFungibles(request) {
      const { fungibles } = pricing();
      const currency = currencyOf(request.currency);
      limit(request.fungibleIds.length + request.implementations.length, 'fungible ids and implementations');
      return {
        fungibles: await fungibles.getFungibles({
          currency,
          fungibleIds: request.fungibleIds,
          implementations: request.implementations,
          network: network(request),
          addons: request.context?.addons ?? [],
        }),
      };
    },
    async listProtocols(request) {
      const { registry } = need();
      if (!chains.find(request.chainId)) throw invalidArgument(`chain ${request.chainId} is not supported`);
      const protocols = registry.protocols(request.chainId);
      return {
        chainId: request.chainId,
        uniswapV2: protocols.uniswap_v2.map((entry) => ({ factory: entry.factory, pairs: entry.pairs })),
        uniswapV3: protocols.uniswap_v3.map((entry) => ({ factory: entry.factory, positionManager: entry.position_manager })),
        vaults: protocols.vaults.map((address) => ({ address })),
        staking: protocols.staking.map((address) => ({ address })),
        lending: protocols.lending.map((address) => ({ address })),
        nftMarkets: protocols.nft_markets.map((address) => ({ address })),
      };
    },
  });
}
