import { AssetKind } from '@wallet-api/core/proto/events';

/** An asset as the decoder keeps it until the proto edge. */
export interface AssetRef {
  kind: AssetKind;
  /** Lowercase contract; empty for the native asset. */
  address: string;
  /** ERC-721 and ERC-1155 only. */
  tokenId?: bigint;
}

/** One movement of an asset between two lowercase addresses (the zero address mints or burns). */
export interface Movement {
  asset: AssetRef;
  amount: bigint;
  sender: string;
  recipient: string;
}

export const nativeAsset: AssetRef = { kind: AssetKind.ASSET_KIND_NATIVE, address: '' };

export function assetKey(asset: AssetRef): string {
  return `${asset.kind}:${asset.address}:${asset.tokenId ?? ''}`;
}
