import { invalidArgument, notFound, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { FungiblesService, type FungiblesServer } from '@wallet-api/core/proto/fungibles';
import type { FungibleList } from '../fungibles/fungible-list.js';
import { currencies, isCurrency, type Currency } from '../prices/currencies.js';

/** Page sizes the list serves (decisions.md "Fungibles"). */
export const maxFungiblesPageSize = 100;

export function fungiblesService(list: FungibleList): ServiceRegistration {
  const currencyOf = (value: string): Currency => {
    const currency = value.trim().toLowerCase() || 'usd';
    if (!isCurrency(currency)) throw invalidArgument(`currency ${value} should be one of ${currencies.join(', ')}`);
    return currency;
  };
  return registration<FungiblesServer>('walletapi.fungibles.Fungibles', FungiblesService, {
    async listFungibles(request) {
      const pageSize = request.pageSize === 0 ? maxFungiblesPageSize : request.pageSize;
      if (pageSize > maxFungiblesPageSize) throw invalidArgument(`page[size] should be from 1 to ${maxFungiblesPageSize}`);
      const { fungibles, nextCursor } = await list.list({
        network: request.context?.network ?? Network.NETWORK_MAINNET,
        currency: currencyOf(request.currency),
        addons: request.context?.addons ?? [],
        searchQuery: request.searchQuery.trim(),
        implementationChainId: request.implementationChainId,
        implementationAddress: request.implementationAddress,
        fungibleImplementations: request.fungibleImplementations,
        fungibleIds: request.fungibleIds,
        assetClasses: request.assetClasses,
        hasAssetClass: request.hasAssetClass,
        sort: request.sort,
        pageSize,
        pageAfter: request.pageAfter,
      });
      return { fungibles, nextCursor };
    },
    async getListedFungible(request) {
      if ((request.fungibleId === '') === (request.implementation === undefined)) throw invalidArgument('give either fungible_id or implementation');
      const found = await list.get({
        network: request.context?.network ?? Network.NETWORK_MAINNET,
        currency: currencyOf(request.currency),
        addons: request.context?.addons ?? [],
        ...(request.implementation ? { implementation: request.implementation } : { fungibleId: request.fungibleId }),
      });
      if (!found) {
        throw notFound(
          request.implementation
            ? `no fungible is implemented at ${request.implementation.chainId}:${request.implementation.address}`
            : `fungible ${request.fungibleId} is not known`,
        );
      }
      return found;
    },
  });
}
