// Manipulating a trusted pool on a real chain: the test world's ethereum state on an anvil of the
// test's own, indexed into the price consumer as in prices.int.test.ts. The deepest WETH/USDC V3
// pool is pushed 100x off by one large swap, then arbitraged back, and separately given a huge
// position out of range; the served WETH price is held against the single-chain rule computed here
// from the pools read with viem (price-expectations.ts) and against the price before the attack.
import { unary } from '@wallet-api/core/grpc';
import { alignTick, tickSpacingByFee } from '@wallet-api/core/protocol-math';
import { Network } from '@wallet-api/core/proto/common';
import { uniqueName } from '@wallet-api/core/testing';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { erc20Abi, positionManagerAbi, swapRouterAbi, v3PoolAbi } from '../../../devnet/src/protocols/uniswap/abi.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/manifest.js';
import type { UniswapManifest, UniswapV3PoolInfo } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { expectedPrices, readPools, relativeError, routingOf, uniswapPools, type Routing, type TestPool } from './price-expectations.js';
import { startPricePipeline, type PricePipeline } from './setup-prices.js';

let pipeline: PricePipeline;
let uniswap: UniswapManifest;
let routing: Routing;
let trustedPools: TestPool[];
let pool: UniswapV3PoolInfo;
let stopIndexer: () => Promise<void>;

const lower = (address: string) => address.toLowerCase();
const deployer = () => pipeline.world.deployer as Address;
const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 86_400);

async function servedWeth(): Promise<number | undefined> {
  const response = await unary(pipeline.grpc, pipeline.grpc.getPrices, {
    context: { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET },
    currency: 'usd',
    queries: [{ token: { chainId: pipeline.chainId, address: routing.weth }, timestamp: '0' }],
  });
  return response.prices[0]!.price;
}

/** Sends from the deployer and mines; answers the block once the consumer has stored its pool events. */
async function mineIndexed(to: Address, data: Hex, gas = 6_000_000n): Promise<bigint> {
  const hash = await pipeline.chain.session.send({ from: deployer(), to, data, gas });
  const timestamp = Math.max((await pipeline.chain.session.latestTimestamp()) + 1, Math.floor(Date.now() / 1000) + 1);
  const block = await pipeline.chain.session.mine(timestamp);
  expect(block.receipts.get(hash)?.status).toBe('success');
  await pipeline.indexedThrough(block.number);
  return block.number;
}

const slot0 = async () => pipeline.client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' });
const balanceOf = (token: Address) => pipeline.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [deployer()] });

/** Swaps in the pool until its price reaches `limit` (the swap's price limit), paying with `tokenIn`. */
async function swapTo(tokenIn: Address, limit: bigint): Promise<bigint> {
  const tokenOut = tokenIn === pool.token0 ? pool.token1 : pool.token0;
  const amountIn = (await balanceOf(tokenIn)) / 2n;
  const data = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'exactInputSingle',
    args: [{ tokenIn, tokenOut, fee: pool.fee, recipient: deployer(), deadline: deadline(), amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: limit }],
  });
  return mineIndexed(uniswap.v3.swapRouter, data, 10_000_000n);
}

async function expectedWeth(blockNumber: bigint): Promise<number> {
  return expectedPrices(await readPools(pipeline.client, trustedPools, blockNumber), routing).get(routing.weth)!;
}

beforeAll(async () => {
  pipeline = await startPricePipeline();
  uniswap = pipeline.world.protocols.uniswap as UniswapManifest;
  const tokens = (pipeline.world.protocols.tokens as TokensManifest).tokens;
  routing = routingOf(pipeline.registry, pipeline.chainId, tokens);
  trustedPools = uniswapPools(uniswap);
  const usdc = [...routing.stablecoins][0]!;
  pool = uniswap.v3.pools.find(
    (entry) => entry.fee === 500 && [lower(entry.token0), lower(entry.token1)].sort().join() === [usdc, routing.weth].sort().join(),
  )!;
  await pipeline.startConsumer(uniqueName('manipulation'));
  stopIndexer = pipeline.harness.runIndexer({ chainId: pipeline.chainId, rpcUrl: pipeline.chain.rpcUrl });
  await pipeline.indexedThrough(await pipeline.lastPoolEventBlock(trustedPools));
}, 300_000);

afterAll(async () => {
  await stopIndexer?.();
  await pipeline?.close();
});

describe('a trusted pool under manipulation', () => {
  test('pushed 100x off by one swap it moves the price by less than 1%, and arbitraged back the price is what it was', async () => {
    const before = await servedWeth();
    expect(before).toBeDefined();
    expect(relativeError(before!, await expectedWeth(await pipeline.client.getBlockNumber()))).toBeLessThan(1e-9);
    const [sqrtBefore] = await slot0();

    // Dump WETH into the pool until WETH is worth a hundredth of its price there.
    const wethIsToken0 = lower(pool.token0) === routing.weth;
    const attacked = await swapTo(wethIsToken0 ? pool.token0 : pool.token1, wethIsToken0 ? sqrtBefore / 10n : sqrtBefore * 10n);
    const [sqrtAttacked] = await slot0();
    const moved = (Number(sqrtAttacked) / Number(sqrtBefore)) ** 2;
    expect(wethIsToken0 ? 1 / moved : moved).toBeGreaterThan(99);
    const during = await servedWeth();
    expect(Math.abs(during! / before! - 1)).toBeLessThan(0.01);
    expect(relativeError(during!, await expectedWeth(attacked))).toBeLessThan(1e-9);

    // The arbitrageur buys the cheap WETH back up to the pool's price before the attack.
    const restored = await swapTo(wethIsToken0 ? pool.token1 : pool.token0, sqrtBefore);
    expect((await slot0())[0]).toBe(sqrtBefore);
    const after = await servedWeth();
    expect(relativeError(after!, await expectedWeth(restored))).toBeLessThan(1e-9);
    expect(Math.abs(after! / before! - 1)).toBeLessThan(1e-6);
  });

  test('a huge position out of range adds no depth near the price and moves nothing', async () => {
    const before = await servedWeth();
    const [, tick] = await slot0();
    const spacing = tickSpacingByFee[pool.fee]!;
    // Entirely above the price (a range of 7x to 12x it), so it holds token0 alone: half the deployer's.
    const tickLower = alignTick(tick + 20_000, spacing);
    const amount0 = (await balanceOf(pool.token0)) / 2n;
    const data = encodeFunctionData({
      abi: positionManagerAbi,
      functionName: 'mint',
      args: [
        {
          token0: pool.token0,
          token1: pool.token1,
          fee: pool.fee,
          tickLower,
          tickUpper: tickLower + 50 * spacing,
          amount0Desired: amount0,
          amount1Desired: 0n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: deployer(),
          deadline: deadline(),
        },
      ],
    });
    const minted = await mineIndexed(uniswap.v3.positionManager, data);
    const after = await servedWeth();
    expect(relativeError(after!, await expectedWeth(minted))).toBeLessThan(1e-9);
    expect(Math.abs(after! / before! - 1)).toBeLessThan(0.01);
  });
});
