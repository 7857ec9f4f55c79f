import { addressFamily, canonicalWallet, type AddressFamily } from '@wallet-api/core/addresses';
import type { Dapp } from '@wallet-api/core/proto/reference_data';
import type { ChainPricingConfig, ChainProtocolsConfig, DappConfig, RegistryConfig, VerifiedTokenConfig } from './registry-config.js';

export interface VerifiedToken {
  fungibleId: string;
  symbol: string;
  name: string;
  iconUrl: string;
}

export interface TokenRefKey {
  chainId: string;
  address: string;
}

/**
 * Lookups over the merged registry. EVM address arguments are matched case-insensitively; Solana
 * ones (base58, case-sensitive) exactly as written.
 */
export interface Registry {
  dappForContract(chainId: string, address: string): Dapp | undefined;
  verifiedToken(chainId: string, address: string): VerifiedToken | undefined;
  /** A verified fungible by id, with all its implementations, class and non-circulating holders. */
  fungible(fungibleId: string): VerifiedTokenConfig | undefined;
  /** Implementations of verified tokens whose symbol equals `symbol`, ignoring case. */
  verifiedImplementationsBySymbol(symbol: string): TokenRefKey[];
  /** Whether a verified token uses this symbol (ignoring case): a different contract using it is a look-alike. */
  isVerifiedSymbol(symbol: string): boolean;
  isListedSpam(chainId: string, address: string): boolean;
  isConfiguredBurn(address: string): boolean;
  /** The configured name of a high-volume address. */
  highVolumeName(address: string): string | undefined;
  /** The chain's protocol contracts; empty lists for a chain the registry says nothing about. */
  protocols(chainId: string): ChainProtocolsConfig;
  /** Where the chain's prices are routed; undefined for a chain without pricing, whose tokens have no price. */
  pricing(chainId: string): ChainPricingConfig | undefined;
}

const key = (chainId: string, address: string) => `${chainId}:${canonicalWallet(address)}`;

/**
 * The entries of `config` tied to a chain (verified implementations, non-circulating holders, spam
 * tokens, dapp contracts) whose address is not of that chain's family; chains `families` does not
 * know are not checked. Each problem names the entry, the chain and the address.
 */
export function registryFamilyProblems(config: RegistryConfig, families: ReadonlyMap<string, AddressFamily>): string[] {
  const problems: string[] = [];
  const check = (where: string, chainId: string, address: string) => {
    const family = families.get(chainId);
    if (family && addressFamily(address) !== family)
      problems.push(`${where}: ${address} on ${chainId} is not ${family === 'evm' ? 'an EVM' : 'a Solana'} address`);
  };
  for (const token of config.tokens) {
    for (const implementation of token.implementations) check(`tokens ${token.fungible_id} implementation`, implementation.chain_id, implementation.address);
    for (const holder of token.non_circulating_holders) check(`tokens ${token.fungible_id} non-circulating holder`, holder.chain_id, holder.address);
  }
  for (const [chainId, addresses] of Object.entries(config.spam_tokens)) for (const address of addresses) check('spam_tokens', chainId, address);
  for (const dapp of config.dapps) {
    for (const [chainId, addresses] of Object.entries(dapp.contracts)) for (const address of addresses) check(`dapps ${dapp.id} contract`, chainId, address);
  }
  return problems;
}

/**
 * `families` (chain id to address family, from the chains configuration) refuses an entry whose
 * address is of the other family than its chain: a 0x address listed on `solana`, a mint on `base`.
 */
/** A registry dapp as the API serves it (spec 2.9). */
export function toDapp(entry: DappConfig): Dapp {
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    iconUrl: entry.icon_url,
    url: entry.url,
    managePositionsUrl: entry.manage_positions_url,
    externalLinks: entry.external_links.map((link) => ({ url: link.url, type: link.type, name: link.name })),
  };
}

export function createRegistry(config: RegistryConfig, families?: ReadonlyMap<string, AddressFamily>): Registry {
  const problems = families ? registryFamilyProblems(config, families) : [];
  if (problems.length > 0) throw new Error(`registry: addresses of the wrong family for their chain:\n  ${problems.join('\n  ')}`);
  const dappByContract = new Map<string, Dapp>();
  for (const entry of config.dapps) {
    const dapp = toDapp(entry);
    for (const [chainId, addresses] of Object.entries(entry.contracts)) {
      for (const address of addresses) {
        const earlier = dappByContract.get(key(chainId, address));
        // One contract, one dapp: a second claim is a mistake in the files, not a tie to break silently.
        if (earlier && earlier.id !== dapp.id) {
          throw new Error(`registry: ${chainId} contract ${address} is listed under both ${earlier.id} and ${dapp.id}`);
        }
        dappByContract.set(key(chainId, address), dapp);
      }
    }
  }

  const verifiedByImplementation = new Map<string, VerifiedToken>();
  const implementationsBySymbol = new Map<string, TokenRefKey[]>();
  for (const token of config.tokens) {
    const verified = { fungibleId: token.fungible_id, symbol: token.symbol, name: token.name, iconUrl: token.icon_url };
    const symbol = token.symbol.toUpperCase();
    for (const implementation of token.implementations) {
      verifiedByImplementation.set(key(implementation.chain_id, implementation.address), verified);
      implementationsBySymbol.set(symbol, [
        ...(implementationsBySymbol.get(symbol) ?? []),
        { chainId: implementation.chain_id, address: implementation.address },
      ]);
    }
  }

  const fungibles = new Map(config.tokens.map((token) => [token.fungible_id, token]));
  const spam = new Set(Object.entries(config.spam_tokens).flatMap(([chainId, addresses]) => addresses.map((address) => key(chainId, address))));
  const burns = new Set(config.burn_addresses);
  const highVolume = new Map(config.high_volume_addresses.map((entry) => [entry.address, entry.name]));
  // Configured addresses are canonical already (EVM lowercase, Solana as written); so are the lookups'.

  return {
    dappForContract: (chainId, address) => dappByContract.get(key(chainId, address)),
    verifiedToken: (chainId, address) => verifiedByImplementation.get(key(chainId, address)),
    fungible: (fungibleId) => fungibles.get(fungibleId),
    verifiedImplementationsBySymbol: (symbol) => implementationsBySymbol.get(symbol.toUpperCase()) ?? [],
    isVerifiedSymbol: (symbol) => implementationsBySymbol.has(symbol.toUpperCase()),
    isListedSpam: (chainId, address) => spam.has(key(chainId, address)),
    isConfiguredBurn: (address) => burns.has(canonicalWallet(address)),
    highVolumeName: (address) => highVolume.get(canonicalWallet(address)),
    protocols: (chainId) => config.protocols[chainId] ?? { uniswap_v2: [], uniswap_v3: [], vaults: [], staking: [], lending: [], nft_markets: [] },
    pricing: (chainId) => config.pricing[chainId],
  };
}
