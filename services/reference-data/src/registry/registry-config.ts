import { readFile } from 'node:fs/promises';
import { isSolanaAddress } from '@wallet-api/core/addresses';
import { isAddress } from 'viem';
import { z } from 'zod';

// All-lowercase addresses pass; mixed-case ones must carry a valid EIP-55 checksum, which catches
// a mistyped address copied into the file by hand.
const address = z
  .string()
  .refine((value) => isAddress(value, { strict: true }), { message: 'must be a 0x address (mixed case only with a valid checksum)' })
  .transform((value) => value.toLowerCase());

/**
 * A token, contract or wallet address of either family: an EVM address as above (lowercased) or a
 * Solana address (base58 of 32 bytes), kept as written since base58 is case-sensitive. The two
 * forms cannot be confused (base58 has no `0`). Which family a chain-keyed entry must have is
 * checked against the chains configuration when the registry is built (`createRegistry`).
 */
const anyAddress = z.string().transform((value, context) => {
  if (isAddress(value, { strict: true })) return value.toLowerCase();
  if (isSolanaAddress(value)) return value;
  context.addIssue({ code: 'custom', message: 'must be a 0x address (mixed case only with a valid checksum) or a Solana address (base58, 32 bytes)' });
  return z.NEVER;
});
const chainId = z.string().regex(/^[a-z0-9-]{1,32}$/, 'chain ids are lowercase letters, digits and dashes');
const optionalUrl = z.union([z.url(), z.literal('')]).default('');

export const dappConfigSchema = z.object({
  // Dapp ids appear in `filter[dapp_ids]`, whose items are 1 to 32 characters (spec 8).
  id: z.string().regex(/^[a-z0-9-]{1,32}$/, 'dapp ids are 1 to 32 lowercase letters, digits and dashes'),
  name: z.string().min(1),
  description: z.string().default(''),
  icon_url: optionalUrl,
  url: optionalUrl,
  manage_positions_url: optionalUrl,
  contracts: z.record(chainId, z.array(anyAddress)).default({}),
  /** Spec 2.9 `external_links` (spec 2.1 ExternalLink): the dapp's pages elsewhere, such as docs or a social account. */
  external_links: z.array(z.object({ url: z.url(), type: z.string().min(1), name: z.string().min(1) })).default([]),
});

const assetClass = z.enum(['commodity', 'tokenized_stock', 'tokenized_treasury', 'stablecoin', 'other_financial', 'other_non_financial', 'unknown']);

export const verifiedTokenConfigSchema = z.object({
  // Fungible ids are opaque, stable and at most 44 characters (decisions.md).
  fungible_id: z.string().regex(/^[a-z0-9-]{1,44}$/, 'fungible ids are 1 to 44 lowercase letters, digits and dashes'),
  symbol: z.string().min(1),
  name: z.string().min(1),
  icon_url: optionalUrl,
  implementations: z.array(z.object({ chain_id: chainId, address: anyAddress })).min(1),
  /** Spec 2.2 asset_class, served only to organizations with the classification add-on. */
  asset_class: assetClass.optional(),
  /** Holders whose balances are not circulating (treasuries, locked vesting contracts). */
  non_circulating_holders: z.array(z.object({ chain_id: chainId, address: anyAddress })).default([]),
});

/** A chain's protocol contracts that position adapters read and price sources trust. */
export const chainProtocolsSchema = z.object({
  // `router` (V2 Router02), `swap_router` and `quoter` (V3 SwapRouter, QuoterV2): what swap quotes
  // quote and trade through; an entry without them is read for positions and prices only.
  uniswap_v2: z.array(z.object({ factory: address, pairs: z.array(address).default([]), router: address.optional() })).default([]),
  uniswap_v3: z.array(z.object({ factory: address, position_manager: address, swap_router: address.optional(), quoter: address.optional() })).default([]),
  /** ERC-4626 vaults, priced as their share of the underlying asset. */
  vaults: z.array(address).default([]),
  staking: z.array(address).default([]),
  lending: z.array(address).default([]),
  /** Fixed-price NFT markets of the devnet kind (Listed and Sold events): floors and last sales. */
  nft_markets: z.array(address).default([]),
});

/** `pricing.max_deviation` when a chain's entry leaves it out. */
export const defaultMaxDeviation = 0.1;

/** What a chain's on-chain prices are routed to. */
export const chainPricingSchema = z
  .object({
    /** Tokens worth one US dollar by definition. */
    usd_stablecoins: z.array(address).min(1),
    /** Priced from its stablecoin pools first; the other tokens' pools against it route through it. */
    wrapped_native: address,
    /** The token(s) whose price is the `btc` currency, in order of preference. */
    btc: z.array(address).default([]),
    /** A pool holding less than this (both sides, in USD) sets no price. */
    min_liquidity_usd: z.number().nonnegative(),
    /** A pool whose price is further than this (relative) from its pools' depth-weighted median sets no price. */
    max_deviation: z.number().positive().default(defaultMaxDeviation),
  })
  .refine((pricing) => !pricing.usd_stablecoins.includes(pricing.wrapped_native), {
    message: 'the wrapped native token cannot be a USD stablecoin',
    path: ['wrapped_native'],
  });

