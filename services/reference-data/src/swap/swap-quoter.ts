import { invalidArgument } from '@wallet-api/core/grpc';
import { formatUnits, getAddress, maxUint256, type Address, type PublicClient } from 'viem';
import type { ChainConfig } from '../chains/chain-config.js';
import { createRpcClient } from '../tokens/token-reader.js';
import type { Currency } from '../prices/currencies.js';
import type { PriceOracle } from '../prices/price-oracle.js';
import type { VerifiedTokenConfig } from '../registry/registry-config.js';
import type { Registry } from '../registry/registry.js';
import { findRoutes } from './route-finder.js';
import { isRevert, quoteRoute } from './route-quote.js';
import { erc20Abi } from './swap-abi.js';
import { gasInOutput, minimumOutput, parseDisplayAmount, priceImpactPercent, protocolFeePercent, type SwapRoute } from './swap-route.js';
import { buildSwapCall } from './swap-transaction.js';

export interface SwapQuoteRequest {
  chainId: string;
  inputFungibleId: string;
  outputFungibleId: string;
  /** Decimal display amount of the input asset. */
  inputAmount: string;
  from: Address;
  to: Address;
  slippagePercent: number;
  currency: Currency;
}

export interface SwapAmount {
  amount: bigint;
  decimals: number;
}

export interface SwapQuote {
  inputAmount: SwapAmount;
  outputAmount: SwapAmount;
  outputAmountAfterFees: SwapAmount;
  outputAmountMin: SwapAmount;
  priceImpactPercent: number | undefined;
  slippagePercent: number;
  protocolFeePercent: number;
  gas: { quantity: SwapAmount; value: number | undefined };
  liquiditySource: { id: string; name: string; iconUrl: string };
  route: Address[];
  /** Undefined for the native asset, which needs no approval. */
  assetSpender: Address | undefined;
  enoughBalance: boolean;
  enoughAllowance: boolean;
  transaction: { chainId: string; from: Address; to: Address; data: string; value: bigint; gas: bigint } | undefined;
  estimatedSeconds: number;
}

export interface SwapQuoter {
  /** Every trusted route quoted at the head block, best first by output after the gas fee. */
  quote(request: SwapQuoteRequest): Promise<{ blockNumber: bigint; quotes: SwapQuote[] }>;
  /** Fungible ids with a trusted pool against the wrapped native token or a USD stablecoin on the chain. */
  swappableFungibles(chainId: string): Promise<string[]>;
}

/** One block to be mined in; the chains configuration has no block times. */
const estimatedSeconds = 15;
/** How long after the head block (or now, whichever is later) the routers still accept the swap. */
const deadlineSeconds = 20n * 60n;
/** Gas limit over the node's estimate: pools move between the quote and its inclusion. */
const gasLimitPercent = 125n;

/** An RPC client per EVM chain, for the quoter's reads at the head. */
export function swapClients(chains: readonly ChainConfig[]): Map<string, PublicClient> {
  return new Map(chains.filter((chain) => chain.family === 'evm').map((chain) => [chain.id, createRpcClient(chain.rpc.url)]));
}

interface Asset {
  fungibleId: string;
  /** The token swapped: the wrapped native token for the native asset. */
  token: Address;
  native: boolean;
}

