import { invalidArgument } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { TokenInterface, type Fungible, type MarketChanges, type TokenRef } from '@wallet-api/core/proto/reference_data';
import type { ChainConfig } from '../chains/chain-config.js';
import type { HeadReads } from '../chains/head-reads.js';
import { daySeconds } from '../prices/price-fold.js';
import type { Currency } from '../prices/currencies.js';
import type { PriceOracle, PriceQuery } from '../prices/price-oracle.js';
import type { Registry } from '../registry/registry.js';
import type { TokenCatalog } from '../tokens/token-catalog.js';
import type { TokenSupply } from './token-supply.js';
import type { VolumeWindow } from './volume-window.js';

export interface FungiblesRequest {
  currency: Currency;
  fungibleIds: readonly string[];
  implementations: readonly TokenRef[];
  network: Network;
  /** The organization's add-ons: `classification` unlocks asset_class. */
  addons: readonly string[];
  /** Leaves `changes` out (no past prices are looked up): for ranking by today's market data. */
  withoutChanges?: boolean;
}

/** A fungible with what the fungibles list adds to each implementation (spec 2.2). */
export interface DescribedFungible {
  fungible: Fungible;
  /** Per `<chain>:<address>` of its implementations: the value swapped there over 24 hours, in the request's currency (none for native assets). */
  implementationVolumes: Map<string, number>;
}

export interface FungibleCatalog {
  /** The fungibles asked for by id or by implementation, each once, in request order; unknown ones are left out. */
  getFungibles(request: FungiblesRequest): Promise<Fungible[]>;
  /** As getFungibles, with each implementation's own 24-hour volume. */
  describe(request: FungiblesRequest): Promise<DescribedFungible[]>;
}

export interface FungibleCatalogOptions {
  chains: readonly ChainConfig[];
  registry: Registry;
  tokens: TokenCatalog;
  oracle: Pick<PriceOracle, 'prices'>;
  volumes: VolumeWindow;
  supply: TokenSupply;
  /** Where supplies are kept as of the newest price move; without it they are read at every call. */
  heads?: HeadReads;
  /** Milliseconds since 1970; market data is as of this moment. */
  now?: () => number;
}

interface FungibleSpec {
  id: string;
  name: string;
  symbol: string;
  iconUrl: string;
  verified: boolean;
  native: boolean;
  implementations: TokenRef[];
  assetClass: string;
  nonCirculatingHolders: TokenRef[];
}

/** Days back of each `changes` field. */
const changeWindows = [
  ['percent1d', 1],
  ['percent30d', 30],
  ['percent90d', 90],
  ['percent365d', 365],
] as const satisfies readonly (readonly [keyof MarketChanges, number])[];

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/**
 * Fungibles (spec 2.2): the registry's verified tokens grouped across chains (Solana mints with
 * EVM contracts), each chain's native asset, and any other fungible token (ERC-20 or SPL mint) as a
 * fungible of its own. Market data: the price of the first
 * implementation with one, its changes from the price history, total supply read from the chains
 * (summed over implementations; as of the newest price move with `heads`), circulating supply without the registry's non-circulating
 * holders, and the value swapped in the indexed pools over the last 24 hours.
 */