export const registryFileSchema = z.object({
  dapps: z.array(dappConfigSchema).default([]),
  /** The verified list: tokens known to be the real asset, grouped into one fungible across chains. */
  tokens: z.array(verifiedTokenConfigSchema).default([]),
  /** Token and NFT contracts known to be spam, by chain id. */
  spam_tokens: z.record(chainId, z.array(anyAddress)).default({}),
  /** Burn addresses besides the built-in ones (zero, 0x…dead, 0xdead…0), of either family. */
  burn_addresses: z.array(anyAddress).default([]),
  /** Exchange hot wallets and other addresses whose history is too large to serve, of either family. */
  high_volume_addresses: z.array(z.object({ address: anyAddress, name: z.string().min(1) })).default([]),
  /** By chain id. A later file's entry for a chain replaces an earlier one: a chain's deployment is described whole. */
  protocols: z.record(chainId, chainProtocolsSchema).default({}),
  /** By chain id, replaced per chain like `protocols`. */
  pricing: z.record(chainId, chainPricingSchema).default({}),
});

export type DappConfig = z.infer<typeof dappConfigSchema>;
export type VerifiedTokenConfig = z.infer<typeof verifiedTokenConfigSchema>;
export type ChainProtocolsConfig = z.infer<typeof chainProtocolsSchema>;
export type ChainPricingConfig = z.infer<typeof chainPricingSchema>;
export type RegistryConfig = z.infer<typeof registryFileSchema>;

export function parseRegistryConfig(json: unknown, source: string): RegistryConfig {
  const result = registryFileSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid registry ${source}:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  return [...new Set([...a, ...b])];
}

function mergeRecords(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const merged = { ...a };
  for (const [key, values] of Object.entries(b)) merged[key] = union(merged[key] ?? [], values);
  return merged;
}

/**
 * Combines registries, later ones extending earlier ones: a dapp or verified token with an id seen
 * before keeps the new metadata and gains the new contracts or implementations, so a deployment's
 * file can add its own contracts to a dapp the shipped file already describes. Protocols and
 * pricing are replaced per chain instead: a devnet chain named `ethereum` must not inherit
 * mainnet's factories or stablecoins.
 */
export function mergeRegistries(registries: readonly RegistryConfig[]): RegistryConfig {
  const dapps = new Map<string, DappConfig>();
  const tokens = new Map<string, VerifiedTokenConfig>();
  const merged: RegistryConfig = { dapps: [], tokens: [], spam_tokens: {}, burn_addresses: [], high_volume_addresses: [], protocols: {}, pricing: {} };
  for (const registry of registries) {
    for (const dapp of registry.dapps) {
      const earlier = dapps.get(dapp.id);
      dapps.set(dapp.id, earlier ? { ...dapp, contracts: mergeRecords(earlier.contracts, dapp.contracts) } : dapp);
    }
    for (const token of registry.tokens) {
      const earlier = tokens.get(token.fungible_id);
      const implementations = [...(earlier?.implementations ?? [])];
      for (const implementation of token.implementations) {
        if (!implementations.some((known) => known.chain_id === implementation.chain_id && known.address === implementation.address)) {
          implementations.push(implementation);
        }
      }
      const holders = [...(earlier?.non_circulating_holders ?? [])];
      for (const holder of token.non_circulating_holders) {
        if (!holders.some((known) => known.chain_id === holder.chain_id && known.address === holder.address)) holders.push(holder);
      }
      tokens.set(token.fungible_id, { ...token, asset_class: token.asset_class ?? earlier?.asset_class, implementations, non_circulating_holders: holders });
    }
    Object.assign(merged.protocols, registry.protocols);
    Object.assign(merged.pricing, registry.pricing);
    merged.spam_tokens = mergeRecords(merged.spam_tokens, registry.spam_tokens);
    merged.burn_addresses = union(merged.burn_addresses, registry.burn_addresses);
    for (const entry of registry.high_volume_addresses) {
      if (!merged.high_volume_addresses.some((known) => known.address === entry.address)) merged.high_volume_addresses.push(entry);
    }
  }
  merged.dapps = [...dapps.values()];
  merged.tokens = [...tokens.values()];
  return merged;
}

/** `REGISTRY_PATHS`: comma-separated files merged over the shipped registry, in order. */
export function registryPaths(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
}

export async function loadRegistryConfig(paths: readonly string[]): Promise<RegistryConfig> {
  const registries = await Promise.all(
    paths.map(async (path) => {
      let json: unknown;
      try {
        json = JSON.parse(await readFile(path, 'utf8'));
      } catch (error) {
        throw new Error(`cannot read registry ${path}: ${(error as Error).message}`);
      }
      return parseRegistryConfig(json, path);
    }),
  );
  return mergeRegistries(registries);
}
