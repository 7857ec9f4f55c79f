import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import type { Organization } from '../auth/authenticate.js';
import type { Backends } from '../grpc/backends.js';
import type { ChainCatalog } from '../grpc/chain-catalog.js';
import { apiError } from '../http/api-error.js';
import { toRequestContext } from './request-context.js';
import { familyOf } from './wallet-scope.js';

// A subscription that names its chains watches each address on those of its family: an address
// no named chain could carry (a Solana address with chain_ids [base]) would never be delivered a
// transaction, so whichever request would bring the two together is a 400 naming the parameter.
// Empty chain_ids (every eligible chain) carries every address.

const familyNames: Partial<Record<ChainFamily, string>> = { [ChainFamily.CHAIN_FAMILY_EVM]: 'an EVM', [ChainFamily.CHAIN_FAMILY_SOLANA]: 'a Solana' };

/** The families of `chainIds` in `families` (chain id to family); unknown ids name none. */
const namedFamilies = (families: ReadonlyMap<string, ChainFamily>, chainIds: readonly string[]) =>
  new Set(chainIds.flatMap((id) => (families.has(id) ? [families.get(id)!] : [])));

/** The first address of a family no named chain has, as its index; -1 when every address has one (or the list names none). */
export function firstUncarriedAddress(addresses: readonly string[], chainIds: readonly string[], families: ReadonlyMap<string, ChainFamily>): number {
  if (chainIds.length === 0) return -1;
  const named = namedFamilies(families, chainIds);
  return addresses.findIndex((address) => !named.has(familyOf(address)));
}

/** Chain id to family over both networks: a stored subscription's chains are of its network, which the wallet routes do not name. */
async function familiesOfEveryNetwork(catalog: ChainCatalog, organization: Organization): Promise<Map<string, ChainFamily>> {
  const lists = await Promise.all((['testnet', undefined] as const).map((network) => catalog.list(toRequestContext(organization, network))));
  return new Map(lists.flat().map((chain) => [chain.id, chain.family]));
}

function refuse(parameter: string, address: string, chainIds: readonly string[], naming: string): never {
  throw apiError(400, `parameter ${parameter}: is ${familyNames[familyOf(address)]} address, and ${naming} no chain of its family (${chainIds.join(', ')})`);
}

/** On create: each address against the chain_ids of the same request. */
export async function checkAddressFamilies(
  catalog: ChainCatalog,
  context: RequestContext,
  addresses: readonly string[],
  chainIds: readonly string[],
): Promise<void> {
  if (chainIds.length === 0) return;
  const families = new Map((await catalog.list(context)).map((chain) => [chain.id, chain.family]));
  const index = firstUncarriedAddress(addresses, chainIds, families);
  if (index !== -1) refuse(`addresses[${index}]`, addresses[index]!, chainIds, 'chain_ids names');
}

/** On adding or replacing wallets: each new address against the stored subscription's chain_ids. */
export async function checkNewWalletFamilies(
  backends: Pick<Backends, 'chains' | 'subscription'>,
  organization: Organization,
  subscriptionId: string,
  addresses: { parameter: string; list: readonly string[] },
): Promise<void> {
  if (addresses.list.length === 0) return;
  const { subscription } = backends;
  const { chainIds } = await unary(
    subscription,
    subscription.getSubscription,
    { context: toRequestContext(organization, undefined), subscriptionId },
    { name: 'Subscription/GetSubscription' },
  );
  if (chainIds.length === 0) return;
  const index = firstUncarriedAddress(addresses.list, chainIds, await familiesOfEveryNetwork(backends.chains, organization));
  if (index !== -1) refuse(`${addresses.parameter}[${index}]`, addresses.list[index]!, chainIds, "the subscription's chain_ids name");
}

/** Wallets read per page while looking for one the new chain_ids would not carry (the service's largest page). */
const walletsPage = 2000;

/**
 * On replacing chain_ids: the stored wallets against the new list. Read only when the list leaves
 * a family out, a page at a time; a subscription holds at most a few thousand wallets.
 */
export async function checkChainIdsCarryWallets(
  backends: Pick<Backends, 'chains' | 'subscription'>,
  context: RequestContext,
  organization: Organization,
  subscriptionId: string,
  chainIds: readonly string[],
): Promise<void> {
  if (chainIds.length === 0) return;
  const families = new Map((await backends.chains.list(context)).map((chain) => [chain.id, chain.family]));
  if (namedFamilies(families, chainIds).size === Object.keys(familyNames).length) return;
  const { subscription } = backends;
  let after = '';
  do {
    const page = await unary(
      subscription,
      subscription.listWallets,
      { context: toRequestContext(organization, undefined), subscriptionId, after, pageSize: walletsPage },
      { name: 'Subscription/ListWallets' },
    );
    const index = firstUncarriedAddress(page.addresses, chainIds, families);
    if (index !== -1) {
      const address = page.addresses[index]!;
      throw apiError(
        400,
        `parameter chain_ids: names no chain of the family of the subscription's wallet ${address} (${familyNames[familyOf(address)]} address): ${chainIds.join(', ')}`,
      );
    }
    after = page.nextCursor;
  } while (after !== '');
}
