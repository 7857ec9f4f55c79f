import { address, createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit';
import type { VerifiedToken } from '../registry/registry.js';
import { parseMintAccount } from './solana-mint.js';
import type { TokenReader } from './token-reader.js';

export type SolanaRpc = Rpc<SolanaRpcApi>;

export function createSolanaRpcClient(rpcUrl: string): SolanaRpc {
  return createSolanaRpc(rpcUrl);
}

/**
 * The account at `account` in the jsonParsed encoding (`value` of getAccountInfo: null when there
 * is none), at `confirmed`: a mint the indexer has just seen (it follows finalized blocks) is there.
 */
export function jsonParsedAccounts(rpc: SolanaRpc): (account: string) => Promise<unknown> {
  return async (account) => (await rpc.getAccountInfo(address(account), { encoding: 'jsonParsed', commitment: 'confirmed' }).send()).value;
}

export interface SolanaTokenReaderOptions {
  /** The jsonParsed account at an address (see `jsonParsedAccounts`); rejects on transport failures. */
  account(address: string): Promise<unknown>;
  /** The registry's verified entry for a mint of this chain: names a mint without Token-2022 metadata. */
  verified(mint: string): VerifiedToken | undefined;
}

/**
 * Reads SPL Token and Token-2022 mints of one Solana chain as fungible tokens (interface `erc20`,
 * the fungible-token interface): decimals from the mint; name and symbol from the Token-2022
 * `tokenMetadata` extension, else from the registry's verified entry, else empty; and the
 * `scaledUiAmountConfig` extension when the mint has one. An address without an account or whose
 * account is not a mint is no token.
 */
export function createSolanaTokenReader(options: SolanaTokenReaderOptions): TokenReader {
  return {
    async read(mintAddress) {
      const mint = parseMintAccount(await options.account(mintAddress));
      if (!mint) return undefined;
      const verified = options.verified(mintAddress);
      return {
        interface: 'erc20',
        name: mint.name || verified?.name || '',
        symbol: mint.symbol || verified?.symbol || '',
        decimals: mint.decimals,
        ...(mint.scaledUiAmount ? { scaledUiAmount: mint.scaledUiAmount } : {}),
      };
    },
  };
}