export function createSwapQuoter(options: {
  chains: readonly ChainConfig[];
  registry: Registry;
  /** The verified tokens, the candidates of swappableFungibles. */
  tokens: readonly VerifiedTokenConfig[];
  clients: ReadonlyMap<string, PublicClient>;
  /** The one price; absent: no price impact, gas value or gas deducted from the output. */
  prices?: Pick<PriceOracle, 'prices'>;
}): SwapQuoter {
  const { registry } = options;

  function chainOf(chainId: string, parameter: string) {
    const chain = options.chains.find((candidate) => candidate.id === chainId);
    const client = options.clients.get(chainId);
    const pricing = registry.pricing(chainId);
    if (!chain || !client || !pricing) throw invalidArgument(`${parameter}: chain ${chainId} does not support swaps`);
    const hubs = [pricing.wrapped_native, ...pricing.usd_stablecoins].map((address) => getAddress(address));
    return { chain, client, wrappedNative: getAddress(pricing.wrapped_native), hubs };
  }

  async function assetOf(chain: ChainConfig, client: PublicClient, wrappedNative: Address, fungibleId: string, parameter: string): Promise<Asset> {
    if (fungibleId === chain.native_fungible_id) return { fungibleId, token: wrappedNative, native: true };
    const candidates = (registry.fungible(fungibleId)?.implementations ?? [])
      .filter((candidate) => candidate.chain_id === chain.id)
      .map((candidate) => getAddress(candidate.address));
    // Merged registries may list an implementation per deployment under one chain id (the
    // shipped mainnet token and a devnet's): the one with code on this chain is the asset.
    const deployed = await Promise.all(candidates.map(async (token) => ((await client.getCode({ address: token })) ?? '0x') !== '0x'));
    const token = candidates.find((_, index) => deployed[index]);
    if (!token) throw invalidArgument(`${parameter}: ${fungibleId} is not a fungible on chain ${chain.id}`);
    return { fungibleId, token, native: false };
  }

  async function pricesOf(currency: Currency, chainId: string, addresses: readonly string[]): Promise<(number | undefined)[]> {
    if (!options.prices) return addresses.map(() => undefined);
    return options.prices.prices(
      currency,
      addresses.map((address) => ({ chainId, address: address.toLowerCase(), timestamp: 0 })),
    );
  }

  return {
    async quote(request) {
      const { chain, client, wrappedNative, hubs } = chainOf(request.chainId, 'input[chain_id]');
      const [input, output] = await Promise.all([
        assetOf(chain, client, wrappedNative, request.inputFungibleId, 'input[fungible_id]'),
        assetOf(chain, client, wrappedNative, request.outputFungibleId, 'output[fungible_id]'),
      ]);
      if (input.token === output.token) {
        throw invalidArgument(
          `output[fungible_id]: must be another asset than input[fungible_id] (${input.fungibleId} and ${output.fungibleId} trade as the same token on ${chain.id})`,
        );
      }
      if (!(request.slippagePercent > 0 && request.slippagePercent <= 50)) throw invalidArgument('slippage_percent: must be greater than 0 and at most 50');

      const head = await client.getBlock({ blockTag: 'latest' });
      const blockNumber = head.number;
      const decimalsOf = (asset: Asset) =>
        asset.native
          ? Promise.resolve(chain.native.decimals)
          : client.readContract({ address: asset.token, abi: erc20Abi, functionName: 'decimals', blockNumber });
      const [inputDecimals, outputDecimals] = await Promise.all([decimalsOf(input), decimalsOf(output)]);
      const amountIn = parseDisplayAmount(request.inputAmount, inputDecimals);
      if (amountIn === undefined) {
        throw invalidArgument(
          `input[amount]: must be a positive decimal amount of ${input.fungibleId} with at most ${inputDecimals} decimal places and at most ${formatUnits(maxUint256, inputDecimals)}, e.g. 1.5`,
        );
      }

      const routes = await findRoutes({ client, protocols: registry.protocols(chain.id), tokenIn: input.token, tokenOut: output.token, hubs, blockNumber });
      const [gasPrice, [nativePrice, inputPrice, outputPrice], balance] = await Promise.all([
        client.getGasPrice(),
        pricesOf(request.currency, chain.id, ['', input.native ? '' : input.token, output.native ? '' : output.token]),
        input.native
          ? client.getBalance({ address: request.from, blockNumber })
          : client.readContract({ address: input.token, abi: erc20Abi, functionName: 'balanceOf', args: [request.from], blockNumber }),
      ]);
      const enoughBalance = balance >= amountIn;
      const allowances = new Map<Address, Promise<bigint>>();
      const allowanceFor = (spender: Address) => {
        let read = allowances.get(spender);
        if (!read) {
          read = client.readContract({ address: input.token, abi: erc20Abi, functionName: 'allowance', args: [request.from, spender], blockNumber });
          allowances.set(spender, read);
        }
        return read;
      };
      const deadline = BigInt(Math.max(Number(head.timestamp), Math.floor(Date.now() / 1000))) + deadlineSeconds;

      async function quoteOne(route: SwapRoute): Promise<SwapQuote | undefined> {
        const quoted = await quoteRoute(client, route, amountIn!, blockNumber);
        if (!quoted) return undefined;
        const spender = route.kind === 'v2' ? route.router : route.swapRouter;
        const enoughAllowance = input.native || (await allowanceFor(spender)) >= amountIn!;
        const minimumOut = minimumOutput(quoted.amountOut, request.slippagePercent);
        const call = buildSwapCall({
          route,
          amountIn: amountIn!,
          minimumOut,
          nativeIn: input.native,
          nativeOut: output.native,
          recipient: request.to,
          deadline,
        });
        const ready = enoughBalance && enoughAllowance;
        let gasUnits: bigint;
        if (ready) {
          try {
            gasUnits = await client.estimateGas({ account: request.from, to: call.to, data: call.data, value: call.value });
          } catch (error) {
            // A route the quoter fills but whose transaction would fail is no offer.
            if (isRevert(error)) return undefined;
            throw error;
          }
        } else {
          // Without balance or allowance the node cannot run it: the quoter's measure of the swap
          // (V2: a pair's transfer and swap) plus the transaction's base cost and the router's work.
          gasUnits = 21_000n + (quoted.swapGas ?? 80_000n * BigInt(route.pools.length)) + 30_000n;
        }
        const gasWei = gasUnits * gasPrice;
        const gasCost = gasInOutput(gasWei, chain.native.decimals, nativePrice, { decimals: outputDecimals, price: outputPrice });
        const afterFees = gasCost === undefined ? quoted.amountOut : quoted.amountOut > gasCost ? quoted.amountOut - gasCost : 0n;
        const dapp = registry.dappForContract(chain.id, spender.toLowerCase());
        return {
          inputAmount: { amount: amountIn!, decimals: inputDecimals },
          outputAmount: { amount: quoted.amountOut, decimals: outputDecimals },
          outputAmountAfterFees: { amount: afterFees, decimals: outputDecimals },
          outputAmountMin: { amount: minimumOut, decimals: outputDecimals },
          priceImpactPercent: priceImpactPercent(
            { amount: amountIn!, decimals: inputDecimals, price: inputPrice },
            { amount: quoted.amountOut, decimals: outputDecimals, price: outputPrice },
          ),
          slippagePercent: request.slippagePercent,
          protocolFeePercent: protocolFeePercent(route),
          gas: {
            quantity: { amount: gasWei, decimals: chain.native.decimals },
            value: nativePrice === undefined ? undefined : (Number(gasWei) / 10 ** chain.native.decimals) * nativePrice,
          },
          liquiditySource: {
            id: dapp?.id ?? (route.kind === 'v2' ? 'uniswap-v2' : 'uniswap-v3'),
            name: dapp?.name ?? (route.kind === 'v2' ? 'Uniswap V2' : 'Uniswap V3'),
            iconUrl: dapp?.iconUrl ?? '',
          },
          route: route.pools,
          assetSpender: input.native ? undefined : spender,
          enoughBalance,
          enoughAllowance,
          transaction: ready
            ? { chainId: chain.id, from: request.from, to: call.to, data: call.data, value: call.value, gas: (gasUnits * gasLimitPercent) / 100n }
            : undefined,
          estimatedSeconds,
        };
      }

      const quotes = (await Promise.all(routes.map(quoteOne))).filter((quote): quote is SwapQuote => quote !== undefined);
      const descending = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0);
      quotes.sort(
        (a, b) => descending(a.outputAmountAfterFees.amount, b.outputAmountAfterFees.amount) || descending(a.outputAmount.amount, b.outputAmount.amount),
      );
      return { blockNumber, quotes };
    },

    async swappableFungibles(chainId) {
      const { chain, client, wrappedNative, hubs } = chainOf(chainId, 'input[chain_id]');
      const blockNumber = await client.getBlockNumber();
      const protocols = registry.protocols(chain.id);
      const candidates = options.tokens.flatMap((token) =>
        token.implementations
          .filter((implementation) => implementation.chain_id === chain.id)
          .map((implementation) => ({ fungibleId: token.fungible_id, token: getAddress(implementation.address) })),
      );
      const swappable = await Promise.all(
        candidates.map(async ({ token }) => {
          for (const hub of hubs) {
            if (hub === token) continue;
            if ((await findRoutes({ client, protocols, tokenIn: token, tokenOut: hub, hubs: [], blockNumber })).length > 0) return true;
          }
          return false;
        }),
      );
      const ids = candidates.filter((_, index) => swappable[index]).map((candidate) => candidate.fungibleId);
      // The native asset trades as its wrapped token.
      if (candidates.some((candidate, index) => candidate.token === wrappedNative && swappable[index])) ids.unshift(chain.native_fungible_id);
      return [...new Set(ids)];
    },
  };
}
