/** What the wallet view needs to know about one token contract, from reference data. */
export interface TokenFact {
  /** On a token list the service trusts. */
  verified: boolean;
  /** Known spam or a look-alike of a verified token. */
  isSpam: boolean;
}

export interface TokenFacts {
  /** `address` is lowercase; undefined when reference data knows nothing of the contract. */
  lookup(chainId: string, address: string): TokenFact | undefined;
}
