import { invalidArgument, unavailable } from '@wallet-api/core/grpc';
import { rpcFailure } from './rpc-errors.js';
import type { Logger } from '@wallet-api/core/logger';
import { Network } from '@wallet-api/core/proto/common';
import { TokenInterface, type TokenInfo, type TokenRef } from '@wallet-api/core/proto/reference_data';
import type { Address } from 'viem';
import type { ChainConfig } from '../chains/chain-config.js';
import type { Registry } from '../registry/registry.js';
import type { TokenStore } from '../store/token-store.js';
import type { ContractTokenMetadata } from './token-decode.js';
import { derivedFungibleId, isSpamToken } from './token-flags.js';
import type { TokenReader } from './token-reader.js';

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
  /** One reader per EVM chain id. */
  readers: ReadonlyMap<string, TokenReader>;
  /** How long a contract that answered no token call is remembered as such (it may be deployed or upgraded later). */
  notTokenTtlMs?: number;
  /** Tokens kept in memory; the oldest entries go first. */
  cacheSize?: number;
}

const evmAddress = /^0x[0-9a-f]{40}$/;

const interfaceOf: Record<ContractTokenMetadata['interface'], TokenInterface> = {
  erc20: TokenInterface.TOKEN_INTERFACE_ERC20,
  erc721: TokenInterface.TOKEN_INTERFACE_ERC721,
  erc1155: TokenInterface.TOKEN_INTERFACE_ERC1155,
};

type CacheEntry = { token: ContractTokenMetadata; expiresAt?: never } | { token: undefined; expiresAt: number };

export function createTokenCatalog(options: TokenCatalogOptions): TokenCatalog {
  const { registry, store, readers } = options;
  const notTokenTtlMs = options.notTokenTtlMs ?? 10 * 60_000;
  const cacheSize = options.cacheSize ?? 100_000;
  const chains = new Map(options.chains.map((chain) => [chain.id, chain]));
  const nativeSymbols = new Set(options.chains.map((chain) => chain.native.symbol.toUpperCase()));
  const cache = new Map<string, CacheEntry>();
  // A token asked for by several calls at once is read from the chain once.
  const reading = new Map<string, Promise<ContractTokenMetadata | undefined>>();

  const key = (chainId: string, address: string) => `${chainId}:${address}`;

  function remember(cacheKey: string, entry: CacheEntry) {
    cache.delete(cacheKey);
    cache.set(cacheKey, entry);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  }

  function cached(cacheKey: string): CacheEntry | undefined {
    const entry = cache.get(cacheKey);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      cache.delete(cacheKey);
      return undefined;
    }
    return entry;
  }

  function normalize(ref: TokenRef): TokenRef {
    const chain = chains.get(ref.chainId);
    if (!chain) throw invalidArgument(`chain ${ref.chainId} is not supported`);
    const address = ref.address.trim().toLowerCase();
    if (address === '') return { chainId: ref.chainId, address };
    if (chain.family !== 'evm') throw invalidArgument(`chain ${ref.chainId} does not support token lookup by contract address`);
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
      return { chainId: ref.chainId, address: ref.address, interface: TokenInterface.TOKEN_INTERFACE_UNKNOWN, name: '', symbol: '', decimals: 0, fungibleId: '', iconUrl: '', verified: false, isSpam: false };
    }
    const verified = registry.verifiedToken(ref.chainId, ref.address);
    const fungible = token.interface === 'erc20';
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
    };
  }

  /** The contract's metadata from its chain; one read at a time per token, however many requests ask. */
  async function readFromChain(ref: TokenRef): Promise<ContractTokenMetadata | undefined> {
    const cacheKey = key(ref.chainId, ref.address);
    let pending = reading.get(cacheKey);
    if (!pending) {
      pending = (async () => {
        try {
          return await readers.get(ref.chainId)!.read(ref.address as Address);
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
    const read = await Promise.all(unread.map(readFromChain));
    // One INSERT for every token read: a wallet's first request can bring hundreds (about 40 ms
    // together against 370 ms one by one). Remembered once stored, so memory never runs ahead of the table.
    await store.save(unread.flatMap((ref, index) => (read[index] ? [{ chainId: ref.chainId, address: ref.address, ...read[index] }] : [])));
    unread.forEach((ref, index) => {
      const token = read[index];
      found.set(key(ref.chainId, ref.address), token);
      remember(key(ref.chainId, ref.address), token ? { token } : { token: undefined, expiresAt: Date.now() + notTokenTtlMs });
    });
    return found;
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
