import type { RequestContext } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain, type ChainFlags } from '@wallet-api/core/proto/reference_data';
import type { AddressTracking } from '../grpc/address-tracking.js';
import type { ChainCatalog } from '../grpc/chain-catalog.js';
import { apiError } from '../http/api-error.js';
import { evmAddressPattern } from '../schemas/wallet-query.js';

/** A chain flag a wallet endpoint needs; named in the 400 detail (`chain <id> does not support <capability>`). */
export type ChainCapability = 'transactions' | 'positions' | 'nft_positions';

const flags: Record<ChainCapability, keyof ChainFlags> = {
  transactions: 'supportsTransactions',
  positions: 'supportsPositions',
  nft_positions: 'supportsNftPositions',
};

/** How the 400 detail names each capability, as the spec words it (`chain <id> does not support positions`). */
const capabilityWords: Record<ChainCapability, string> = {
  transactions: 'transactions',
  positions: 'positions',
  nft_positions: 'NFT positions',
};

/** Whether a chain serves a capability: `supports_nft_positions` for the NFT endpoints' references, say. */
export const chainSupports = (chain: Chain, capability: ChainCapability): boolean => chain.flags?.[flags[capability]] ?? false;

const lacking = (chain: Chain, capabilities: readonly ChainCapability[]) => capabilities.find((capability) => !chainSupports(chain, capability));

/**
 * The chains to read: those named, each checked (listed for this network, reporting every
 * capability, of the address's family), or else every chain of the network that qualifies.
 */
export function selectChains(
  chains: readonly Chain[],
  family: ChainFamily,
  requested: readonly string[] | undefined,
  capabilities: readonly ChainCapability[],
): string[] {
  const missing = (chain: Chain) => lacking(chain, capabilities);
  if (!requested) return chains.filter((chain) => missing(chain) === undefined && chain.family === family).map((chain) => chain.id);
  const byId = new Map(chains.map((chain) => [chain.id, chain]));
  for (const id of requested) {
    const chain = byId.get(id);
    if (!chain) throw apiError(400, `parameter filter[chain_ids]: chain ${id} is not supported`);
    const capability = missing(chain);
    if (capability) throw apiError(400, `chain ${id} does not support ${capabilityWords[capability]}`);
    if (chain.family !== family) throw apiError(400, `chain ${id} does not support this wallet address type`);
  }
  return [...new Set(requested)];
}

export interface WalletScope {
  /** EVM addresses lowercased; Solana addresses keep their case (base58). */
  address: string;
  family: ChainFamily;
  chainIds: string[];
}

type ScopeBackends = { chains: ChainCatalog; tracking: AddressTracking };
type ScopeRequest = { context: RequestContext; address: string; chainIds: readonly string[] | undefined; capabilities: readonly ChainCapability[] };

export interface UncheckedWalletScope extends WalletScope {
  /** Settles once reference-data says whether the address is tracked: rejects with the 400 when it is not. */
  tracked: Promise<void>;
}

/**
 * The wallet a request is about and the chains to read for it, without waiting for whether the
 * address is tracked: a read without side effects can run meanwhile (see whenTracked). Chain
 * problems are answered before an untracked address, so a client fixing its filter learns about
 * the address next.
 */
export async function resolveUncheckedWalletScope({ tracking, chains: catalog }: ScopeBackends, request: ScopeRequest): Promise<UncheckedWalletScope> {
  const { context } = request;
  const evm = evmAddressPattern.test(request.address);
  const address = evm ? request.address.toLowerCase() : request.address;
  const family = evm ? ChainFamily.CHAIN_FAMILY_EVM : ChainFamily.CHAIN_FAMILY_SOLANA;
  const tracked = tracking.classify(context, address).then((classification) => {
    if (!classification.tracked) throw apiError(400, classification.reason || `address ${address} is not tracked`);
  });
  // Awaited by the caller, or left when a chain problem is thrown first.
  tracked.catch(() => undefined);
  const chainIds = selectChains(await catalog.list(context), family, request.chainIds, request.capabilities);
  return { address, family, chainIds, tracked };
}

