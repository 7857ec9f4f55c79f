// Swap quotes priced by the one price, end to end: the test world's ethereum state on an anvil of
// the test's own, its pool events indexed and folded into prices (the price pipeline), the swap
// quoter reading prices through reference-data's GetPrices. The expected gas cost in the output
// asset, after-fees amount, gas value and price impact are computed here from those prices and
// from the chain's own gas estimate of each served transaction.
import { readFile } from 'node:fs/promises';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { uniqueName } from '@wallet-api/core/testing';
import { getAddress, parseUnits } from 'viem';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/manifest.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { uniswapPools } from './price-expectations.js';
import { startPricePipeline, type PricePipeline } from './setup-prices.js';
import { parseChainsConfig } from '../src/chains/chain-config.js';
import type { PriceOracle } from '../src/prices/price-oracle.js';
import { createRegistry } from '../src/registry/registry.js';
import { createSwapQuoter, swapClients, type SwapQuoter } from '../src/swap/swap-quoter.js';

const chainsFile = new URL('../config/chains.json', import.meta.url).pathname;
const context = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };

let pipeline: PricePipeline;
let quoter: SwapQuoter;
let stopIndexer: () => Promise<void>;

/** USD prices as reference-data's GetPrices serves them: '' is the native asset. */
async function servedPrices(addresses: readonly string[]): Promise<(number | undefined)[]> {
  const { prices } = await unary(pipeline.grpc, pipeline.grpc.getPrices, {
    context,
    currency: 'usd',
    queries: addresses.map((address) => ({ token: { chainId: pipeline.chainId, address }, timestamp: '0' })),
  });
  return prices.map((price) => price.price);
}

beforeAll(async () => {
  pipeline = await startPricePipeline();
  await pipeline.startConsumer(uniqueName('swap-prices'));
  stopIndexer = pipeline.harness.runIndexer({ chainId: pipeline.chainId, rpcUrl: pipeline.chain.rpcUrl });
  await pipeline.indexedThrough(await pipeline.lastPoolEventBlock(uniswapPools(pipeline.world.protocols.uniswap as UniswapManifest)));
  const json = JSON.parse(await readFile(chainsFile, 'utf8')) as { chains: { id: string; rpc: object }[] };
  const chains = parseChainsConfig({
    chains: json.chains.map((entry) =>
      entry.id === 'ethereum' ? { ...entry, id: pipeline.chainId, rpc: { ...entry.rpc, url: pipeline.chain.rpcUrl } } : entry,
    ),
  });
  // The one price through reference-data's own RPC, as another process of the service would ask it.
  const prices: Pick<PriceOracle, 'prices'> = {
    prices: async (currency, queries) => {
      const { prices: answers } = await unary(pipeline.grpc, pipeline.grpc.getPrices, {
        context,
        currency,
        queries: queries.map((query) => {
          if ('usd' in query) throw new Error('the swap quoter asks token prices only');
          return { token: { chainId: query.chainId, address: query.address }, timestamp: String(query.timestamp) };
        }),
      });
      return answers.map((answer) => answer.price);
    },
  };
  quoter = createSwapQuoter({ chains, registry: createRegistry(pipeline.registry), tokens: pipeline.registry.tokens, clients: swapClients(chains), prices });
}, 300_000);

afterAll(async () => {
  await stopIndexer?.();
  await pipeline?.close();
});

test('gas priced in the output asset at the one price: after-fees amounts, gas value and price impact, ordered', async () => {
  const tokens = (pipeline.world.protocols.tokens as TokensManifest).tokens;
  const usdc = getAddress(tokens.find((token) => token.symbol === 'USDC' && token.kind !== 'spam')!.address);
  const from = getAddress('0x00000000000000000000000000000000005a9f01');
  await pipeline.client.request({ method: 'anvil_setBalance' as never, params: [from, `0x${(10n ** 19n).toString(16)}`] as never });

  const { quotes } = await quoter.quote({
    chainId: pipeline.chainId,
    inputFungibleId: 'eth',
    outputFungibleId: 'usdc',
    inputAmount: '2',
    from,
    to: from,
    slippagePercent: 2,
    currency: 'usd',
  });
  const [nativePrice, usdcPrice] = await servedPrices(['', usdc.toLowerCase()]);
  expect(nativePrice).toBeGreaterThan(0);
  expect(usdcPrice).toBeCloseTo(1, 12);
  expect(quotes.length).toBeGreaterThan(1);

  for (const quote of quotes) {
    const transaction = quote.transaction!;
    // Gas: the chain's own estimate of the served transaction, at the node's gas price.
    const units = await pipeline.client.estimateGas({ account: from, to: transaction.to, data: transaction.data as `0x${string}`, value: transaction.value });
    const gasPrice = await pipeline.client.getGasPrice();
    expect(quote.gas.quantity.amount).toBe(units * gasPrice);
    expect(transaction.gas).toBe((units * 125n) / 100n);
    const gasEth = Number(units * gasPrice) / 1e18;
    expect(quote.gas.value).toBeCloseTo(gasEth * nativePrice!, 9);
    const gasInUsdc = BigInt(Math.ceil((gasEth * nativePrice! * 1e6) / usdcPrice!));
    expect(gasInUsdc).toBeGreaterThan(0n);
    expect(quote.outputAmountAfterFees.amount).toBe(quote.outputAmount.amount - gasInUsdc);
    const fair = (2 * nativePrice!) / usdcPrice!;
    expect(quote.priceImpactPercent).toBeCloseTo((1 - Number(quote.outputAmount.amount) / 1e6 / fair) * 100, 9);
  }
  const afterFees = quotes.map((quote) => quote.outputAmountAfterFees.amount);
  afterFees.slice(1).forEach((amount, index) => expect(amount <= afterFees[index]!).toBe(true));

  // The best quote's transaction runs on the chain and delivers at least its minimum.
  const best = quotes[0]!;
  const before = await pipeline.client.readContract({ address: usdc, abi: balanceOfAbi, functionName: 'balanceOf', args: [from] });
  // This anvil mines only when told (the pipeline's session): send, then seal a block after the wall clock.
  const nextTime = Math.max((await pipeline.chain.session.latestTimestamp()) + 1, Math.floor(Date.now() / 1000) + 1);
  const receipt = await pipeline.chain.session.sendAndMine(
    { from, to: best.transaction!.to, data: best.transaction!.data as `0x${string}`, value: best.transaction!.value, gas: best.transaction!.gas },
    nextTime,
  );
  expect(receipt.status).toBe('success');
  const after = await pipeline.client.readContract({ address: usdc, abi: balanceOfAbi, functionName: 'balanceOf', args: [from] });
  expect(after - before >= best.outputAmountMin.amount).toBe(true);
  expect(parseUnits('2', 18)).toBe(best.inputAmount.amount);
}, 120_000);

const balanceOfAbi = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ type: 'uint256' }] },
] as const;
