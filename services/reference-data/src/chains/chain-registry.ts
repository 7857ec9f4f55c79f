import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';
import type { ChainConfig } from './chain-config.js';

export interface ChainRegistry {
  list(network: Network): Chain[];
  /** The chain if the list for `network` contains it; aliases and the other network's chains do not count. */
  get(network: Network, chainId: string): Chain | undefined;
  /** The chain with this id on either network, for calls that name a chain rather than a network. */
  find(chainId: string): Chain | undefined;
}

export function toChain(config: ChainConfig): Chain {
  return {
    id: config.id,
    name: config.name,
    externalId: config.external_id ?? `0x${config.evm_chain_id!.toString(16)}`,
    iconUrl: config.icon_url,
    explorer: {
      name: config.explorer.name,
      tokenUrlFormat: config.explorer.token_url_format,
      txUrlFormat: config.explorer.tx_url_format,
      homeUrl: config.explorer.home_url,
    },
    rpc: { internalServerUrlFormat: config.rpc.url, publicServersUrl: config.rpc.public_servers_url },
    flags: {
      supportsTrading: config.flags.supports_trading,
      supportsSending: config.flags.supports_sending,
      supportsBridge: config.flags.supports_bridge,
      supportsTransactions: config.flags.supports_transactions,
      supportsPositions: config.flags.supports_positions,
      supportsNftPositions: config.flags.supports_nft_positions,
    },
    nativeFungibleId: config.native_fungible_id,
    wrappedNativeFungibleId: config.wrapped_native_fungible_id ?? '',
    network: config.network === 'testnet' ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET,
    family: config.family === 'solana' ? ChainFamily.CHAIN_FAMILY_SOLANA : ChainFamily.CHAIN_FAMILY_EVM,
    evmChainId: String(config.evm_chain_id ?? 0),
  };
}

export function createChainRegistry(configs: readonly ChainConfig[]): ChainRegistry {
  const chains = configs.map(toChain);
  const byNetwork = new Map<Network, Chain[]>();
  for (const chain of chains) byNetwork.set(chain.network, [...(byNetwork.get(chain.network) ?? []), chain]);
  return {
    list: (network) => byNetwork.get(network) ?? [],
    get: (network, chainId) => byNetwork.get(network)?.find((chain) => chain.id === chainId),
    find: (chainId) => chains.find((chain) => chain.id === chainId),
  };
}
