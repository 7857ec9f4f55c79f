import { isSolanaAddress } from '@wallet-api/core/addresses';
import { GrpcError, invalidArgument, unavailable } from '@wallet-api/core/grpc';
import { rpcFailure } from './rpc-errors.js';
import type { Logger } from '@wallet-api/core/logger';
import { Network } from '@wallet-api/core/proto/common';
import { TokenInterface, type ScaledUiAmount, type TokenInfo, type TokenRef } from '@wallet-api/core/proto/reference_data';
import type { ChainConfig } from '../chains/chain-config.js';
import type { Registry } from '../registry/registry.js';
import type { TokenStore } from '../store/token-store.js';
import type { ContractTokenMetadata } from './token-decode.js';
import { derivedFungibleId, isSpamToken } from './token-flags.js';
import type { ChainTokenMetadata, TokenReader } from './token-reader.js';

export interface TokenCatalog {
  /** Every requested token, in request order; unknown tokens are read from their chain once and stored. */
  getTokens(refs: readonly TokenRef[]): Promise<TokenInfo[]>;
  /** Stored and verified tokens on the network's chains whose symbol equals `symbol`, ignoring case. */
  findBySymbol(symbol: string, network: Network): Promise<TokenInfo[]>;
}

export interface TokenCatalogOptions {
  chains: readonly ChainConfig[];
  registry: Registry;
  store: TokenStore;
  logger: Logger;
  /** One reader per chain id: EVM contracts, Solana mints. */
  readers: ReadonlyMap<string, TokenReader>;
  /** How long a contract that answered no token call is remembered as such (it may be deployed or upgraded later). */
  notTokenTtlMs?: number;
  /**
   * How long a Solana mint's ScaledUiAmount config is served before the mint is read again (its
   * multiplier changes with the authority's UpdateMultiplier); default 15 s. A mint without the
   * extension is read once per process (extensions are fixed when a mint is created).
   */
  scaledTtlMs?: number;
  /** Tokens kept in memory; the oldest entries go first. */
  cacheSize?: number;
  /** Milliseconds since 1970, for the expiries above. */
  now?: () => number;
}

const evmAddress = /^0x[0-9a-f]{40}$/;

const interfaceOf: Record<ContractTokenMetadata['interface'], TokenInterface> = {
  erc20: TokenInterface.TOKEN_INTERFACE_ERC20,
  erc721: TokenInterface.TOKEN_INTERFACE_ERC721,
  erc1155: TokenInterface.TOKEN_INTERFACE_ERC1155,
};

type CacheEntry = { token: ContractTokenMetadata; expiresAt?: never } | { token: undefined; expiresAt: number };

/** A Solana mint's scaling as last read: `config` undefined for a mint without the extension. */
interface Scaling {
  config: ScaledUiAmount | undefined;
  readAt: number;
}

/** The metadata that is stored: what a chain read says less what changes (the scaled config). */
function storable(token: ChainTokenMetadata): ContractTokenMetadata {
  const { scaledUiAmount: _changing, ...metadata } = token;
  return metadata;
}

