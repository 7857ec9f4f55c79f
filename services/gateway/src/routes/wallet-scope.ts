import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain, type ChainFlags, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import type { ChainCatalog } from '../grpc/chain-catalog.js';
import { apiError } from '../http/api-error.js';
import { evmAddressPattern } from '../schemas/wallet-query.js';

/** A chain flag a wallet endpoint needs; named in the 400 detail (`chain <id> does not support <capability>`). */
export type ChainCapability = 'transactions' | 'positions';

const flags: Record<ChainCapability, keyof ChainFlags> = {
  transactions: 'supportsTransactions',
  positions: 'supportsPositions',
};

const lacking = (chain: Chain, capabilities: readonly ChainCapability[]) =>
  capabilities.find((capability) => !(chain.flags?.[flags[capability]] ?? false));

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
    if (capability) throw apiError(400, `chain ${id} does not support ${capability}`);
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

/**
 * The wallet a request is about and the chains to read for it. Chain problems are answered before
 * an untracked address, so a client fixing its filter learns about the address next.
 */
export async function resolveWalletScope(
  { referenceData, chains: catalog }: { referenceData: ReferenceDataClient; chains: ChainCatalog },
  request: { context: RequestContext; address: string; chainIds: readonly string[] | undefined; capabilities: readonly ChainCapability[] },
): Promise<WalletScope> {
  const { context } = request;
  const evm = evmAddressPattern.test(request.address);
  const address = evm ? request.address.toLowerCase() : request.address;
  const family = evm ? ChainFamily.CHAIN_FAMILY_EVM : ChainFamily.CHAIN_FAMILY_SOLANA;
  const [chains, classification] = await Promise.all([
    catalog.list(context),
    unary(referenceData, referenceData.classifyAddress, { context, address }, { name: 'ReferenceData/ClassifyAddress' }),
  ]);
  const chainIds = selectChains(chains, family, request.chainIds, request.capabilities);
  if (!classification.tracked) throw apiError(400, classification.reason || `address ${address} is not tracked`);
  return { address, family, chainIds };
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
