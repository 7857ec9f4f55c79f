import { createHash } from 'node:crypto';
import { canonicalWallet } from '@wallet-api/core/addresses';
import type { Registry } from '../registry/registry.js';

/**
 * Fungible id of a token the registry does not group: a digest of chain and address, so it is
 * stable, opaque and within the 44 characters fungible ids may have (40 hex digits). EVM addresses
 * count in lowercase; Solana mints as written (two mints may differ only in case).
 */
export function derivedFungibleId(chainId: string, address: string): string {
  return createHash('sha256')
    .update(`${chainId}:${canonicalWallet(address)}`)
    .digest('hex')
    .slice(0, 40);
}

// Phishing tokens advertise a site to visit ("Visit eth-gift.net to claim 5 ETH"); real token
// names do not carry a web address.
const webAddress =
  /https?:\/\/|www\.|\b[a-z0-9][a-z0-9-]*\.(com|net|org|io|xyz|app|site|online|top|gift|info|co|me|club|money|live|vip|pro|link|cc|us|tech|cloud|website|space|fun|lol|claims?)\b/i;
const claimBait = /\bclaim/i;

export interface TokenIdentity {
  chainId: string;
  address: string;
  name: string;
  symbol: string;
}

/**
 * Spam: listed as spam in the registry, or, for a token the registry does not verify, a name or
 * symbol that advertises a site or a claim, or the symbol of a verified token or of a chain's
 * native asset (a second "USDC" or an "ETH" token is a look-alike).
 */
export function isSpamToken(token: TokenIdentity, registry: Registry, nativeSymbols: ReadonlySet<string>): boolean {
  if (registry.isListedSpam(token.chainId, token.address)) return true;
  if (registry.verifiedToken(token.chainId, token.address)) return false;
  const texts = [token.name, token.symbol];
  if (texts.some((text) => webAddress.test(text) || claimBait.test(text))) return true;
  const symbol = token.symbol.trim().toUpperCase();
  return symbol !== '' && (registry.isVerifiedSymbol(symbol) || nativeSymbols.has(symbol));
}