export function createTokenCatalog(options: TokenCatalogOptions): TokenCatalog {
  const { registry, store, readers } = options;
  const notTokenTtlMs = options.notTokenTtlMs ?? 10 * 60_000;
  const scaledTtlMs = options.scaledTtlMs ?? 15_000;
  const cacheSize = options.cacheSize ?? 100_000;
  const now = options.now ?? Date.now;
  const chains = new Map(options.chains.map((chain) => [chain.id, chain]));
  const nativeSymbols = new Set(options.chains.map((chain) => chain.native.symbol.toUpperCase()));
  const cache = new Map<string, CacheEntry>();
  // A token asked for by several calls at once is read from the chain once.
  const reading = new Map<string, Promise<ChainTokenMetadata | undefined>>();
  // Solana mints read by this process: their scaled config, kept apart from the stored metadata.
  const scalings = new Map<string, Scaling>();
  const isSolana = (chainId: string) => chains.get(chainId)?.family === 'solana';

  const key = (chainId: string, address: string) => `${chainId}:${address}`;

  function remember(cacheKey: string, entry: CacheEntry) {
    cache.delete(cacheKey);
    cache.set(cacheKey, entry);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  }

  function rememberScaling(cacheKey: string, token: ChainTokenMetadata | undefined) {
    scalings.delete(cacheKey);
    scalings.set(cacheKey, { config: token?.scaledUiAmount, readAt: now() });
    if (scalings.size > cacheSize) scalings.delete(scalings.keys().next().value!);
  }

  /** Whether a Solana mint's scaling is unknown to this process, or scaled and older than the TTL. */
  function scalingStale(cacheKey: string): boolean {
    const scaling = scalings.get(cacheKey);
    return scaling === undefined || (scaling.config !== undefined && scaling.readAt + scaledTtlMs <= now());
  }

  function cached(cacheKey: string): CacheEntry | undefined {
    const entry = cache.get(cacheKey);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      cache.delete(cacheKey);
      return undefined;
    }
    return entry;
  }

  /** EVM addresses in lowercase; Solana mints as written (base58 is case-sensitive). */
  function normalize(ref: TokenRef): TokenRef {
    const chain = chains.get(ref.chainId);
    if (!chain) throw invalidArgument(`chain ${ref.chainId} is not supported`);
    const trimmed = ref.address.trim();
    if (trimmed === '') return { chainId: ref.chainId, address: '' };
    if (chain.family === 'solana') {
      if (!isSolanaAddress(trimmed)) throw invalidArgument(`token address ${ref.address} should be a valid Solana address (base58 mint address)`);
      return { chainId: ref.chainId, address: trimmed };
    }
    const address = trimmed.toLowerCase();
    if (!evmAddress.test(address)) throw invalidArgument(`token address ${ref.address} should be a valid EVM address`);
    return { chainId: ref.chainId, address };
  }

  function nativeInfo(chain: ChainConfig): TokenInfo {
    return {
      chainId: chain.id,
      address: '',
      interface: TokenInterface.TOKEN_INTERFACE_NATIVE,
      name: chain.native.name,
      symbol: chain.native.symbol,
      decimals: chain.native.decimals,
      fungibleId: chain.native_fungible_id,
      iconUrl: '',
      verified: true,
      isSpam: false,
    };
  }

  function tokenInfo(ref: TokenRef, token: ContractTokenMetadata | undefined): TokenInfo {
    if (!token) {
      return {
        chainId: ref.chainId,
        address: ref.address,
        interface: TokenInterface.TOKEN_INTERFACE_UNKNOWN,
        name: '',
        symbol: '',
        decimals: 0,
        fungibleId: '',
        iconUrl: '',
        verified: false,
        isSpam: false,
      };
    }
    const verified = registry.verifiedToken(ref.chainId, ref.address);
    const fungible = token.interface === 'erc20';
    const scaled = scalings.get(key(ref.chainId, ref.address))?.config;
    return {
      chainId: ref.chainId,
      address: ref.address,
      interface: interfaceOf[token.interface],
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      fungibleId: fungible ? (verified?.fungibleId ?? derivedFungibleId(ref.chainId, ref.address)) : '',
      iconUrl: verified?.iconUrl ?? '',
      verified: verified !== undefined,
      isSpam: isSpamToken({ chainId: ref.chainId, address: ref.address, name: token.name, symbol: token.symbol }, registry, nativeSymbols),
      ...(scaled ? { scaledUiAmount: scaled } : {}),
    };
  }

  /** The token's metadata from its chain; one read at a time per token, however many requests ask. */
  async function readFromChain(ref: TokenRef): Promise<ChainTokenMetadata | undefined> {
    const cacheKey = key(ref.chainId, ref.address);
    let pending = reading.get(cacheKey);
    if (!pending) {
      pending = (async () => {
        const reader = readers.get(ref.chainId);
        if (!reader) throw unavailable(`chain ${ref.chainId} has no token reader`);
        try {
          const token = await reader.read(ref.address);
          if (isSolana(ref.chainId)) rememberScaling(cacheKey, token);
          return token;
        } catch (error) {
          options.logger.warn({ reason: rpcFailure(error), chainId: ref.chainId, address: ref.address }, 'token metadata read failed');
          throw unavailable(`chain ${ref.chainId} did not answer the token metadata calls; retry later`);
        }
      })().finally(() => reading.delete(cacheKey));
      reading.set(cacheKey, pending);
    }
    return pending;
  }

  async function resolve(refs: readonly TokenRef[]): Promise<Map<string, ContractTokenMetadata | undefined>> {
    const found = new Map<string, ContractTokenMetadata | undefined>();
    const missing: TokenRef[] = [];
    for (const ref of refs) {
      if (ref.address === '' || found.has(key(ref.chainId, ref.address))) continue;
      const entry = cached(key(ref.chainId, ref.address));
      if (entry) found.set(key(ref.chainId, ref.address), entry.token);
      else missing.push(ref);
    }
    const stored = await store.find(missing);
    for (const token of stored) {
      const { chainId, address, ...metadata } = token;
      found.set(key(chainId, address), metadata);
      remember(key(chainId, address), { token: metadata });
    }
    const unread = missing.filter((ref) => !found.has(key(ref.chainId, ref.address)));
    // Solana mints known as tokens whose scaling this process has not read, or read too long ago
    // for a scaled one, are read again alongside the unknown tokens.
    const rescaled = new Map<string, TokenRef>();
    for (const ref of refs) {
      const cacheKey = key(ref.chainId, ref.address);
      if (ref.address !== '' && isSolana(ref.chainId) && found.get(cacheKey) !== undefined && scalingStale(cacheKey)) rescaled.set(cacheKey, ref);
    }
    const [read] = await Promise.all([Promise.all(unread.map(readFromChain)), Promise.all([...rescaled.values()].map(rescale))]);
    // One INSERT for every token read: a wallet's first request can bring hundreds (about 40 ms
    // together against 370 ms one by one). Remembered once stored, so memory never runs ahead of the table.
    await store.save(unread.flatMap((ref, index) => (read[index] ? [{ chainId: ref.chainId, address: ref.address, ...storable(read[index]) }] : [])));
    unread.forEach((ref, index) => {
      const token = read[index] && storable(read[index]);
      found.set(key(ref.chainId, ref.address), token);
      remember(key(ref.chainId, ref.address), token ? { token } : { token: undefined, expiresAt: now() + notTokenTtlMs });
    });
    return found;
  }

  /**
   * Reads a known Solana mint again for its scaling. When the chain does not answer, a scaled
   * config read before is served as it was (a multiplier changes rarely; the stale one is closer
   * than none); a mint this process never read fails the request, since serving it unscaled
   * could be wrong by the multiplier.
   */
  async function rescale(ref: TokenRef): Promise<void> {
    try {
      await readFromChain(ref);
    } catch (error) {
      const earlier = scalings.get(key(ref.chainId, ref.address));
      if (earlier === undefined || !(error instanceof GrpcError)) throw error;
      options.logger.warn(
        { chainId: ref.chainId, address: ref.address, readAt: new Date(earlier.readAt).toISOString() },
        'serving a stale ScaledUiAmount config',
      );
    }
  }

  async function getTokens(refs: readonly TokenRef[]): Promise<TokenInfo[]> {
    const normalized = refs.map(normalize);
    const found = await resolve(normalized);
    return normalized.map((ref) => (ref.address === '' ? nativeInfo(chains.get(ref.chainId)!) : tokenInfo(ref, found.get(key(ref.chainId, ref.address)))));
  }

  return {
    getTokens,
    async findBySymbol(symbol, network) {
      const wanted = symbol.trim();
      if (wanted === '') throw invalidArgument('symbol should not be empty');
      const networkName = network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet';
      const onNetwork = options.chains.filter((chain) => chain.network === networkName);
      const chainIds = new Set(onNetwork.map((chain) => chain.id));
      const refs = new Map<string, TokenRef>();
      for (const chain of onNetwork) {
        if (chain.native.symbol.toUpperCase() === wanted.toUpperCase()) refs.set(key(chain.id, ''), { chainId: chain.id, address: '' });
      }
      for (const token of await store.findBySymbol(wanted, [...chainIds])) refs.set(key(token.chainId, token.address), token);
      for (const implementation of registry.verifiedImplementationsBySymbol(wanted)) {
        if (chainIds.has(implementation.chainId)) refs.set(key(implementation.chainId, implementation.address), implementation);
      }
      const tokens = await getTokens([...refs.values()]);
      // A registry entry whose contract answers another symbol (or nothing) is not a match.
      return tokens.filter((token) => token.symbol.toUpperCase() === wanted.toUpperCase());
    },
  };
}
