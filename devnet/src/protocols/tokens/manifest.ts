import type { Address, Hex } from 'viem';

/**
 * What a token is for. `stable`, `btc` and `standard` are what wallets are funded with;
 * `spam` tokens copy real symbols on purpose (a second "USDC"), so look tokens up with
 * `tokenBySymbol`, which never returns spam.
 */
export type TokenKind = 'weth' | 'stable' | 'btc' | 'standard' | 'fee-on-transfer' | 'spam';

export interface TokenInfo {
  symbol: string;
  name: string;
  address: Address;
  decimals: number;
  kind: TokenKind;
  /** Only for `fee-on-transfer`: basis points of every transfer that go to `feeRecipient` instead of the receiver. */
  feeBps?: number;
  /** Only for `fee-on-transfer`: the treasury (the deployer); its own transfers pay no fee. */
  feeRecipient?: Address;
}

/**
 * Manifest section `tokens`, written into `.data/devnet/manifest.json` per chain. Every token is
 * an ERC-20; WETH is the canonical WETH9 and appears both as `weth` and in `tokens`. The deployer
 * holds the supply of every non-spam token, so later modules can seed pools and markets with it.
 */
export interface TokensManifest {
  weth: Address;
  tokens: TokenInfo[];
  /** Creation bytecode of the small contract (`DevnetTipJar`) that wallets deploy themselves. */
  walletContractBytecode: Hex;
}

/** The non-spam token with this symbol (case-sensitive); throws if the manifest has none. */
export function tokenBySymbol(manifest: TokensManifest, symbol: string): TokenInfo {
  const token = manifest.tokens.find((entry) => entry.symbol === symbol && entry.kind !== 'spam');
  if (!token) throw new Error(`tokens manifest has no token ${symbol}`);
  return token;
}
