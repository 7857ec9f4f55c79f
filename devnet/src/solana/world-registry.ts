// The registry entries of a world's Solana chains, in the shape registry/registry.ts writes, for
// merging into the devnet registry: the real mints join the verified list under the same fungible
// ids as the EVM tokens (lowercase symbol, so Solana USDC is the `usdc` fungible of the EVM USDC),
// the spam mint joins the spam list. Solana addresses are base58 and case-sensitive: they are kept
// as they are, never lowercased.
import type { DevnetRegistry, RegistryToken } from '../registry/registry-shape.js';
import type { SolanaWorldManifest } from './world-manifest.js';

export type SolanaRegistryEntries = Pick<DevnetRegistry, 'tokens' | 'spam_tokens'>;

export function solanaRegistryEntries(worlds: readonly SolanaWorldManifest[]): SolanaRegistryEntries {
  const tokens = new Map<string, RegistryToken>();
  const spam: Record<string, string[]> = {};
  for (const world of worlds) {
    for (const mint of world.mints) {
      if (mint.kind === 'spam') {
        (spam[world.id] ??= []).push(mint.address);
        continue;
      }
      const fungibleId = mint.symbol.toLowerCase();
      const entry: RegistryToken = tokens.get(fungibleId) ?? {
        fungible_id: fungibleId,
        symbol: mint.symbol,
        name: mint.name,
        icon_url: '',
        implementations: [],
        ...(mint.kind === 'stable' ? { asset_class: 'stablecoin' as const } : {}),
        // Issuers mint straight into wallets and keep no stock: nothing is held off the market.
        non_circulating_holders: [],
      };
      entry.implementations.push({ chain_id: world.id, address: mint.address });
      tokens.set(fungibleId, entry);
    }
  }
  return { tokens: [...tokens.values()], spam_tokens: spam };
}

/**
 * Merges Solana entries into a registry derived from the EVM chains: a fungible both have (USDC)
 * gains the Solana implementations, the others are appended; spam lists are added by chain.
 */
export function withSolanaRegistryEntries(registry: DevnetRegistry, entries: SolanaRegistryEntries): DevnetRegistry {
  const tokens = registry.tokens.map((token) => ({ ...token, implementations: [...token.implementations] }));
  for (const token of entries.tokens) {
    const known = tokens.find((candidate) => candidate.fungible_id === token.fungible_id);
    if (known) known.implementations.push(...token.implementations);
    else tokens.push(token);
  }
  return { ...registry, tokens, spam_tokens: { ...registry.spam_tokens, ...entries.spam_tokens } };
}
