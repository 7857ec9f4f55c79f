import { unavailable } from '@wallet-api/core/grpc';
import { parseAbi, type Address, type PublicClient } from 'viem';
import { rpcFailure } from '../tokens/rpc-errors.js';

const abi = parseAbi(['function totalSupply() view returns (uint256)', 'function balanceOf(address) view returns (uint256)']);

/** ERC-20 supply reads at each chain's head, in base units. */
export interface TokenSupply {
  totalSupply(chainId: string, token: string): Promise<bigint>;
  balanceOf(chainId: string, token: string, holder: string): Promise<bigint>;
}

export function createTokenSupply(clients: ReadonlyMap<string, Pick<PublicClient, 'readContract'>>): TokenSupply {
  async function read<T>(chainId: string, call: (client: Pick<PublicClient, 'readContract'>) => Promise<T>): Promise<T> {
    const client = clients.get(chainId);
    if (!client) throw unavailable(`chain ${chainId} has no RPC endpoint`);
    try {
      return await call(client);
    } catch (error) {
      throw unavailable(`chain ${chainId} did not answer (${rpcFailure(error)}); retry later`);
    }
  }
  return {
    totalSupply: (chainId, token) => read(chainId, (client) => client.readContract({ address: token as Address, abi, functionName: 'totalSupply' })),
    balanceOf: (chainId, token, holder) => read(chainId, (client) => client.readContract({ address: token as Address, abi, functionName: 'balanceOf', args: [holder as Address] })),
  };
}
