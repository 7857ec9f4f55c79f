import { notFound, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { ReferenceDataService, type ReferenceDataServer } from '@wallet-api/core/proto/reference_data';
import type { ChainRegistry } from '../chains/chain-registry.js';

export function referenceDataService(chains: ChainRegistry): ServiceRegistration {
  return registration<ReferenceDataServer>('walletapi.referencedata.ReferenceData', ReferenceDataService, {
    async listChains(request) {
      return { chains: chains.list(request.context?.network ?? Network.NETWORK_MAINNET) };
    },
    async getChain(request) {
      const chain = chains.get(request.context?.network ?? Network.NETWORK_MAINNET, request.chainId);
      if (!chain) throw notFound(`chain ${request.chainId} is not supported`);
      return chain;
    },
  });
}
