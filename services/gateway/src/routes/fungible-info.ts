import type { TokenInfo } from '@wallet-api/core/proto/reference_data';

/**
 * Spec 2.2 `fungible_info` of a token on one chain, as wallet endpoints show it: the
 * implementation on that chain, with a null address for the chain's native asset.
 */
export function toFungibleInfo(info: TokenInfo | undefined, chainId: string, address: string) {
  return {
    name: info?.name ?? '',
    symbol: info?.symbol ?? '',
    icon: info?.iconUrl ? { url: info.iconUrl } : null,
    flags: { verified: info?.verified ?? false },
    implementations: [{ chain_id: chainId, decimals: info?.decimals ?? 0, address: address === '' ? null : address }],
    id: info?.fungibleId ?? '',
  };
}
