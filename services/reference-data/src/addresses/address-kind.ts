import { AddressKind, type AddressClassification } from '@wallet-api/core/proto/reference_data';

/** What one chain says about an address. */
export type OnChainKind = 'none' | 'safe' | 'smart-account' | 'contract';

export function burnClassification(address: string): AddressClassification {
  return {
    address,
    kind: AddressKind.ADDRESS_KIND_BURN,
    tracked: false,
    reason: `address ${address} is a burn address; its transactions are not tracked`,
  };
}

export function highVolumeClassification(address: string, name: string): AddressClassification {
  return {
    address,
    kind: AddressKind.ADDRESS_KIND_HIGH_VOLUME,
    tracked: false,
    reason: `address ${address} (${name}) has too many transactions to serve; its transactions are not tracked`,
  };
}

/**
 * One verdict from every chain of a network. A wallet deployed on one chain is a wallet everywhere
 * (its address is counterfactual on the others), so a wallet kind wins over a plain contract; an
 * address without code on any chain is an EOA.
 */
export function classifyFromChains(address: string, kinds: readonly OnChainKind[]): AddressClassification {
  if (kinds.includes('safe')) return { address, kind: AddressKind.ADDRESS_KIND_SAFE, tracked: true, reason: '' };
  if (kinds.includes('smart-account')) return { address, kind: AddressKind.ADDRESS_KIND_SMART_ACCOUNT, tracked: true, reason: '' };
  if (kinds.includes('contract')) {
    return {
      address,
      kind: AddressKind.ADDRESS_KIND_CONTRACT,
      tracked: false,
      reason: `address ${address} is a contract that is not a smart-contract wallet; its transactions are not tracked`,
    };
  }
  return { address, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' };
}
