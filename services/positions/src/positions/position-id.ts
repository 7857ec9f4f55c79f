import { createHash } from 'node:crypto';

/**
 * A short opaque id (43 characters of base64url SHA-256) of the parts that make a position what
 * it is, so the same position has the same id in every answer. Parts are joined unambiguously.
 */
export function stableId(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** A wallet's plain balance of an asset ('' for the native asset). */
export function walletPositionId(wallet: string, chainId: string, asset: string): string {
  return stableId([wallet, chainId, 'wallet', asset]);
}

/** A protocol position: which protocol instance (`key`), what kind of position and in which token. */
export function protocolPositionId(wallet: string, chainId: string, protocol: string, key: string, type: string, token: string): string {
  return stableId([wallet, chainId, protocol, key, type, token]);
}

/** The positions of one liquidity position (one per pool token, rewards included). */
export function groupId(wallet: string, chainId: string, protocol: string, group: string): string {
  return stableId([wallet, chainId, protocol, 'group', group]);
}
