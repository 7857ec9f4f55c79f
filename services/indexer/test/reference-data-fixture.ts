import { status } from '@grpc/grpc-js';
import { createGrpcClient, GrpcError, invalidArgument, notFound, registration, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import {
  AddressKind,
  ReferenceDataClient,
  ReferenceDataService,
  type Chain,
  type Dapp,
  type Fungible,
  type GetFungiblesRequest,
  type GetPricesRequest,
  type ListProtocolsResponse,
  type PriceQuery,
  type ReferenceDataServer,
  type TokenInfo,
} from '@wallet-api/core/proto/reference_data';
import { testLogger } from '@wallet-api/core/testing';
import { maxItemsPerRequest } from '../../reference-data/src/grpc/reference-data-service.js';

/** A chain id GetTokens refuses with INVALID_ARGUMENT, as for a chain removed from the configuration. */
export const retiredChainId = 'retired-chain';

export interface ReferenceDataFixture {
  chains?: { list(network: Network): Chain[] };
  tokens: TokenInfo[];
  dapps: { chainId: string; address: string; dapp: Dapp }[];
  /** Address -> reason for the addresses ClassifyAddress reports untracked. */
  untracked?: Record<string, string>;
  /** GetPrices' answer to one query; without it GetPrices is UNIMPLEMENTED. */
  price?: (query: PriceQuery, currency: string) => number | undefined;
  /** GetFungibles' answer to one request; without it GetFungibles is UNIMPLEMENTED. */
  fungibles?: (request: GetFungiblesRequest) => Fungible[];
  /** ListProtocols' answer for a chain; without it ListProtocols is UNIMPLEMENTED. */
  protocols?: (chainId: string) => Partial<ListProtocolsResponse>;
}

export interface RunningReferenceData {
  address: string;
  client: ReferenceDataClient;
  /** GetTokens requests served, to see the cache at work. */
  getTokensCalls: number;
  /** GetPrices requests served, in arrival order. */
  getPricesRequests: readonly GetPricesRequest[];
  /** GetFungibles requests served, in arrival order. */
  getFungiblesRequests: readonly GetFungiblesRequest[];
  stop(): Promise<void>;
}

/**
 * A reference-data server answering from fixed tables, so indexer and gateway tests know exactly
 * which tokens are spam, which contracts belong to which dapp and which addresses are tracked.
 */
export async function startReferenceDataFixture(fixture: ReferenceDataFixture): Promise<RunningReferenceData> {
  const state = { getTokensCalls: 0, getPricesRequests: [] as GetPricesRequest[], getFungiblesRequests: [] as GetFungiblesRequest[] };
  const unknownToken = (chainId: string, address: string): TokenInfo => ({
    chainId,
    address,
    interface: 0,
    name: '',
    symbol: '',
    decimals: 0,
    fungibleId: '',
    iconUrl: '',
    verified: false,
    isSpam: false,
  });
  const network = (request: { context?: { network: Network } | undefined }) => request.context?.network ?? Network.NETWORK_MAINNET;
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: [
      registration<ReferenceDataServer>('walletapi.referencedata.ReferenceData', ReferenceDataService, {
        async listChains(request) {
          return { chains: fixture.chains?.list(network(request)) ?? [] };
        },
        async getChain(request) {
          const chain = fixture.chains?.list(network(request)).find((candidate) => candidate.id === request.chainId);
          if (!chain) throw notFound(`chain ${request.chainId} is not supported`);
          return chain;
        },
        async getTokens(request) {
          state.getTokensCalls += 1;
          // As the real service answers for a chain its configuration does not (or no longer) list.
          const retired = request.tokens.find((ref) => ref.chainId === retiredChainId);
          if (retired) throw invalidArgument(`chain ${retired.chainId} is not supported`);
          return {
            tokens: request.tokens.map(
              (ref) => fixture.tokens.find((token) => token.chainId === ref.chainId && token.address === ref.address) ?? unknownToken(ref.chainId, ref.address),
            ),
          };
        },
        async resolveContracts(request) {
          return {
            contracts: fixture.dapps
              .filter((entry) => entry.chainId === request.chainId && request.addresses.includes(entry.address))
              .map((entry) => ({ address: entry.address, dapp: entry.dapp })),
          };
        },
        async classifyAddress(request) {
          const reason = fixture.untracked?.[request.address];
          return {
            address: request.address,
            kind: reason ? AddressKind.ADDRESS_KIND_CONTRACT : AddressKind.ADDRESS_KIND_EOA,
            tracked: !reason,
            reason: reason ?? '',
          };
        },
        async findTokensBySymbol(request) {
          return { tokens: fixture.tokens.filter((token) => token.symbol.toLowerCase() === request.symbol.toLowerCase()) };
        },
        async getPrices(request) {
          const price = fixture.price;
          if (!price) throw new GrpcError(status.UNIMPLEMENTED, 'GetPrices is not part of this fixture');
          // As the real service refuses it.
          if (request.queries.length > maxItemsPerRequest) throw invalidArgument(`queries should have at most ${maxItemsPerRequest} items`);
          state.getPricesRequests.push(request);
          return { prices: request.queries.map((query) => ({ price: price(query, request.currency) })) };
        },
        async getPriceSeries(request) {
          const price = fixture.price;
          if (!price) throw new GrpcError(status.UNIMPLEMENTED, 'GetPriceSeries is not part of this fixture');
          if (request.queries.length > maxItemsPerRequest) throw invalidArgument(`queries should have at most ${maxItemsPerRequest} items`);
          // The fixture's price is any function of time: its steps are read at every second of a
          // span up to a day, exact as the real service's are; a longer span has none here.
          return {
            series: request.queries.map(({ token, from, to, maxSteps }) => {
              if (!(from > 0 && from <= to)) throw invalidArgument(`price series from ${from} to ${to} should be unix seconds, from above 0 and at most to`);
              if (to - from > 86_400) return { stepwise: false, times: [], prices: [] };
              const series = { stepwise: true, times: [] as number[], prices: [] as number[] };
              for (let time = from; time <= to; time++) {
                const answer = price({ token, timestamp: String(time) }, request.currency) ?? NaN;
                const last = series.prices.at(-1);
                if (series.times.length > 0 && (last === answer || (Number.isNaN(last) && Number.isNaN(answer)))) continue;
                series.times.push(time);
                series.prices.push(answer);
              }
              return maxSteps > 0 && series.times.length > maxSteps ? { stepwise: false, times: [], prices: [] } : series;
            }),
          };
        },
        async getFungibles(request) {
          const fungibles = fixture.fungibles;
          if (!fungibles) throw new GrpcError(status.UNIMPLEMENTED, 'GetFungibles is not part of this fixture');
          // As the real service refuses it.
          if (request.fungibleIds.length + request.implementations.length > maxItemsPerRequest) {
            throw invalidArgument(`fungible ids and implementations should have at most ${maxItemsPerRequest} items`);
          }
          state.getFungiblesRequests.push(request);
          return { fungibles: fungibles(request) };
        },
        // Protocols come from the real service; a test here that calls ListProtocols should fail loudly.
        async listProtocols(request) {
          if (!fixture.protocols) throw new GrpcError(status.UNIMPLEMENTED, 'ListProtocols is not part of the fixture');
          return {
            chainId: request.chainId,
            uniswapV2: [],
            uniswapV3: [],
            vaults: [],
            staking: [],
            lending: [],
            nftMarkets: [],
            ...fixture.protocols(request.chainId),
          };
        },
      }),
    ],
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createGrpcClient(ReferenceDataClient, address);
  return {
    address,
    client,
    get getTokensCalls() {
      return state.getTokensCalls;
    },
    get getPricesRequests() {
      return state.getPricesRequests;
    },
    get getFungiblesRequests() {
      return state.getFungiblesRequests;
    },
    async stop() {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