export function createFungibleCatalog(options: FungibleCatalogOptions): FungibleCatalog {
  const { registry } = options;
  const now = options.now ?? Date.now;
  const chains = new Map(options.chains.map((chain) => [chain.id, chain]));
  const networkName = (network: Network) => (network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet');
  /** An implementation's address as its chain writes it: EVM lowercase, a Solana mint as given (case-sensitive). */
  const addressOn = (chainId: string, input: string) => (chains.get(chainId)?.family === 'solana' ? input.trim() : input.trim().toLowerCase());

  function verifiedSpec(fungibleId: string, onNetwork: (chainId: string) => boolean, classified: boolean): FungibleSpec | undefined {
    const entry = registry.fungible(fungibleId);
    if (!entry) return undefined;
    const implementations = entry.implementations.filter((ref) => onNetwork(ref.chain_id) && chains.has(ref.chain_id));
    if (implementations.length === 0) return undefined;
    return {
      id: entry.fungible_id,
      name: entry.name,
      symbol: entry.symbol,
      iconUrl: entry.icon_url,
      verified: true,
      native: false,
      implementations: implementations.map((ref) => ({ chainId: ref.chain_id, address: ref.address })),
      assetClass: classified ? (entry.asset_class ?? '') : '',
      nonCirculatingHolders: entry.non_circulating_holders
        .filter((holder) => implementations.some((ref) => ref.chain_id === holder.chain_id))
        .map((holder) => ({ chainId: holder.chain_id, address: holder.address })),
    };
  }

  function nativeSpec(fungibleId: string, onNetwork: (chainId: string) => boolean): FungibleSpec | undefined {
    const carriers = options.chains.filter((chain) => chain.native_fungible_id === fungibleId && onNetwork(chain.id));
    const first = carriers[0];
    if (!first) return undefined;
    return {
      id: fungibleId,
      name: first.native.name,
      symbol: first.native.symbol,
      iconUrl: '',
      verified: true,
      native: true,
      implementations: carriers.map((chain) => ({ chainId: chain.id, address: '' })),
      assetClass: '',
      nonCirculatingHolders: [],
    };
  }

  async function resolve(request: FungiblesRequest): Promise<FungibleSpec[]> {
    const network = networkName(request.network);
    const onNetwork = (chainId: string) => chains.get(chainId)?.network === network;
    const classified = request.addons.includes('classification');
    const specs = new Map<string, FungibleSpec>();
    for (const id of request.fungibleIds) {
      const spec = verifiedSpec(id, onNetwork, classified) ?? nativeSpec(id, onNetwork);
      if (spec && !specs.has(spec.id)) specs.set(spec.id, spec);
    }
    const unverified = request.implementations.filter(
      (ref) => ref.address.trim() !== '' && !registry.verifiedToken(ref.chainId, addressOn(ref.chainId, ref.address)),
    );
    const infos = await options.tokens.getTokens(unverified);
    const unverifiedInfo = new Map(infos.map((info) => [`${info.chainId}:${info.address}`, info]));
    for (const ref of request.implementations) {
      const chain = chains.get(ref.chainId);
      if (!chain) throw invalidArgument(`chain ${ref.chainId} is not supported`);
      const address = addressOn(ref.chainId, ref.address);
      let spec: FungibleSpec | undefined;
      if (address === '') {
        spec = nativeSpec(chain.native_fungible_id, (chainId) => chains.get(chainId)?.network === chain.network);
      } else {
        const verified = registry.verifiedToken(ref.chainId, address);
        if (verified) {
          spec = verifiedSpec(verified.fungibleId, (chainId) => chains.get(chainId)?.network === chain.network, classified);
        } else {
          const info = unverifiedInfo.get(`${ref.chainId}:${address}`);
          if (info?.interface === TokenInterface.TOKEN_INTERFACE_ERC20) {
            spec = {
              id: info.fungibleId,
              name: info.name,
              symbol: info.symbol,
              iconUrl: '',
              verified: false,
              native: false,
              implementations: [{ chainId: ref.chainId, address }],
              assetClass: '',
              nonCirculatingHolders: [],
            };
          }
        }
      }
      if (spec && !specs.has(spec.id)) specs.set(spec.id, spec);
    }
    return [...specs.values()];
  }

  async function describe(request: FungiblesRequest): Promise<DescribedFungible[]> {
    const resolved = await resolve(request);
    const infos = await options.tokens.getTokens(resolved.flatMap((spec) => spec.implementations));
    const infoOf = new Map(infos.map((info) => [`${info.chainId}:${info.address}`, info]));
    const decimals = (ref: TokenRef) => infoOf.get(`${ref.chainId}:${ref.address}`)?.decimals ?? 0;
    // A registry address with no ERC-20 behind it on its chain (a merged file's mainnet address
    // on a devnet chain of the same name) is no implementation there.
    const specs = resolved
      .map((spec) => ({
        ...spec,
        implementations: spec.native
          ? spec.implementations
          : spec.implementations.filter((ref) => infoOf.get(`${ref.chainId}:${ref.address}`)?.interface === TokenInterface.TOKEN_INTERFACE_ERC20),
      }))
      .filter((spec) => spec.implementations.length > 0);
    if (specs.length === 0) return [];

    const seconds = Math.floor(now() / 1000);
    // Changes compare with the price at the start of the minute N days ago: the same lookups for a
    // minute, so their blocks and LP reserves are found once instead of at every call's second.
    const minute = Math.floor(seconds / 60) * 60;
    const times = request.withoutChanges ? [0] : [0, ...changeWindows.map(([, days]) => minute - days * daySeconds)];
    const queries: PriceQuery[] = [{ usd: true, timestamp: 0 }];
    const priceAt = new Map<string, number>();
    for (const spec of specs) {
      for (const ref of spec.implementations) {
        for (const timestamp of times) {
          priceAt.set(`${ref.chainId}:${ref.address}:${timestamp}`, queries.push({ chainId: ref.chainId, address: ref.address, timestamp }) - 1);
        }
      }
    }
    const traded = specs.flatMap((spec) => (spec.native ? [] : spec.implementations.map((ref) => ({ chainId: ref.chainId, token: ref.address }))));
    // Not awaited here: the scope's Redis read goes with the prices' and volumes' own.
    const scope = options.heads && specs.some((spec) => !spec.native) ? options.heads.scope() : undefined;
    const atHead = async (key: string, load: () => Promise<bigint>) => (scope ? (await scope).read(key, load) : load());
    const [prices, volumes, supplies] = await Promise.all([
      options.oracle.prices(request.currency, queries),
      options.volumes.volumesSince(traded, seconds - daySeconds),
      Promise.all(
        specs.map(async (spec) => {
          if (spec.native) return undefined;
          const [totals, held] = await Promise.all([
            Promise.all(
              spec.implementations.map(async (ref) =>
                whole(await atHead(`supply:${ref.chainId}:${ref.address}`, () => options.supply.totalSupply(ref.chainId, ref.address)), decimals(ref)),
              ),
            ),
            Promise.all(
              spec.nonCirculatingHolders.flatMap((holder) =>
                spec.implementations
                  .filter((ref) => ref.chainId === holder.chainId)
                  .map(async (ref) =>
                    whole(
                      await atHead(`balance:${ref.chainId}:${ref.address}:${holder.address}`, () =>
                        options.supply.balanceOf(ref.chainId, ref.address, holder.address),
                      ),
                      decimals(ref),
                    ),
                  ),
              ),
            ),
          ]);
          const total = totals.reduce((sum, value) => sum + value, 0);
          return { total, circulating: total - held.reduce((sum, value) => sum + value, 0) };
        }),
      ),
    ]);
    const usdUnit = prices[0];

    return specs.map((spec, index): DescribedFungible => {
      const at = (ref: TokenRef, timestamp: number) => prices[priceAt.get(`${ref.chainId}:${ref.address}:${timestamp}`)!];
      const primary = spec.implementations.find((ref) => at(ref, 0) !== undefined);
      const price = primary && at(primary, 0);
      const changes: MarketChanges = {};
      for (const [field, days] of changeWindows) {
        const then = primary && at(primary, minute - days * daySeconds);
        if (price !== undefined && then !== undefined && then > 0) changes[field] = (price / then - 1) * 100;
      }
      const supply = supplies[index];
      const volumeUsd = spec.native ? undefined : spec.implementations.reduce((sum, ref) => sum + (volumes.get(`${ref.chainId}:${ref.address}`) ?? 0), 0);
      const implementationVolumes = new Map<string, number>();
      if (!spec.native && usdUnit !== undefined)
        for (const ref of spec.implementations)
          implementationVolumes.set(`${ref.chainId}:${ref.address}`, (volumes.get(`${ref.chainId}:${ref.address}`) ?? 0) * usdUnit);
      const fungible: Fungible = {
        id: spec.id,
        name: spec.name,
        symbol: spec.symbol,
        iconUrl: spec.iconUrl,
        verified: spec.verified,
        implementations: spec.implementations.map((ref) => ({
          chainId: ref.chainId,
          address: ref.address,
          decimals: spec.native ? chains.get(ref.chainId)!.native.decimals : decimals(ref),
        })),
        marketData: {
          ...(price === undefined ? {} : { price }),
          ...(supply ? { totalSupply: supply.total, circulatingSupply: supply.circulating } : {}),
          ...(supply && price !== undefined ? { marketCap: supply.circulating * price, fullyDilutedValuation: supply.total * price } : {}),
          changes,
          ...(volumeUsd !== undefined && usdUnit !== undefined ? { volume1d: volumeUsd * usdUnit } : {}),
        },
        assetClass: spec.assetClass,
        description: '',
      };
      return { fungible, implementationVolumes };
    });
  }

  return {
    describe,
    async getFungibles(request) {
      return (await describe(request)).map((described) => described.fungible);
    },
  };
}
