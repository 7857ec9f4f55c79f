import type { RequestContext } from '@wallet-api/core/proto/common';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory as createCachedTokenDirectory, type CacheOptions, type TokenTable as TokenInfoTable } from '@wallet-api/core/reference-data';
import type { TokenFacts } from '@wallet-api/core/transactions';

/** Reference data of the tokens one batch of transactions names, also readable as the decoder's token facts. */
export interface TokenTable extends TokenFacts, TokenInfoTable {}

export interface TokenDirectory {
  load(tokens: readonly { chainId: string; address: string }[], context?: RequestContext): Promise<TokenTable>;
}

export function createTokenDirectory(referenceData: ReferenceDataClient, options: Partial<CacheOptions> = {}): TokenDirectory {
  const directory = createCachedTokenDirectory(referenceData, options);
  return {
    async load(tokens, context) {
      const table = await directory.load(tokens, context);
      return { info: table.info, lookup: table.info };
    },
  };
}
