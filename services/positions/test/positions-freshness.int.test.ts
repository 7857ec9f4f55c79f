import { PositionsFilter } from '@wallet-api/core/proto/positions';
import { eventually } from '@wallet-api/core/testing';
import { createPublicClient, encodeFunctionData, erc20Abi, http, maxUint256, type Address, type Hash, type PublicClient } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { swapRouterAbi, v2PairAbi, v2RouterAbi } from '../../../devnet/src/protocols/uniswap/abi.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { readWalletTruth, type WalletTruth } from '../../../devnet/src/truth/index.js';
import { startForkAnvil, type OwnAnvil } from '../../reference-data/test/own-anvil.js';
import { protocolHoldings, servedHoldings } from './chain-truth.js';
import { startPositionsHarness, type PositionsHarness, type PositionsService } from './setup-positions.js';

// Protocol positions follow their pools without a request: on a fork of the world's ethereum
// chain, a wallet's V2 and V3 positions are read once; then someone else swaps in both pools.
// The positions service hears the pools' events, re-reads that wallet's snapshot by itself (the
// test only watches the stored snapshot, it asks the service nothing), and the next answer equals
// the chain at the new head, to the base unit, fees included.

let fork: OwnAnvil;
let forkBlock: bigint;
let chain: ChainWorld;
let harness: PositionsHarness;
let service: PositionsService;

beforeAll(async () => {
  chain = (await readManifest()).chains.find((candidate) => candidate.id === 'ethereum')!;
  fork = await startForkAnvil(chain.rpcUrl);
  forkBlock = await fork.client.getBlockNumber();
  harness = await startPositionsHarness({ rpcUrls: { ethereum: fork.rpcUrl } });
  // Only the fork's own blocks are indexed: the pools' events after the first read are what matters,
  // and a fork re-reading the whole world's history from its upstream is slow on a loaded machine.
  harness.index({ chainId: 'ethereum', rpcUrl: fork.rpcUrl, finalityDepth: 12, startBlock: forkBlock });
  await harness.startConsumers();
  service = await harness.startService();
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await fork?.stop();
}, 120_000);

/** A wallet holding both an LP share and an in-range V3 position at the fork's head. */
async function walletInBothPools(client: PublicClient, head: bigint): Promise<{ wallet: Address; truth: WalletTruth }> {
  for (const { address } of chain.wallets) {
    const truth = await readWalletTruth(client, chain, address as Address, head);
    if (truth.uniswapV2.some((share) => share.balance > 0n) && truth.uniswapV3.some((position) => position.inRange && position.liquidity > 0n)) {
      return { wallet: address as Address, truth };
    }
  }
  throw new Error('no world wallet has both a V2 share and an in-range V3 position');
}

test("swaps in a wallet's pools move its served V2 and V3 positions to the chain's new figures without a request", async () => {
  // The fork's state at its first block is the shared chain's: the wallets are read there, where no fork stands between.
  const shared = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient;
  const client = createPublicClient({ transport: http(fork.rpcUrl, { timeout: 60_000 }), cacheTime: 0 }) as PublicClient;
  const head = forkBlock;
  const { wallet, truth } = await walletInBothPools(shared, head);
  const list = (sync: boolean) => service.list({ address: wallet, chainIds: ['ethereum'], positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX, sync });
  // The indexer reaches the head first, so the snapshot the request writes is the one pool events are matched against.
  await eventually(async () => expect((await list(true)).every((position) => BigInt(position.updatedAtBlock) >= head)).toBe(true), 120_000);
  expect(servedHoldings(await list(false))).toEqual(protocolHoldings(truth, chain));

  // The deployer swaps 1% of the pair's reserve through the V2 router, and the same amount through the V3 pool.
  const uniswap = chain.protocols.uniswap as UniswapManifest;
  const share = truth.uniswapV2.find((candidate) => candidate.balance > 0n)!;
  const position = truth.uniswapV3.find((candidate) => candidate.inRange && candidate.liquidity > 0n)!;
  const deployer = chain.deployer as Address;
  const rpc = (method: string, params: unknown[]) => client.request({ method: method as never, params: params as never });
  await rpc('anvil_impersonateAccount', [deployer]);
  const send = async (to: Address, data: Hash) => {
    const hash = (await rpc('eth_sendTransaction', [{ from: deployer, to, data }])) as Hash;
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
  };
  const [reserve0] = await client.readContract({ address: share.pair, abi: v2PairAbi, functionName: 'getReserves' });
  const v2In = reserve0 / 100n;
  const v3In = (await client.readContract({ address: position.token0, abi: erc20Abi, functionName: 'balanceOf', args: [deployer] })) / 1000n;
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3_600);
  await send(share.token0, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [uniswap.v2.router, maxUint256] }));
  await send(
    uniswap.v2.router,
    encodeFunctionData({ abi: v2RouterAbi, functionName: 'swapExactTokensForTokens', args: [v2In, 0n, [share.token0, share.token1], deployer, deadline] }),
  );
  await send(position.token0, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [uniswap.v3.swapRouter, maxUint256] }));
  await send(
    uniswap.v3.swapRouter,
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: position.token0,
          tokenOut: position.token1,
          fee: position.fee,
          recipient: deployer,
          deadline,
          amountIn: v3In,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  );
  const moved = await client.getBlockNumber();
  const after = await readWalletTruth(client, chain, wallet, moved);
  // The swaps changed what the wallet's positions are worth in tokens: an unchanged chain would prove nothing.
  expect(protocolHoldings(after, chain)).not.toEqual(protocolHoldings(truth, chain));

  // Only the stored snapshot is watched: the service is asked nothing until it re-read the chain by itself.
  await eventually(async () => {
    const [snapshot] = await harness.database.prisma.protocolSnapshot.findMany({ where: { wallet: wallet.toLowerCase(), chainId: 'ethereum' } });
    expect(snapshot!.blockNumber >= moved && !snapshot!.stale).toBe(true);
  }, 60_000);
  const served = await list(false);
  expect(served.every((row) => BigInt(row.updatedAtBlock) === moved)).toBe(true);
  expect(servedHoldings(served)).toEqual(protocolHoldings(after, chain));
}, 300_000);
