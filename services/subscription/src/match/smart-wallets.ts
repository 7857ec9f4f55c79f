import { unary } from '@wallet-api/core/grpc';
import { Network as ProtoNetwork } from '@wallet-api/core/proto/common';
import { AddressKind, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createExpiringCache } from '@wallet-api/core/reference-data';
import type { Network } from './subscription-entry.js';

/** Whether an address is a Safe-style or ERC-4337 smart-contract wallet (reference-data's classification, cached). */
export type SmartWalletCheck = (address: string, network: Network) => Promise<boolean>;

export function createSmartWalletCheck(referenceData: ReferenceDataClient): SmartWalletCheck {
  // An address's code rarely changes kind; a day keeps classification calls off the hot path.
  const cache = createExpiringCache<boolean>({ ttlMs: 24 * 60 * 60_000, maxEntries: 100_000 });
  return async (address, network) => {
    const key = `${network}:${address}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const context = {
      organizationId: '',
      roles: [],
      addons: [],
      network: network === 'testnet' ? ProtoNetwork.NETWORK_TESTNET : ProtoNetwork.NETWORK_MAINNET,
    };
    const { kind } = await unary(referenceData, referenceData.classifyAddress, { context, address }, { name: 'ReferenceData/ClassifyAddress' });
    const smart = kind === AddressKind.ADDRESS_KIND_SAFE || kind === AddressKind.ADDRESS_KIND_SMART_ACCOUNT;
    cache.set(key, smart);
    return smart;
  };
}