/** The wallet a request is about and the chains to read for it, once the address is known to be tracked. */
export async function resolveWalletScope(backends: ScopeBackends, request: ScopeRequest): Promise<WalletScope> {
  const { tracked, ...scope } = await resolveUncheckedWalletScope(backends, request);
  await tracked;
  return scope;
}

/**
 * A read without side effects, started before the address is known to be tracked: its answer
 * once it is, the tracking 400 otherwise (the read's own outcome then dropped). A cache miss thus
 * waits for one hop fewer.
 */
export async function whenTracked<T>(scope: Pick<UncheckedWalletScope, 'tracked'>, read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  await scope.tracked;
  return read;
}

/** What a chain needs to carry transaction webhooks: decoded history, and balances for the wallet's reading of it. */
export const webhookCapabilities: readonly ChainCapability[] = ['transactions', 'positions'];

/**
 * The chains a transaction subscription names (spec 4.10), each listed for the request's network
 * and reporting both capabilities; any other (unknown chains included) is refused with the spec's
 * one wording, whichever flag it lacks. Kept once each, in the order given; empty stays empty
 * (every chain that passes, decided when delivering).
 */
export function checkSubscriptionChains(chains: readonly Chain[], requested: readonly string[]): string[] {
  const byId = new Map(chains.map((chain) => [chain.id, chain]));
  for (const id of requested) {
    const chain = byId.get(id);
    if (!chain || lacking(chain, webhookCapabilities)) throw apiError(400, `chain ${id} does not support transactions`);
  }
  return [...new Set(requested)];
}

/** `checkSubscriptionChains` against reference-data's chains of the request's network; no call for an empty list. */
export async function gateSubscriptionChains(catalog: ChainCatalog, context: RequestContext, requested: readonly string[]): Promise<string[]> {
  if (requested.length === 0) return [];
  return checkSubscriptionChains(await catalog.list(context), requested);
}

/** The chain family an address belongs to (its shape was checked before). */
export const familyOf = (address: string) => (evmAddressPattern.test(address) ? ChainFamily.CHAIN_FAMILY_EVM : ChainFamily.CHAIN_FAMILY_SOLANA);

/**
 * The scope of each address of a wallet set, in the order given. `filter[chain_ids]` restricts
 * the set as a whole: each address is checked against the named chains less those of another
 * address's family, so `ethereum,solana` reads the EVM wallet on ethereum and the Solana wallet on
 * solana instead of refusing each chain for the other address. Every other chain stays named for
 * every address and gets the wallet endpoint's 400: unknown, lacking a capability, or (in a
 * one-address set, where no address could read it) of the other family. A family whose chains
 * are all left out of the filter reads none, like a wallet whose filter names none of its chains.
 */
export async function resolveWalletSetScopes(
  backends: ScopeBackends,
  request: { context: RequestContext; addresses: readonly string[]; chainIds: readonly string[] | undefined; capabilities: readonly ChainCapability[] },
): Promise<WalletScope[]> {
  const { context, addresses, chainIds: requested, capabilities } = request;
  const families = addresses.map(familyOf);
  const chainFamilies = requested ? new Map((await backends.chains.list(context)).map((chain) => [chain.id, chain.family])) : undefined;
  const scopes = await Promise.all(
    addresses.map((address, index) => {
      const chainIds = requested?.filter((id) => {
        const family = chainFamilies?.get(id);
        return family === undefined || family === families[index] || !families.includes(family);
      });
      return resolveUncheckedWalletScope(backends, { context, address, chainIds, capabilities });
    }),
  );
  // Both lookups are in flight; awaited in order so that the first untracked address is the one reported.
  for (const scope of scopes) await scope.tracked;
  return scopes.map(({ tracked: _tracked, ...scope }) => scope);
}
