import type { Address } from 'viem';

export type TokenKind = 'weth' | 'stable' | 'btc' | 'standard' | 'fee-on-transfer' | 'spam';

export interface TokenRef {
  address: Address;
  symbol: string;
  decimals: number;
  kind: TokenKind;
}

/**
 * The part of the `tokens` module's manifest (its section `tokens`) that `defi` and `smartWallets`
 * read. They also rely on the deployer holding a supply of every token it lists, to seed liquidity
 * and stream yield (WETH aside, which the deployer wraps from ETH).
 */
export interface TokensSection {
  weth: Address;
  tokens: TokenRef[];
}

export function tokensSection(deployed: Readonly<Record<string, unknown>>): TokensSection {
  const section = deployed.tokens as TokensSection | undefined;
  if (!section?.weth || !Array.isArray(section.tokens)) throw new Error('defi and smartWallets need the tokens module deployed first');
  return section;
}

export function tokenOfKind(section: TokensSection, kind: TokenKind): TokenRef {
  const token = kind === 'weth' ? section.tokens.find((entry) => entry.address === section.weth) : section.tokens.find((entry) => entry.kind === kind);
  if (!token) throw new Error(`the tokens module lists no ${kind} token`);
  return token;
}

/** Tokens that move exactly as sent, so transfers and positions can be checked to the unit. */
export function plainTokens(section: TokensSection): TokenRef[] {
  return section.tokens.filter((token) => token.kind === 'weth' || token.kind === 'stable' || token.kind === 'btc' || token.kind === 'standard');
}
