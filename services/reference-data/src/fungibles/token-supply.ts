import { address } from '@solana/kit';
import { unavailable } from '@wallet-api/core/grpc';
import { parseAbi, type Address, type PublicClient } from 'viem';
import { rpcFailure } from '../tokens/rpc-errors.js';
import type { SolanaRpc } from '../tokens/solana-token-reader.js';

const abi = parseAbi(['function totalSupply() view returns (uint256)', 'function balanceOf(address) view returns (uint256)']);

/** Token supply reads at each chain's head, in base units: ERC-20 contracts and Solana mints. */
export interface TokenSupply {
  totalSupply(chainId: string, token: string): Promise<bigint>;
  balanceOf(chainId: string, token: string, holder: string): Promise<bigint>;
}

/** The Solana RPC methods the supply reads use. */
export type SolanaSupplyRpc = Pick<SolanaRpc, 'getTokenSupply' | 'getTokenAccountsByOwner'>;

export function createTokenSupply(
  clients: ReadonlyMap<string, Pick<PublicClient, 'readContract'>>,
  solana: ReadonlyMap<string, SolanaSupplyRpc> = new Map(),
): TokenSupply {
  async function read<T>(chainId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw unavailable(`chain ${chainId} did not answer (${rpcFailure(error)}); retry later`);
    }
  }
  const evm = (chainId: string) => clients.get(chainId);
  const noEndpoint = (chainId: string) => unavailable(`chain ${chainId} has no RPC endpoint`);
  return {
    async totalSupply(chainId, token) {
      const rpc = solana.get(chainId);
      if (rpc) return read(chainId, async () => BigInt((await rpc.getTokenSupply(address(token), { commitment: 'confirmed' }).send()).value.amount));
      const client = evm(chainId);
      if (!client) throw noEndpoint(chainId);
      return read(chainId, () => client.readContract({ address: token as Address, abi, functionName: 'totalSupply' }));
    },
    async balanceOf(chainId, token, holder) {
      const rpc = solana.get(chainId);
      if (rpc) {
        // A Solana wallet holds a mint in any number of token accounts (its associated one and others).
        return read(chainId, async () => {
          const { value } = await rpc
            .getTokenAccountsByOwner(address(holder), { mint: address(token) }, { encoding: 'jsonParsed', commitment: 'confirmed' })
            .send();
          return value.reduce((sum, account) => sum + BigInt(account.account.data.parsed.info.tokenAmount.amount), 0n);
        });
      }
      const client = evm(chainId);
      if (!client) throw noEndpoint(chainId);
      return read(chainId, () => client.readContract({ address: token as Address, abi, functionName: 'balanceOf', args: [holder as Address] }));
    },
  };
}
