import { isSolanaAddress } from '@wallet-api/core/addresses';
import { invalidArgument } from '@wallet-api/core/grpc';
import { TokenInterface } from '@wallet-api/core/proto/reference_data';
import type { ChainConfig } from '../chains/chain-config.js';
import type { Registry } from '../registry/registry.js';
import type { TokenCatalog } from '../tokens/token-catalog.js';

/** A fungible as a chart needs it: its id and its implementations on the request's network ('' for a native asset). */
export interface ChartedFungible {
  id: string;
  implementations: { chainId: string; address: string }[];
}

export interface ChartedFungibles {
  /**
   * A verified fungible or a native asset with an implementation on `network` (`mainnet`,
   * `testnet`). A registry address with no ERC-20 behind it on its chain (a merged file's mainnet
   * address on a devnet chain of the same name) is no implementation there, as in FungibleCatalog.
   */
  byId(fungibleId: string, network: string): Promise<ChartedFungible | undefined>;
  /**
   * The fungible of a token (`address` empty: the chain's native asset): its verified fungible, or
   * a fungible token of its own. INVALID_ARGUMENT, naming `implementation`, for a chain not on
   * `network` or an address not of the chain's family.
   */
  byImplementation(chainId: string, address: string, network: string): Promise<ChartedFungible | undefined>;
}

const evmAddress = /^0x[0-9a-f]{40}$/;

/**
 * Finds fungibles the way the fungibles endpoints name them (see FungibleCatalog): the registry's
 * verified tokens grouped across chains, each chain's native asset grouped across the chains that
 * carry it, and any other fungible token as a fungible of its own.
 */
export function createChartedFungibles(options: {
  chains: readonly ChainConfig[];
  registry: Registry;
  tokens: Pick<TokenCatalog, 'getTokens'>;
}): ChartedFungibles {
  const { registry } = options;
  const chains = new Map(options.chains.map((chain) => [chain.id, chain]));
  /** An address as its chain writes it: EVM lowercase, a Solana mint as given (case-sensitive). */
  const addressOn = (chainId: string, input: string) => (chains.get(chainId)?.family === 'solana' ? input.trim() : input.trim().toLowerCase());

  async function byId(fungibleId: string, network: string): Promise<ChartedFungible | undefined> {
    const onNetwork = (chainId: string) => chains.get(chainId)?.network === network;
    const verified = registry.fungible(fungibleId);
    if (verified) {
      const listed = verified.implementations
        .filter((ref) => onNetwork(ref.chain_id))
        .map((ref) => ({ chainId: ref.chain_id, address: addressOn(ref.chain_id, ref.address) }));
      const erc20 = new Set(
        (await options.tokens.getTokens(listed))
          .filter((info) => info.interface === TokenInterface.TOKEN_INTERFACE_ERC20)
          .map((info) => `${info.chainId}:${info.address}`),
      );
      const implementations = listed.filter((ref) => erc20.has(`${ref.chainId}:${ref.address}`));
      return implementations.length === 0 ? undefined : { id: verified.fungible_id, implementations };
    }
    const carriers = options.chains.filter((chain) => chain.native_fungible_id === fungibleId && chain.network === network);
    return carriers.length === 0 ? undefined : { id: fungibleId, implementations: carriers.map((chain) => ({ chainId: chain.id, address: '' })) };
  }

  return {
    byId,
    async byImplementation(chainId, input, network) {
      const chain = chains.get(chainId);
      if (!chain || chain.network !== network) {
        throw invalidArgument(
          `parameter implementation: chain ${chainId} is not a supported ${network === 'testnet' ? 'testnet (X-Env: testnet)' : 'mainnet'} chain`,
        );
      }
      const trimmed = input.trim();
      if (trimmed === '') return byId(chain.native_fungible_id, network);
      // Solana mints are base58 and case-sensitive; EVM addresses are compared in lower case.
      const address = addressOn(chainId, trimmed);
      const valid = chain.family === 'solana' ? isSolanaAddress(address) : evmAddress.test(address);
      if (!valid)
        throw invalidArgument(`parameter implementation: ${input} is not a valid ${chain.family === 'solana' ? 'Solana' : 'EVM'} address on chain ${chainId}`);
      const verified = registry.verifiedToken(chainId, address);
      if (verified) return byId(verified.fungibleId, network);
      const [info] = await options.tokens.getTokens([{ chainId, address }]);
      if (info?.interface !== TokenInterface.TOKEN_INTERFACE_ERC20 || !info.fungibleId) return undefined;
      return { id: info.fungibleId, implementations: [{ chainId, address }] };
    },
  };
}
