import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * What a change to a wallet's data touched: its transaction history (the indexer's rows), what
 * it holds (the positions service's balances and protocol positions), its balances over time
 * (the chart service's balance changes), or its NFTs (the nft service's holdings and metadata). An answer is kept under the tokens of the kinds it reads,
 * so a transfer's balance update does not recompute the wallet's transaction pages, nor its
 * transaction row the wallet's positions; each service marks its own kind once it can serve the
 * change, so no answer is kept from before a service applied it.
 */
export type WalletData = 'history' | 'holdings' | 'charts' | 'nfts';

/** The tokens of changes that reach every wallet: rollbacks and revived blocks (`everything`), price moves (`prices`). */
export interface SharedChangeTokens {
  everything: string;
  prices: string;
}

/** The shared tokens and one wallet's (or, for a wallet set, each wallet's in turn), per kind of its data in the order asked: what one MGET reads. */
export interface WalletChangeTokens extends SharedChangeTokens {
  wallet: readonly string[];
}

/** `ChangeVersions.current`'s string of these tokens. */
export const currentVersion = (tokens: WalletChangeTokens): string => [tokens.everything, tokens.prices, ...tokens.wallet].join('/');
/** Like currentVersion but blind to price moves: what parts of answers that value nothing are kept under. */
export const unpricedVersion = (tokens: WalletChangeTokens): string => [tokens.everything, ...tokens.wallet].join('/');
/** `ChangeVersions.everything`'s string of these tokens. */
export const sharedVersion = (tokens: SharedChangeTokens): string => `${tokens.everything}/${tokens.prices}`;

/**
 * What the gateway's answer cache is validated against: a token per wallet and kind of data,
 * replaced whenever a service stores something that changes one of the wallet's answers, one for
 * changes that reach every wallet (rollbacks, revived blocks), and one for price moves, which
 * change every valued answer but nothing a wallet holds or did. Writers replace tokens after the
 * change is stored and before its Kafka offsets are committed; readers take the tokens before
 * they compute. So an answer computed under a token can only miss a change whose new token the
 * next reader sees, and once a consumer's offsets show a change, no reader gets an answer from
 * before it.
 */
export interface ChangeVersions {
  /** The wallets' data of this kind changed. */
  walletsChanged(wallets: Iterable<string>, data: WalletData): Promise<void>;
  /** Every wallet's answers changed: blocks stopped or started counting. Implies a price change too. */
  everythingChanged(): Promise<void>;
  /**
   * Prices or market data moved: every valued answer changed, what wallets hold and did did not.
   * `prepare` runs with the tokens about to be in force, before they are: a cache can be filled
   * under them so that the readers that follow find it ready. Its failure is its own to handle.
   */
  pricesChanged(prepare?: (tokens: SharedChangeTokens) => Promise<void>, move?: PriceMove): Promise<void>;
  /**
   * NFT floors or sales moved: the valued NFT answers changed, no fungible price did. Reads of
   * `nfts` data see it as a price move (their `prices` token carries it); no other read does, so
   * a floor moving on one chain does not recompute every wallet's fungible answers.
   */
  nftMarketChanged(): Promise<void>;
  /**
   * The earliest time (unix seconds) a price may have moved at since `pricesToken` was in force:
   * Infinity when it still is, undefined when the moves since are not all known (a move older
   * than the log, or one announced without its time). Prices of earlier times are as they were.
   */
  pricesMovedSince(pricesToken: string): Promise<number | undefined>;
  /**
   * The wallet's tokens for these kinds of its data, and the shared ones, as one string; two reads
   * are equal only if nothing an answer reading that data depends on changed between them.
   */
  current(wallet: string, data: readonly WalletData[]): Promise<string>;
  /**
   * The tokens `current` reads, apart: one read from which `current`, `everything` and the
   * version blind to price moves (unpricedVersion, what parts of answers that value nothing are
   * kept under) are all formed, for a computation that needs several. Several wallets (a wallet
   * set's answer) are read in the same MGET, their tokens one wallet after the other.
   */
  walletTokens(wallet: string | readonly string[], data: readonly WalletData[]): Promise<WalletChangeTokens>;
  /** The tokens of changes reaching every wallet alone: what caches of prices and market data are kept under. */
  everything(): Promise<string>;
  /** The same two tokens apart, for caches that keep some things across price moves but none across rollbacks. */
  everythingAndPrices(): Promise<SharedChangeTokens>;
}

/** What a price move touched: prices of times from `since` (unix seconds) on. */
export interface PriceMove {
  since: number;
}

/** Price moves remembered for `pricesMovedSince`: a reader further behind starts afresh. */
const priceMoveLog = 1_000;

export interface ChangeVersionsOptions {
  /** Starts every key: keeps stacks that share one Redis apart (REDIS_KEY_PREFIX; tests use their own). */
  keyPrefix?: string;
  /**
   * A wallet token is dropped this long after its last change, so Redis holds tokens of recently
   * active wallets only. Readers must not keep an answer this long: a dropped token reads as
   * absent again, like before the wallet's first change.
   */
  walletTokenTtlSeconds?: number;
}

/** Wallets are compared as the services store them: EVM addresses in lower case, Solana ones as they are. */
export const walletVersionKey = (wallet: string): string => (wallet.startsWith('0x') || wallet.startsWith('0X') ? wallet.toLowerCase() : wallet);

/** Wallets per pipeline: keeps one batch's commands from holding Redis up. */
const pipelineChunk = 1_000;

export function createChangeVersions(redis: Redis, options: ChangeVersionsOptions = {}): ChangeVersions {
  const prefix = `${options.keyPrefix ?? 'wallet-api'}:changes`;
  const everything = `${prefix}:all`;
  const prices = `${prefix}:prices`;
  const priceMoves = `${prefix}:price-moves`;
  const nftMarket = `${prefix}:nft-market`;
  const walletKey = (wallet: string, data: WalletData) => `${prefix}:wallet:${data}:${walletVersionKey(wallet)}`;
  const walletKeys = (wallet: string, data: readonly WalletData[]) => data.map((kind) => walletKey(wallet, kind));
  const ttl = options.walletTokenTtlSeconds ?? 7 * 24 * 60 * 60;

  async function walletTokens(wallet: string | readonly string[], data: readonly WalletData[]): Promise<WalletChangeTokens> {
    const readsNfts = data.includes('nfts');
    const keys = typeof wallet === 'string' ? walletKeys(wallet, data) : wallet.flatMap((each) => walletKeys(each, data));
    const [everythingToken, pricesToken, ...rest] = (await redis.mget(everything, prices, ...(readsNfts ? [nftMarket] : []), ...keys)).map(
      (token) => token ?? '-',
    );
    const walletTokenList = readsNfts ? rest.slice(1) : rest;
    return { everything: everythingToken!, prices: readsNfts ? `${pricesToken}+${rest[0]}` : pricesToken!, wallet: walletTokenList };
  }

  async function everythingAndPrices(): Promise<SharedChangeTokens> {
    const [everythingToken, pricesToken] = await redis.mget(everything, prices);
    return { everything: everythingToken ?? '-', prices: pricesToken ?? '-' };
  }

  return {
    async walletsChanged(wallets, data) {
      const keys = [...new Set([...wallets].map((wallet) => walletKey(wallet, data)))];
      for (let start = 0; start < keys.length; start += pipelineChunk) {
        const pipeline = redis.pipeline();
        for (const key of keys.slice(start, start + pipelineChunk)) pipeline.set(key, randomUUID(), 'EX', ttl);
        const results = (await pipeline.exec()) ?? [];
        const failed = results.find(([error]) => error);
        if (failed) throw failed[0];
      }
    },
    async everythingChanged() {
      await redis.set(everything, randomUUID());
    },
    async pricesChanged(prepare, move) {
      const token = randomUUID();
      if (prepare) await prepare({ everything: (await redis.get(everything)) ?? '-', prices: token });
      // The token and its move in one transaction: a reader never sees one without the other.
      const results = await redis
        .multi()
        .set(prices, token)
        .lpush(priceMoves, `${token} ${move?.since ?? 'unknown'}`)
        .ltrim(priceMoves, 0, priceMoveLog - 1)
        .exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    },
    async nftMarketChanged() {
      await redis.set(nftMarket, randomUUID());
    },
    async pricesMovedSince(pricesToken) {
      const [current, log] = await Promise.all([redis.get(prices), redis.lrange(priceMoves, 0, -1)]);
      if ((current ?? '-') === pricesToken) return Infinity;
      let earliest = Infinity;
      for (const entry of log) {
        const [token, since] = entry.split(' ');
        if (token === pricesToken) return earliest;
        const time = Number(since);
        if (!Number.isFinite(time)) return undefined;
        earliest = Math.min(earliest, time);
      }
      // Before the first move there was no token ('-'): a log not yet full holds every move since.
      return pricesToken === '-' && log.length < priceMoveLog ? earliest : undefined;
    },
    async everything() {
      return sharedVersion(await everythingAndPrices());
    },
    everythingAndPrices,
    walletTokens,
    async current(wallet, data) {
      return currentVersion(await walletTokens(wallet, data));
    },
  };
}

/**
 * A Redis client for a service marking or reading change tokens: commands fail within seconds
 * while Redis is away, so a batch fails and is delivered again, and a reader computes afresh.
 * Commands issued in the same turn of the event loop (a gateway under load reads a token for
 * every request) go out in one write. `redis` is the connection, for what a service keeps beside
 * its change tokens.
 */
export function connectChangeVersions(
  url: string,
  options: ChangeVersionsOptions & { onError(error: Error): void },
): { versions: ChangeVersions; redis: Redis; close(): void } {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, commandTimeout: 2_000, enableAutoPipelining: true });
  redis.on('error', options.onError);
  return { versions: createChangeVersions(redis, options), redis, close: () => redis.disconnect() };
}
