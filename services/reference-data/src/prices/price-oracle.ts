import { isSolanaAddress, type AddressFamily } from '@wallet-api/core/addresses';
import { invalidArgument } from '@wallet-api/core/grpc';
import type { SharedChangeTokens } from '@wallet-api/core/cache';
import type { HeadReads } from '../chains/head-reads.js';
import type { Registry } from '../registry/registry.js';
import { latestTimestamp, type PriceLookup, type StoredPrice } from '../store/price-store.js';
import type { BlockClock, ClockBlock } from './block-clock.js';
import { convertUsd, type Currency, type FxTable } from './currencies.js';
import type { DerivedTokens } from './derived-tokens.js';
import { consensusPrice } from './price-book.js';
import type { PriceHistory, PriceSource } from './price-history.js';

/** A token's price at a time (unix seconds, 0 for the newest), or what one US dollar is worth then. */
export type PriceQuery = { chainId: string; address: string; timestamp: number } | { usd: true; timestamp: number };

export interface PriceOracle {
  /** One answer per query, in `currency`; undefined when unknown. One history lookup for the whole list. */
  prices(currency: Currency, queries: readonly PriceQuery[]): Promise<(number | undefined)[]>;
  /**
   * Each token's price over [from, to] (unix seconds, from > 0) as a step function: the answer of
   * `prices` at any second t of the span is the price at the series' last time at or before t.
   * Its times are `from` and every time in (from, to] an answer may change at; undefined for a
   * token priced by chain reads at each block (LP tokens, vault shares), whose price has no steps,
   * and for one whose span holds more times than the query's `maxSteps`.
   */
  series(currency: Currency, queries: readonly PriceSeriesQuery[]): Promise<(PriceSteps | undefined)[]>;
}

export interface PriceSeriesQuery {
  chainId: string;
  address: string;
  from: number;
  to: number;
  /** More times than this and the series is not made (0 or absent: no limit). */
  maxSteps?: number;
}

/** Prices from each time on, oldest first; undefined where there is none. */
export interface PriceSteps {
  times: number[];
  prices: (number | undefined)[];
}

export interface PriceOracleOptions {
  registry: Registry;
  /** Chain ids the service knows (any network), each with its network: a fungible's price is one across the chains of a network. */
  networks: ReadonlyMap<string, string>;
  /**
   * Each chain's address family and native fungible id. A Solana chain's token addresses are
   * checked and kept as written; a chain without pricing of its own (Solana: no pools indexed)
   * prices a verified token, and its native asset, as the one price of the fungible's
   * implementations on the network's priced chains. Without it every chain is EVM and a chain
   * without pricing has no prices.
   */
  chains?: ReadonlyMap<string, { family: AddressFamily; nativeFungibleId: string }>;
  history: PriceHistory;
  fx: FxTable;
  derived: ReadonlyMap<string, DerivedTokens>;
  clocks: ReadonlyMap<string, BlockClock>;
  /** Decimals of ERC-20 tokens of a chain; tokens that are not are absent. */
  decimals(chainId: string, tokens: readonly string[]): Promise<Map<string, number>>;
  /** The chain whose wrapped native token is the `eth` currency and whose `btc` tokens are the `btc` currency. */
  currencyChainId: string;
  /**
   * The change tokens in force, read once per call: chain reads at recent blocks are remembered
   * under `everything`, which every rollback replaces, and the history and head reads are read
   * under both. Without it recent blocks are read for every lookup and the others read the tokens
   * themselves.
   */
  tokens?: () => Promise<SharedChangeTokens>;
  /** Where LP and vault reads at the head are kept as of the newest price move; without it they are read at every lookup. */
  heads?: HeadReads;
}

const evmAddress = /^0x[0-9a-f]{40}$/;

type Plan =
  | { kind: 'none' }
  | { kind: 'fixed'; usd: number }
  | { kind: 'market'; lookups: number[]; maxDeviation: number }
  | { kind: 'lp'; chainId: string; pair: string; token0: Plan; token1: Plan; decimals: [number, number, number]; block: ClockBlock | undefined }
  | { kind: 'vault'; chainId: string; vault: string; asset: Plan; shareDecimals: number; assetDecimals: number; block: ClockBlock | undefined };

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/** The items, awaiting only those still to come: a thousand ready answers cost no promise each. */
async function settled<T>(items: readonly (T | Promise<T>)[]): Promise<T[]> {
  const pending = items.flatMap((item, index) => (item instanceof Promise ? [item.then((value) => [index, value] as const)] : []));
  const result = items as T[];
  if (pending.length === 0) return result;
  const copy = [...result];
  for (const [index, value] of await Promise.all(pending)) copy[index] = value;
  return copy;
}

