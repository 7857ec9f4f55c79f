import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, maxUint256, parseEther, parseUnits, type Address, type Hash, type Hex } from 'viem';
import type { ChainSession } from '../src/chain/index.js';
import { npmArtifact } from '../src/compile/index.js';
import { positionManagerAbi, swapRouterAbi, v2FactoryAbi, v2RouterAbi, v3FactoryAbi, v3PoolAbi, wethAbi } from '../src/protocols/uniswap/abi.js';
import { uniswapModule, type UniswapManifest } from '../src/protocols/uniswap/index.js';
import { getSqrtRatioAtTick } from '@wallet-api/core/protocol-math';
import { readUniswapV2Shares, readUniswapV3Positions, type UniswapV2Share, type UniswapV3Position } from '../src/truth/uniswap.js';
import { devnetAccounts, expectDeclaredOutcomes, setupDevnet, walkActions, type Devnet, type Performed } from './setup-devnet.js';

const accounts = devnetAccounts('uniswap-test', 5);
const { deployer, wallets } = accounts;
const preApproved = wallets.slice(0, 3);
const maxUint128 = (1n << 128n) - 1n;
const farDeadline = 2n ** 40n;

/**
 * Stand-in for the tokens module's ERC-20 (same shape: name, symbol, decimals, supply to a holder),
 * compiled from a scratch folder so this test needs nothing from another module's sources.
 */
const testTokenSource = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
contract UniswapTestToken is ERC20 {
    uint8 private immutable _decimals;
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder) ERC20(name_, symbol_) {
        _decimals = decimals_;
        _mint(holder, supply);
    }
    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