/**
 * Prices from the indexed pools' history (see the price tracker): stablecoins at 1, the native
 * asset as its wrapped token, LP tokens as their reserves' value per LP token and vault shares as
 * the assets one share redeems for, both read from the chain at the block of the time asked.
 */
export function createPriceOracle(options: PriceOracleOptions): PriceOracle {
  const { registry, currencyChainId } = options;

  /**
   * The token and its fungible's other implementations on priced chains of the same network
   * (the registry groups them): the sources of its one price. An unlisted token has only itself.
   */
  function implementations(chainId: string, token: string): { chainId: string; token: string }[] {
    const refs = [{ chainId, token }];
    const fungibleId = registry.verifiedToken(chainId, token)?.fungibleId;
    const network = options.networks.get(chainId);
    for (const implementation of (fungibleId && registry.fungible(fungibleId)?.implementations) || []) {
      if (implementation.chain_id === chainId || options.networks.get(implementation.chain_id) !== network) continue;
      // Priced chains are EVM chains; a Solana implementation has no pools of its own to add.
      if (!registry.pricing(implementation.chain_id) || !evmAddress.test(implementation.address)) continue;
      refs.push({ chainId: implementation.chain_id, token: implementation.address });
    }
    return refs;
  }

  /**
   * Where the price of a token on a chain without pricing comes from: an implementation of its
   * fungible (the verified token's, or for the native asset the chain's native fungible) on a
   * priced chain of the same network, whose price is the fungible's one price. One the chain
   * lists as a USD stablecoin first, as EVM USDC is. Undefined when the fungible has none: an
   * unverified token, or a native coin no priced chain carries (SOL, unless the registry lists a
   * `sol` implementation on an EVM chain with trusted pools).
   */
  function pricedImplementation(chainId: string, token: string): { chainId: string; token: string } | undefined {
    const fungibleId = token === '' ? options.chains?.get(chainId)?.nativeFungibleId : registry.verifiedToken(chainId, token)?.fungibleId;
    const network = options.networks.get(chainId);
    const candidates = ((fungibleId && registry.fungible(fungibleId)?.implementations) || []).filter(
      (implementation) =>
        options.networks.get(implementation.chain_id) === network &&
        registry.pricing(implementation.chain_id) !== undefined &&
        evmAddress.test(implementation.address),
    );
    const stable = candidates.find((implementation) => registry.pricing(implementation.chain_id)!.usd_stablecoins.includes(implementation.address));
    const chosen = stable ?? candidates[0];
    return chosen && { chainId: chosen.chain_id, token: chosen.address };
  }

  /** A token address as the chain writes it: EVM lowercase, Solana as given; INVALID_ARGUMENT otherwise. */
  function normalizedAddress(chainId: string, input: string): string {
    const trimmed = input.trim();
    if (trimmed === '') return '';
    if (options.chains?.get(chainId)?.family === 'solana') {
      if (!isSolanaAddress(trimmed)) throw invalidArgument(`token address ${input} should be a valid Solana address (base58 mint address)`);
      return trimmed;
    }
    const address = trimmed.toLowerCase();
    if (!evmAddress.test(address)) throw invalidArgument(`token address ${input} should be a valid EVM address`);
    return address;
  }

  /**
   * One price from the chains' prices of a fungible: the consensus rule of one chain's pools
   * (weighted median, outliers beyond `maxDeviation` dropped, weighted mean of the rest), each
   * chain weighted by its pools' weight (depth_usd / sqrt(price), see PriceBook), so a chain whose
   * pools run away from the others' does not move the price. Rows without depth weigh alike.
   */
  function onePrice(prices: readonly (StoredPrice | undefined)[], maxDeviation: number): number | undefined {
    const known = prices.filter((price): price is StoredPrice => price !== undefined);
    if (known.length <= 1) return known[0]?.price;
    const weighed = known.every((price) => price.depthUsd > 0);
    return consensusPrice(
      known.map((price) => ({ price: price.price, weight: weighed ? price.depthUsd / Math.sqrt(price.price) : 1, tokenDepth: 0 })),
      maxDeviation,
    )?.price;
  }

  /**
   * The sources of a token's price when it is a step function of the stored history, as `routeOf`
   * plans it: its market's implementations (none for a stablecoin or a token never priced), or
   * undefined for a price read from the chain at each block (LP tokens, vault shares).
   */
  async function stepSources(chainId: string, address: string): Promise<PriceSource[] | undefined> {
    const rules = registry.pricing(chainId);
    if (!rules) {
      const source = options.chains ? pricedImplementation(chainId, address) : undefined;
      return source ? stepSources(source.chainId, source.token) : [];
    }
    const token = address === '' ? rules.wrapped_native : address;
    if (rules.usd_stablecoins.includes(token)) return [];
    const derived = options.derived.get(chainId);
    const composition = derived ? await derived.composition(token) : { kind: 'market' as const };
    return composition.kind === 'market' ? implementations(chainId, token) : undefined;
  }

  /** One Redis read for a whole call, started at once: planning, the history and the head reads each waited for one of their own before. */
  function readTokens(): Promise<SharedChangeTokens | undefined> {
    const tokens = options.tokens ? options.tokens() : Promise.resolve(undefined);
    tokens.catch(() => undefined);
    return tokens;
  }

  async function pricesUnder(
    currency: Currency,
    queries: readonly PriceQuery[],
    tokens: Promise<SharedChangeTokens | undefined>,
  ): Promise<(number | undefined)[]> {
    const rollbackEpoch = async () => (await tokens)?.everything;
    const headScope = options.heads ? tokens.then((inForce) => options.heads!.scope(inForce)) : undefined;
    headScope?.catch(() => undefined);
    /** A read at the head, through `heads` when there is one. */
    const atHead = async <T>(key: string, load: () => Promise<T>): Promise<T> => (headScope ? (await headScope).read(key, load) : load());
    const lookups: PriceLookup[] = [];
    /** A token on a chain whose history is looked up, with the index of its lookup at each time asked. */
    type Source = { chainId: string; token: string; lookupAt: Map<number, number> };
    const sourceByKey = new Map<string, Source>();
    const sourceOf = (chainId: string, token: string): Source => {
      const key = `${chainId}:${token}`;
      return sourceByKey.get(key) ?? sourceByKey.set(key, { chainId, token, lookupAt: new Map() }).get(key)!;
    };
    // One lookup per source and time, without a key built per query: a batch of legs asks few tokens at many times.
    const lookup = (source: Source, timestamp: number): number => {
      let index = source.lookupAt.get(timestamp);
      if (index === undefined) {
        index = lookups.push({ chainId: source.chainId, token: source.token, timestamp }) - 1;
        source.lookupAt.set(timestamp, index);
      }
      return index;
    };
    /** How a token's market price at a time is planned, its rules and sources found once. */
    const marketPlanner = (chainId: string, token: string): ((timestamp: number) => Plan) => {
      const rules = registry.pricing(chainId);
      if (!rules) return () => ({ kind: 'none' });
      if (rules.usd_stablecoins.includes(token)) return () => ({ kind: 'fixed', usd: 1 });
      const refs = implementations(chainId, token).map((ref) => sourceOf(ref.chainId, ref.token));
      return (timestamp) => ({ kind: 'market', lookups: refs.map((source) => lookup(source, timestamp)), maxDeviation: rules.max_deviation });
    };
    const marketPlan = (chainId: string, token: string, timestamp: number): Plan => marketPlanner(chainId, token)(timestamp);

    // Most tokens are neither LP nor vault shares: the market lookups of a token whose composition
    // is still to be found are read from the history meanwhile (a never-seen token's costs a
    // contract call), and the read below finds them kept or in flight.
    const ahead: PriceLookup[] = [];

    /** How a token's price at a time is planned: at once for most tokens, after chain reads for LP and vault shares. */
    type Route = (timestamp: number) => Plan | Promise<Plan>;

    /** The route of a token, its composition read once however many times it is asked at. */
    async function routeOf(chainId: string, address: string, timestamps: readonly number[]): Promise<Route> {
      const rules = registry.pricing(chainId);
      if (!rules) {
        // The fungible's one price, planned exactly as a query for its priced implementation.
        const source = options.chains ? pricedImplementation(chainId, address) : undefined;
        return source ? routeOf(source.chainId, source.token, timestamps) : () => ({ kind: 'none' });
      }
      const at = (timestamp: number) => (timestamp === 0 ? latestTimestamp : timestamp);
      const token = address === '' ? rules.wrapped_native : address;
      const derived = options.derived.get(chainId);
      const composed = derived !== undefined && !rules.usd_stablecoins.includes(token);
      if (composed)
        for (const ref of implementations(chainId, token))
          for (const timestamp of timestamps) ahead.push({ chainId: ref.chainId, token: ref.token, timestamp: at(timestamp) });
      const composition = composed ? await derived.composition(token) : { kind: 'market' as const };
      if (composition.kind === 'market') {
        const planned = marketPlanner(chainId, token);
        return (timestamp) => planned(at(timestamp));
      }
      return async (queryTimestamp) => {
        const timestamp = at(queryTimestamp);
        const clock = options.clocks.get(chainId);
        const block = queryTimestamp === 0 || !clock ? undefined : await clock.blockAt(queryTimestamp, await rollbackEpoch());
        if (queryTimestamp !== 0 && block === undefined) return { kind: 'none' };
        if (composition.kind === 'lp') {
          const decimals = await options.decimals(chainId, [composition.token0, composition.token1, token]);
          const [d0, d1, dLp] = [decimals.get(composition.token0), decimals.get(composition.token1), decimals.get(token)];
          if (d0 === undefined || d1 === undefined || dLp === undefined) return { kind: 'none' };
          return {
            kind: 'lp',
            chainId,
            pair: token,
            token0: marketPlan(chainId, composition.token0, timestamp),
            token1: marketPlan(chainId, composition.token1, timestamp),
            decimals: [d0, d1, dLp],
            block,
          };
        }
        const decimals = await options.decimals(chainId, [token, composition.asset]);
        const [shareDecimals, assetDecimals] = [decimals.get(token), decimals.get(composition.asset)];
        if (shareDecimals === undefined || assetDecimals === undefined) return { kind: 'none' };
        return { kind: 'vault', chainId, vault: token, asset: marketPlan(chainId, composition.asset, timestamp), shareDecimals, assetDecimals, block };
      };
    }

    // Queries grouped by token: a batch of a thousand legs of a few tokens plans a few tokens.
    const byToken = new Map<string, { chainId: string; address: string; timestamps: number[] }>();
    const tokenOf = queries.map((query) => {
      if ('usd' in query) return undefined;
      if (!options.networks.has(query.chainId)) throw invalidArgument(`chain ${query.chainId} is not supported`);
      const address = normalizedAddress(query.chainId, query.address);
      const key = `${query.chainId}:${address}`;
      const group = byToken.get(key) ?? byToken.set(key, { chainId: query.chainId, address, timestamps: [] }).get(key)!;
      group.timestamps.push(query.timestamp);
      return key;
    });
    // Each route runs up to its first wait here, which fills `ahead`. A failed read ahead is met again below.
    const routing = [...byToken].map(([key, group]) => routeOf(group.chainId, group.address, group.timestamps).then((route) => [key, route] as const));
    if (ahead.length > 0) tokens.then((inForce) => options.history.pricesAt(ahead, inForce)).catch(() => undefined);
    const routes = new Map(await Promise.all(routing));
    const plans = await settled(
      queries.map((query, index): Plan | Promise<Plan> =>
        tokenOf[index] === undefined ? { kind: 'fixed', usd: 1 } : routes.get(tokenOf[index])!(query.timestamp),
      ),
    );
    const times = [...new Set(queries.map((query) => (query.timestamp === 0 ? latestTimestamp : query.timestamp)))];
    const currencyPricing = registry.pricing(currencyChainId);
    // The crypto currencies are the one price of ether and of the first priced bitcoin token.
    const currencyPlans = new Map<number, { eth: Plan; btc: Plan[] }>();
    if ((currency === 'eth' || currency === 'btc') && currencyPricing) {
      for (const time of times) {
        currencyPlans.set(time, {
          eth: marketPlan(currencyChainId, currencyPricing.wrapped_native, time),
          btc: currencyPricing.btc.map((token) => marketPlan(currencyChainId, token, time)),
        });
      }
    }

    const history = await options.history.pricesAt(lookups, await tokens);

    /** A plan's USD price: at once from the history read, after a chain read for LP and vault shares. */
    function usdOf(step: Plan): number | undefined | Promise<number | undefined> {
      switch (step.kind) {
        case 'none':
          return undefined;
        case 'fixed':
          return step.usd;
        case 'market':
          return onePrice(
            step.lookups.map((index) => history[index]),
            step.maxDeviation,
          );
        case 'lp':
        case 'vault':
          return composedUsd(step);
      }
    }

    async function composedUsd(step: Extract<Plan, { kind: 'lp' | 'vault' }>): Promise<number | undefined> {
      switch (step.kind) {
        case 'lp': {
          const [price0, price1] = await Promise.all([usdOf(step.token0), usdOf(step.token1)]);
          if (price0 === undefined || price1 === undefined) return undefined;
          const derived = options.derived.get(step.chainId)!;
          const reserves = step.block
            ? await derived.lpReserves(step.pair, step.block)
            : await atHead(`lp:${step.chainId}:${step.pair}`, () => derived.lpReserves(step.pair));
          if (reserves.totalSupply === 0n) return undefined;
          const [d0, d1, dLp] = step.decimals;
          return (whole(reserves.reserve0, d0) * price0 + whole(reserves.reserve1, d1) * price1) / whole(reserves.totalSupply, dLp);
        }
        case 'vault': {
          const assetPrice = await usdOf(step.asset);
          if (assetPrice === undefined) return undefined;
          const derived = options.derived.get(step.chainId)!;
          const shares = 10n ** BigInt(step.shareDecimals);
          const assets = step.block
            ? await derived.vaultAssets(step.vault, shares, step.block)
            : await atHead(`vault:${step.chainId}:${step.vault}:${shares}`, () => derived.vaultAssets(step.vault, shares));
          // A vault that did not exist yet at that block has no price then.
          if (assets === undefined) return undefined;
          return whole(assets, step.assetDecimals) * assetPrice;
        }
      }
    }

    const usd = await settled(plans.map(usdOf));
    const crypto = new Map<number, { eth: number | undefined; btc: number | undefined }>();
    for (const [time, plan] of currencyPlans) {
      const btc = await Promise.all(plan.btc.map(usdOf));
      crypto.set(time, { eth: await usdOf(plan.eth), btc: btc.find((price) => price !== undefined) });
    }
    return usd.map((value, index) => {
      if (value === undefined) return undefined;
      const query = queries[index]!;
      return convertUsd(
        value,
        currency,
        options.fx,
        crypto.get(query.timestamp === 0 ? latestTimestamp : query.timestamp) ?? { eth: undefined, btc: undefined },
      );
    });
  }

  return {
    prices: (currency, queries) => pricesUnder(currency, queries, readTokens()),

    async series(currency, queries) {
      const tokens = readTokens();
      const asked = queries.map((query) => {
        if (!options.networks.has(query.chainId)) throw invalidArgument(`chain ${query.chainId} is not supported`);
        if (!(query.from > 0 && query.from <= query.to))
          throw invalidArgument(`price series from ${query.from} to ${query.to} should be unix seconds, from above 0 and at most to`);
        return { ...query, address: normalizedAddress(query.chainId, query.address) };
      });
      // An eth or btc answer divides by ether's or bitcoin's price at the same time: their steps are the series' too.
      const currencyPricing = registry.pricing(currencyChainId);
      const currencySources =
        (currency === 'eth' || currency === 'btc') && currencyPricing
          ? [currencyPricing.wrapped_native, ...currencyPricing.btc].flatMap((token) => implementations(currencyChainId, token))
          : [];
      const sources = await Promise.all(asked.map((query) => stepSources(query.chainId, query.address)));
      const inForce = await tokens;
      const times = await Promise.all(
        asked.map(async (query, index) => {
          if (sources[index] === undefined) return undefined;
          // The series' first step is `from`: the changes after it may be one fewer than the steps asked for.
          const changes = await options.history.changeTimes(
            [...sources[index], ...currencySources],
            query.from,
            query.to,
            inForce,
            query.maxSteps ? query.maxSteps - 1 : undefined,
          );
          return changes && [query.from, ...changes];
        }),
      );
      const lookups = asked.flatMap((query, index) => (times[index] ?? []).map((timestamp) => ({ chainId: query.chainId, address: query.address, timestamp })));
      const answers = await pricesUnder(currency, lookups, tokens);
      let next = 0;
      return times.map((stepTimes) => {
        if (stepTimes === undefined) return undefined;
        const steps: PriceSteps = { times: [], prices: [] };
        for (const time of stepTimes) {
          const price = answers[next++];
          // A time the price did not change at is no step.
          if (steps.times.length > 0 && steps.prices.at(-1) === price) continue;
          steps.times.push(time);
          steps.prices.push(price);
        }
        return steps;
      });
    },
  };
}