`;

const testTokens = [
  { symbol: 'USDC', decimals: 6, kind: 'stable', supply: '100000000000', walletRange: [500, 60_000] },
  { symbol: 'DAI', decimals: 18, kind: 'stable', supply: '100000000000', walletRange: [100, 20_000] },
  { symbol: 'WBTC', decimals: 8, kind: 'btc', supply: '2000000', walletRange: [0.01, 2] },
  { symbol: 'GOV', decimals: 18, kind: 'standard', supply: '1000000000', walletRange: [50, 25_000] },
  { symbol: 'FROG', decimals: 18, kind: 'standard', supply: '420000000000000', walletRange: [1_000_000, 5_000_000_000] },
  { symbol: 'TAX', decimals: 18, kind: 'fee-on-transfer', supply: '1000000000', walletRange: [100, 1_000] },
] as const;

/** The order wallets walk through the actions: every kind early, swaps often so positions earn fees. */
const script = [
  'uniswap-v3:mint',
  'uniswap-v2:add-liquidity',
  'uniswap-v3:swap',
  'uniswap-v2:swap',
  'uniswap-v3:mint',
  'uniswap-v2:swap-eth-for-tokens',
  'uniswap-v3:swap',
  'uniswap-v2:swap-tokens-for-eth',
  'uniswap-v3:increase-liquidity',
  'uniswap-v3:swap',
  'uniswap-v3:collect',
  'uniswap-v3:decrease-liquidity',
  'uniswap-v2:add-liquidity',
  'uniswap-v3:collect',
  'uniswap-v3:swap',
  'uniswap-v2:remove-liquidity',
  'uniswap-v3:mint',
  'uniswap-v3:burn',
  'uniswap-v2:swap',
];

describe('uniswap module', () => {
  let devnet: Devnet;
  let session: ChainSession;
  let manifest: UniswapManifest;
  let performed: Performed[] = [];
  const roundBlocks: bigint[] = [];

  async function approveLpTokens(wallet: Address): Promise<Hash[]> {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [manifest.v2.router, maxUint256] });
    return Promise.all(manifest.v2.pairs.map((pair) => session.send({ from: wallet, to: pair.address, data, gas: 100_000n })));
  }

  /**
   * The deployer trades each live V3 pool back and forth (more one way than the other), so that
   * wallet positions earn fees and narrow ranges end up out of range.
   */
  async function churnV3Pools(): Promise<void> {
    // The deployer put all the WETH it wrapped into pools; wrap some for trading.
    const wrap = encodeFunctionData({ abi: wethAbi, functionName: 'deposit' });
    const calls: Hash[] = [await session.send({ from: deployer, to: manifest.weth, data: wrap, value: parseEther('1000'), gas: 100_000n })];
    for (const token of manifest.tokens) {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [manifest.v3.swapRouter, maxUint256] });
      calls.push(await session.send({ from: deployer, to: token.address, data, gas: 100_000n }));
    }
    for (const pool of manifest.v3.pools.filter((entry) => !entry.thin)) {
      for (const [tokenIn, tokenOut, usdValue] of [
        [pool.token0, pool.token1, 300_000],
        [pool.token1, pool.token0, 180_000],
      ] as const) {
        const token = manifest.tokens.find((entry) => entry.address === tokenIn)!;
        const amountIn = parseUnits((usdValue / token.priceUsd).toFixed(Math.min(token.decimals, 6)), token.decimals);
        const data = encodeFunctionData({
          abi: swapRouterAbi,
          functionName: 'exactInputSingle',
          args: [{ tokenIn, tokenOut, fee: pool.fee, recipient: deployer, deadline: farDeadline, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
        });
        calls.push(await session.send({ from: deployer, to: manifest.v3.swapRouter, data, gas: 1_500_000n }));
      }
    }
    const block = await session.mine(devnet.clock.advance(1800));
    for (const hash of calls) expect(block.receipts.get(hash)?.status).toBe('success');
  }

  beforeAll(async () => {
    devnet = await setupDevnet({
      accounts,
      deployerEth: '10000000',
      contracts: async (anvilDir) => {
        const sourcesDir = join(anvilDir, 'token-sources');
        await mkdir(sourcesDir);
        await writeFile(join(sourcesDir, 'UniswapTestToken.sol'), testTokenSource);
        return sourcesDir;
      },
    });
    ({ session, performed } = devnet);
    const { clock } = devnet;

    const weth = await session.deploy(npmArtifact('@uniswap/v2-periphery/build/WETH9.json'), [], deployer, clock.tick());
    const tokens: { symbol: string; name: string; address: Address; decimals: number; kind: string }[] = [
      { symbol: 'WETH', name: 'Wrapped Ether', address: weth, decimals: 18, kind: 'weth' },
    ];
    for (const token of testTokens) {
      const args = [token.symbol, token.symbol, token.decimals, parseUnits(token.supply, token.decimals), deployer];
      tokens.push({
        symbol: token.symbol,
        name: token.symbol,
        address: await session.deploy(devnet.artifacts.UniswapTestToken!, args, deployer, clock.tick()),
        decimals: token.decimals,
        kind: token.kind,
      });
    }
    devnet.deployed.tokens = { weth, tokens };

    manifest = await devnet.deploy(uniswapModule);

    // Wallets hold what the tokens module would give them: ETH, a random handful of tokens, some WETH.
    const fundRng = devnet.rng.fork('fund');
    const funding: Hash[] = [];
    for (const wallet of wallets) {
      await session.setBalance(wallet, parseEther(String(fundRng.int(3, 30))));
      for (const token of testTokens) {
        if (!fundRng.chance(0.75)) continue;
        const [min, max] = token.walletRange;
        const amount = parseUnits((min + fundRng.next() * (max - min)).toFixed(Math.min(token.decimals, 4)), token.decimals);
        const entry = tokens.find((candidate) => candidate.symbol === token.symbol)!;
        funding.push(await devnet.sendToken(entry.address, wallet, amount, { gas: 100_000n }));
      }
      if (fundRng.chance(0.6)) {
        funding.push(
          await session.send({
            from: wallet,
            to: weth,
            data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
            value: parseEther('1.5'),
            gas: 100_000n,
          }),
        );
      }
    }
    // Wallets that approved the router for their LP tokens up front can have removeLiquidity
    // simulated at any block; the others leave the remove action its own approvals to send.
    for (const wallet of preApproved) funding.push(...(await approveLpTokens(wallet)));
    const fundBlock = await session.mine(clock.advance(3600));
    for (const hash of funding) expect(fundBlock.receipts.get(hash)?.status).toBe('success');

    const actions = new Map(uniswapModule.actions(manifest).map((action) => [action.kind, action]));
    const blocks = await devnet.runActions({
      rounds: script.length,
      seconds: 3600 * 5,
      beforeRound: async (round) => {
        if (round % 4 === 3) await churnV3Pools();
      },
      act: walkActions(
        script.map((kind) => actions.get(kind)!),
        3,
      ),
    });
    roundBlocks.push(...blocks.map((block) => block.number));

    // Planned failures are rare (3% of swaps): keep swapping with ether,
    // topped up each round, until both swap kinds have produced one.
    const failing = ['uniswap-v2:swap-eth-for-tokens', 'uniswap-v3:swap'];
    const failed = (kind: string) => performed.some((entry) => entry.kind === kind && entry.result.expectFailure);
    const swapUntilFailed = walkActions(failing.map((kind) => actions.get(kind)!));
    await devnet.runActions({
      rounds: 80,
      until: () => failing.every(failed),
      seconds: 600,
      rng: (round) => devnet.rng.fork(`failures/${round}`),
      act: async (context, wallet, index, round) => {
        await session.setBalance(wallet, parseEther('20'));
        return swapUntilFailed(context, wallet, index, round);
      },
    });
    await churnV3Pools();
  }, 120_000);

  afterAll(async () => {
    await devnet?.stop();
  });

  test('the manifest is plain JSON and matches the factories', async () => {
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
    const client = session.client;
    for (const pair of manifest.v2.pairs) {
      expect(BigInt(pair.token0) < BigInt(pair.token1)).toBe(true);
      expect(await client.readContract({ address: manifest.v2.factory, abi: v2FactoryAbi, functionName: 'getPair', args: [pair.token1, pair.token0] })).toBe(
        pair.address,
      );
    }
    expect(manifest.v2.pairs.length).toBeGreaterThanOrEqual(7);
    for (const pool of manifest.v3.pools) {
      expect(BigInt(pool.token0) < BigInt(pool.token1)).toBe(true);
      expect(
        await client.readContract({ address: manifest.v3.factory, abi: v3FactoryAbi, functionName: 'getPool', args: [pool.token0, pool.token1, pool.fee] }),
      ).toBe(pool.address);
    }
    expect(new Set(manifest.v3.pools.map((pool) => pool.fee))).toEqual(new Set([500, 3000, 10000]));
    expect(manifest.v3.pools.filter((pool) => pool.thin)).toHaveLength(1);
    // Tokens that cannot be pooled honestly (fee-on-transfer) are left out.
    expect(manifest.tokens.map((token) => token.symbol)).not.toContain('TAX');
  });

  test('the thin pool is mispriced against the deep pools of the same pair', async () => {
    const thin = manifest.v3.pools.find((pool) => pool.thin)!;
    const deep = manifest.v3.pools.find((pool) => !pool.thin && pool.token0 === thin.token0 && pool.token1 === thin.token1 && pool.fee === 500)!;
    const price = async (pool: Address) => {
      const [sqrtPriceX96] = await session.client.readContract({ address: pool, abi: v3PoolAbi, functionName: 'slot0' });
      return Number(sqrtPriceX96) ** 2;
    };
    const ratio = (await price(thin.address)) / (await price(deep.address));
    // Seeded 25% off; the deep pool has since moved by the test's trades, by a few percent at most.
    expect(Math.abs(Math.log(ratio))).toBeGreaterThan(Math.log(1.15));
  });

  test('every action kind ran and each transaction succeeded or failed as declared', () => {
    const kinds = new Set(performed.map((entry) => entry.kind));
    for (const action of uniswapModule.actions(manifest)) expect(kinds).toContain(action.kind);
    for (const { result } of performed) expect(result.hashes.length).toBeGreaterThan(0);
    expectDeclaredOutcomes(performed, 'last');
    for (const kind of ['uniswap-v2:swap-eth-for-tokens', 'uniswap-v3:swap']) {
      expect(performed.some((entry) => entry.kind === kind && entry.result.expectFailure)).toBe(true);
    }
    const labels = new Set(performed.map((entry) => entry.result.label));
    for (const label of ['uniswap-v3:mint', 'uniswap-v3:swap', 'uniswap-v2:swap', 'uniswap-v2:remove-liquidity']) expect(labels).toContain(label);
  });

  /** decreaseLiquidity(all) then collect(max), simulated from the owner at the block: what closing the position pays. */
  async function simulateClose(owner: Address, position: UniswapV3Position, blockNumber: bigint) {
    const calls: Hex[] = [];
    if (position.liquidity > 0n) {
      calls.push(
        encodeFunctionData({
          abi: positionManagerAbi,
          functionName: 'decreaseLiquidity',
          args: [{ tokenId: position.tokenId, liquidity: position.liquidity, amount0Min: 0n, amount1Min: 0n, deadline: farDeadline }],
        }),
      );
    }
    calls.push(
      encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'collect',
        args: [{ tokenId: position.tokenId, recipient: owner, amount0Max: maxUint128, amount1Max: maxUint128 }],
      }),
    );
    const { result } = await session.client.simulateContract({
      account: owner,
      address: manifest.v3.positionManager,
      abi: positionManagerAbi,
      functionName: 'multicall',
      args: [calls],
      blockNumber,
    });
    const decreased =
      position.liquidity > 0n ? decodeFunctionResult({ abi: positionManagerAbi, functionName: 'decreaseLiquidity', data: result[0]! }) : ([0n, 0n] as const);
    const collected = decodeFunctionResult({ abi: positionManagerAbi, functionName: 'collect', data: result[result.length - 1]! });
    return { decreased, collected };
  }

  async function checkV3Truth(blockNumber: bigint) {
    const all: UniswapV3Position[] = [];
    for (const wallet of wallets) {
      const positions = await readUniswapV3Positions(session.client, manifest, wallet, blockNumber);
      for (const position of positions) {
        const { decreased, collected } = await simulateClose(wallet, position, blockNumber);
        expect({ tokenId: position.tokenId, amounts: decreased }).toEqual({ tokenId: position.tokenId, amounts: [position.amount0, position.amount1] });
        expect({ tokenId: position.tokenId, amounts: collected }).toEqual({
          tokenId: position.tokenId,
          amounts: [position.amount0 + position.uncollected0, position.amount1 + position.uncollected1],
        });
        // The position's range and price are the pool's own.
        expect(position.inRange).toBe(
          position.sqrtPriceX96 >= getSqrtRatioAtTick(position.tickLower) && position.sqrtPriceX96 < getSqrtRatioAtTick(position.tickUpper),
        );
      }
      all.push(...positions);
    }
    return all;
  }

  test('V3 truth equals what decreaseLiquidity and collect pay, after every round and at the end', async () => {
    const checked: UniswapV3Position[] = [];
    for (const blockNumber of [...roundBlocks, await session.client.getBlockNumber()]) checked.push(...(await checkV3Truth(blockNumber)));
    const end = await checkV3Truth(await session.client.getBlockNumber());
    expect(end.length).toBeGreaterThan(2);
    // Every branch of the arithmetic was exercised somewhere along the way.
    expect(checked.some((position) => position.pendingFees0 > 0n || position.pendingFees1 > 0n)).toBe(true);
    expect(checked.some((position) => position.tokensOwed0 > 0n || position.tokensOwed1 > 0n)).toBe(true);
    expect(checked.some((position) => position.liquidity > 0n && position.inRange)).toBe(true);
    expect(checked.some((position) => position.liquidity > 0n && position.tick < position.tickLower)).toBe(true);
    expect(checked.some((position) => position.liquidity > 0n && position.tick >= position.tickUpper)).toBe(true);
    expect(end.some((position) => position.pendingFees0 > 0n || position.pendingFees1 > 0n)).toBe(true);
  });

  /** removeLiquidity of the whole balance, simulated from the wallet at the block, against the truth. */
  async function checkV2Truth(wallet: Address, blockNumber: bigint): Promise<UniswapV2Share[]> {
    const shares = await readUniswapV2Shares(session.client, manifest, wallet, blockNumber);
    for (const share of shares) {
      const { result } = await session.client.simulateContract({
        account: wallet,
        address: manifest.v2.router,
        abi: v2RouterAbi,
        functionName: 'removeLiquidity',
        args: [share.token0, share.token1, share.balance, 0n, 0n, wallet, farDeadline],
        blockNumber,
      });
      expect({ pair: share.pair, amounts: result }).toEqual({ pair: share.pair, amounts: [share.amount0, share.amount1] });
      expect(share.balance).toBeLessThan(share.totalSupply);
      expect(share.amount0).toBeLessThan(share.reserve0);
      expect(share.amount1).toBeLessThan(share.reserve1);
    }
    return shares;
  }

  test('V2 truth equals what removeLiquidity pays, after every round and at the end', async () => {
    let checked = 0;
    for (const blockNumber of roundBlocks) {
      for (const wallet of preApproved) checked += (await checkV2Truth(wallet, blockNumber)).length;
    }
    const approvals = (await Promise.all(wallets.filter((wallet) => !preApproved.includes(wallet)).map(approveLpTokens))).flat();
    const block = await session.mine(devnet.clock.advance(60));
    for (const hash of approvals) expect(block.receipts.get(hash)?.status).toBe('success');
    let atEnd = 0;
    for (const wallet of wallets) atEnd += (await checkV2Truth(wallet, block.number)).length;
    expect(checked).toBeGreaterThan(5);
    expect(atEnd).toBeGreaterThan(0);
  });
});
