import { encodeFunctionData, formatUnits, getAddress, maxUint256, stringToHex, type Address, type Hash, type Hex } from 'viem';
import type { Artifact } from '../../compile/index.js';
import { npmArtifact } from '../../compile/index.js';
import { createRng, type DeployContext } from '../../world/index.js';
import { erc20Abi, positionManagerAbi, v2FactoryAbi, v2RouterAbi, v3FactoryAbi, wethAbi } from './abi.js';
import { parseTokensInput, type TokensInput, type UniswapManifest, type UniswapToken, type UniswapV3PoolInfo } from './manifest.js';
import { createMarketPath, type AssetSpec, type MarketPath } from './market-path.js';
import { amountForUsd, priceFraction, roundPrice } from './prices.js';
import { alignTick, encodeSqrtPriceX96, getTickAtSqrtRatio, tickSpacingByFee, usableTickRange } from '@wallet-api/core/protocol-math';

const artifactPaths = {
  v2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  v2Router: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  v3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  nftDescriptor: '@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json',
  positionDescriptor: '@uniswap/v3-periphery/artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json',
  positionManager: '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  swapRouter: '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  quoter: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
};

const usdScale = 1_000_000n;
const ppm = 1_000_000n;

/** Fills the library placeholders of a Hardhat artifact with deployed library addresses. */
function linkLibraries(artifact: ReturnType<typeof npmArtifact>, libraries: Record<string, Address>): Artifact {
  let code = artifact.bytecode.slice(2);
  for (const references of Object.values(artifact.linkReferences ?? {})) {
    for (const [name, offsets] of Object.entries(references)) {
      const address = libraries[name];
      if (!address) throw new Error(`${artifact.contractName} needs library ${name}`);
      for (const { start, length } of offsets) {
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  return { contractName: artifact.contractName, abi: artifact.abi, bytecode: `0x${code}` };
}

interface PricedTokens {
  weth: UniswapToken;
  /** The first stable: the quote token of the USD pools. */
  usd: UniswapToken;
  btc?: UniswapToken;
  stables: UniswapToken[];
  standards: UniswapToken[];
  market: MarketPath;
}

/** Daily volatility of the reference paths, about what these assets show on real markets. */
const dailyVolatility = { stable: 0, weth: 0.035, btc: 0.03, standard: 0.06 };

/**
 * Reference prices: ether and bitcoin near their 2024 levels, stables at 1 USD, and each standard
 * token at a market capitalisation of 100M to 5B USD over its total supply, so a token minted by
 * the trillion trades at fractions of a cent, as such tokens do. Every draw depends on the world
 * seed and the symbol only, so a token has one price path on every chain; pools are seeded at the
 * path's first day.
 */
async function priceTokens(context: DeployContext, input: TokensInput, start: number): Promise<PricedTokens> {
  const specs: AssetSpec[] = [];
  const token = (entry: Pick<TokensInput['tokens'][number], 'symbol' | 'address' | 'decimals'>, startUsd: number, volatility: number): UniswapToken => {
    const priceUsd = roundPrice(startUsd);
    specs.push({ symbol: entry.symbol, startUsd: priceUsd, dailyVolatility: volatility });
    return { symbol: entry.symbol, address: entry.address, decimals: entry.decimals, priceUsd };
  };
  const wethEntry = input.tokens.find((entry) => entry.address === input.weth);
  const weth = token({ symbol: wethEntry?.symbol ?? 'WETH', address: input.weth, decimals: wethEntry?.decimals ?? 18 }, 3000, dailyVolatility.weth);
  const stables = input.tokens.filter((entry) => entry.kind === 'stable').map((entry) => token(entry, 1, dailyVolatility.stable));
  const usd = stables[0];
  if (!usd) throw new Error('uniswap needs a stable token in the tokens manifest');
  const btcEntry = input.tokens.find((entry) => entry.kind === 'btc');
  const btc = btcEntry ? token(btcEntry, 60_000, dailyVolatility.btc) : undefined;
  const standards: UniswapToken[] = [];
  for (const entry of input.tokens.filter((candidate) => candidate.kind === 'standard').slice(0, 3)) {
    const marketCapUsd = Math.exp(Math.log(1e8) + createRng(`${context.seed}/market/${entry.symbol}/cap`).next() * Math.log(50));
    const supply = await context.session.client.readContract({ address: entry.address, abi: erc20Abi, functionName: 'totalSupply' });
    standards.push(token(entry, marketCapUsd / Number(formatUnits(supply, entry.decimals)), dailyVolatility.standard));
  }
  // A day beyond the world's last, so the path covers every block timestamp of the build.
  const market = createMarketPath(context.seed, start, context.days + 2, specs);
  return { weth, usd, stables, standards, market, ...(btc ? { btc } : {}) };
}

function sortTokens(a: UniswapToken, b: UniswapToken): [UniswapToken, UniswapToken] {
  return a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a];
}

interface PairPlan {
  a: UniswapToken;
  b: UniswapToken;
  /** USD deposited on each side. */
  depthUsd: bigint;
}

interface PoolPlan extends PairPlan {
  fee: number;
  thin: boolean;
}

/**
 * Positions the deployer opens in each V3 pool and the share of the depth in each: full range,
 * then about +-20% and +-5% around the price (half-widths in ticks), as liquidity sits on mainnet.
 */
const deployerRanges: { halfWidth: number | 'full'; sharePpm: bigint }[] = [
  { halfWidth: 'full', sharePpm: 400_000n },
  { halfWidth: 1_800, sharePpm: 300_000n },
  { halfWidth: 500, sharePpm: 300_000n },
];

function deployerTicks(halfWidth: number | 'full', tick: number, spacing: number): { tickLower: number; tickUpper: number } {
  if (halfWidth === 'full') {
    const { minUsable, maxUsable } = usableTickRange(spacing);
    return { tickLower: minUsable, tickUpper: maxUsable };
  }
  return { tickLower: alignTick(tick - halfWidth, spacing), tickUpper: alignTick(tick + halfWidth, spacing) + spacing };
}

/** A thin pool is seeded this much above the market price, so a naive oracle reading it would be wrong. */
const thinPriceSkewPercent = 125n;

const usd = (dollars: number) => BigInt(dollars) * usdScale;

/** WETH the deployer wraps for the market maker on top of the pools' deposits. */
const marketMakerWeth = 2_000_000n * 10n ** 18n;

/**
 * Depths are per side and deep enough (mainnet-like for the majors) that the trades of many
 * wallets landing in one block move a price by well under the slippage they tolerate.
 */
function planPools(tokens: PricedTokens): { pairs: PairPlan[]; pools: PoolPlan[] } {
  const { weth, usd: dollar, btc, stables, standards } = tokens;
  const pairs: PairPlan[] = [];
  const pools: PoolPlan[] = [];
  for (const stable of stables) pairs.push({ a: stable, b: weth, depthUsd: usd(stable === dollar ? 200_000_000 : 50_000_000) });
  if (btc) pairs.push({ a: btc, b: weth, depthUsd: usd(100_000_000) });
  standards.forEach((token, index) => {
    pairs.push({ a: token, b: weth, depthUsd: usd(20_000_000) });
    if (index < 2) pairs.push({ a: token, b: dollar, depthUsd: usd(10_000_000) });
  });

  pools.push({ a: dollar, b: weth, fee: 500, depthUsd: usd(200_000_000), thin: false });
  pools.push({ a: dollar, b: weth, fee: 3000, depthUsd: usd(80_000_000), thin: false });
  pools.push({ a: dollar, b: weth, fee: 10000, depthUsd: usd(150), thin: true });
  for (const stable of stables.slice(1)) pools.push({ a: stable, b: dollar, fee: 500, depthUsd: usd(50_000_000), thin: false });
  if (btc) {
    pools.push({ a: btc, b: weth, fee: 500, depthUsd: usd(80_000_000), thin: false });
    pools.push({ a: btc, b: weth, fee: 3000, depthUsd: usd(40_000_000), thin: false });
  }
  const [first, second] = standards;
  if (first) {
    pools.push({ a: first, b: weth, fee: 3000, depthUsd: usd(20_000_000), thin: false });
    pools.push({ a: first, b: weth, fee: 10000, depthUsd: usd(5_000_000), thin: false });
  }
  if (second) pools.push({ a: second, b: dollar, fee: 3000, depthUsd: usd(10_000_000), thin: false });
  return { pairs, pools };
}

/**
 * Scales every pair and pool down, by the scarcest of its two tokens, so that the deployer commits
 * at most half of what it holds of any token (the rest stays for other modules).
 */
function fitToBalances(plans: PairPlan[], available: Map<Address, bigint>): void {
  const requested = new Map<Address, bigint>();
  for (const plan of plans) {
    for (const token of [plan.a, plan.b]) requested.set(token.address, (requested.get(token.address) ?? 0n) + amountForUsd(token, plan.depthUsd));
  }
  const scale = (token: UniswapToken) => {
    const want = requested.get(token.address)!;
    const have = available.get(token.address) ?? 0n;
    if (have === 0n) throw new Error(`the deployer holds no ${token.symbol}: the tokens module must give it a supply`);
    return have >= want ? ppm : (have * ppm) / want;
  };
  for (const plan of plans) {
    const factor = scale(plan.a) < scale(plan.b) ? scale(plan.a) : scale(plan.b);
    plan.depthUsd = (plan.depthUsd * factor) / ppm;
  }
}

const deployGas = {
  approve: 100_000n,
  wrap: 100_000n,
  addLiquidity: 6_000_000n,
  createPool: 8_000_000n,
  mint: 1_500_000n,
};

export async function deployUniswap(context: DeployContext): Promise<UniswapManifest> {
  const { session, deployer } = context;
  const client = session.client;
  const tokens = await priceTokens(context, parseTokensInput(context.deployed), context.clock());
  const weth = tokens.weth.address;

  const v2Factory = await session.deploy(npmArtifact(artifactPaths.v2Factory), [deployer], deployer, context.clock());
  const v2Router = await session.deploy(npmArtifact(artifactPaths.v2Router), [v2Factory, weth], deployer, context.clock());
  const v3Factory = await session.deploy(npmArtifact(artifactPaths.v3Factory), [], deployer, context.clock());
  const nftDescriptor = await session.deploy(npmArtifact(artifactPaths.nftDescriptor), [], deployer, context.clock());
  const positionDescriptor = await session.deploy(
    linkLibraries(npmArtifact(artifactPaths.positionDescriptor), { NFTDescriptor: nftDescriptor }),
    [weth, stringToHex('ETH', { size: 32 })],
    deployer,
    context.clock(),
  );
  const positionManager = await session.deploy(npmArtifact(artifactPaths.positionManager), [v3Factory, weth, positionDescriptor], deployer, context.clock());
  const swapRouter = await session.deploy(npmArtifact(artifactPaths.swapRouter), [v3Factory, weth], deployer, context.clock());
  const quoter = await session.deploy(npmArtifact(artifactPaths.quoter), [v3Factory, weth], deployer, context.clock());

  const { pairs, pools } = planPools(tokens);
  const used = [...new Map([...pairs, ...pools].flatMap((plan) => [plan.a, plan.b]).map((token) => [token.address, token])).values()];
  const balances = await Promise.all(
    used.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [deployer] })),
  );
  const ethBalance = await client.getBalance({ address: deployer });
  const available = new Map(used.map((token, index) => [token.address, balances[index]! / 2n]));
  available.set(weth, (available.get(weth) ?? 0n) + ethBalance / 2n);
  fitToBalances([...pairs, ...pools], available);

  const wethNeeded = [...pairs, ...pools]
    .flatMap((plan) => [plan.a, plan.b].filter((token) => token.address === weth).map((token) => amountForUsd(token, plan.depthUsd)))
    .reduce((sum, amount) => sum + amount, 0n);
  const wethHeld = balances[used.findIndex((token) => token.address === weth)] ?? 0n;
  const send = (to: Address, data: Hex, gas: bigint, value?: bigint) => session.send({ from: deployer, to, data, gas, ...(value ? { value } : {}) });
  const hashes: Hash[] = [];
  // Beyond the pools' own: the market maker's stock for arbitrage (see market-maker.ts).
  const wethToWrap = wethNeeded + marketMakerWeth - (wethHeld < wethNeeded ? wethHeld : wethNeeded);
  hashes.push(await send(weth, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), deployGas.wrap, wethToWrap));
  for (const token of used) {
    for (const spender of [v2Router, positionManager, swapRouter]) {
      hashes.push(await send(token.address, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }), deployGas.approve));
    }
  }

  const timestamp = context.clock();
  const deadline = BigInt(timestamp + 3600);
  for (const plan of pairs) {
    const data = encodeFunctionData({
      abi: v2RouterAbi,
      functionName: 'addLiquidity',
      args: [plan.a.address, plan.b.address, amountForUsd(plan.a, plan.depthUsd), amountForUsd(plan.b, plan.depthUsd), 0n, 0n, deployer, deadline],
    });
    hashes.push(await send(v2Router, data, deployGas.addLiquidity));
  }

  for (const plan of pools) {
    const [token0, token1] = sortTokens(plan.a, plan.b);
    const skew = plan.thin ? thinPriceSkewPercent : 100n;
    // Raw price token1 per token0 = (USD per token0 / USD per token1) scaled by the decimals.
    const [price0, price1] = [priceFraction(token0.priceUsd), priceFraction(token1.priceUsd)];
    const sqrtPriceX96 = encodeSqrtPriceX96(
      price0.numerator * price1.denominator * 10n ** BigInt(token1.decimals) * skew,
      price0.denominator * price1.numerator * 10n ** BigInt(token0.decimals) * 100n,
    );
    hashes.push(
      await send(
        positionManager,
        encodeFunctionData({
          abi: positionManagerAbi,
          functionName: 'createAndInitializePoolIfNecessary',
          args: [token0.address, token1.address, plan.fee, sqrtPriceX96],
        }),
        deployGas.createPool,
      ),
    );
    const tick = getTickAtSqrtRatio(sqrtPriceX96);
    const spacing = tickSpacingByFee[plan.fee]!;
    for (const range of plan.thin ? deployerRanges.slice(0, 1) : deployerRanges) {
      const depthUsd = plan.thin ? plan.depthUsd : (plan.depthUsd * range.sharePpm) / ppm;
      const data = encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0: token0.address,
            token1: token1.address,
            fee: plan.fee,
            ...deployerTicks(range.halfWidth, tick, spacing),
            amount0Desired: amountForUsd(token0, depthUsd),
            amount1Desired: amountForUsd(token1, depthUsd),
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: deployer,
            deadline,
          },
        ],
      });
      hashes.push(await send(positionManager, data, deployGas.mint));
    }
  }

  const block = await session.mine(timestamp);
  const reverted = hashes.filter((hash) => block.receipts.get(hash)?.status !== 'success');
  if (reverted.length > 0) throw new Error(`uniswap liquidity setup: ${reverted.length} transactions reverted, e.g. ${reverted[0]}`);

  const pairAddresses = await Promise.all(
    pairs.map((plan) => client.readContract({ address: v2Factory, abi: v2FactoryAbi, functionName: 'getPair', args: [plan.a.address, plan.b.address] })),
  );
  const poolAddresses = await Promise.all(
    pools.map((plan) =>
      client.readContract({ address: v3Factory, abi: v3FactoryAbi, functionName: 'getPool', args: [plan.a.address, plan.b.address, plan.fee] }),
    ),
  );
  const tradedTokens = [tokens.weth, ...tokens.stables, ...(tokens.btc ? [tokens.btc] : []), ...tokens.standards];
  return {
    weth,
    tokens: tradedTokens,
    market: tokens.market,
    v2: {
      factory: v2Factory,
      router: v2Router,
      pairs: pairs.map((plan, index) => {
        const [token0, token1] = sortTokens(plan.a, plan.b);
        return { address: getAddress(pairAddresses[index]!), token0: token0.address, token1: token1.address };
      }),
    },
    v3: {
      factory: v3Factory,
      positionManager,
      positionDescriptor,
      swapRouter,
      quoter,
      pools: pools.map((plan, index): UniswapV3PoolInfo => {
        const [token0, token1] = sortTokens(plan.a, plan.b);
        return {
          address: getAddress(poolAddresses[index]!),
          token0: token0.address,
          token1: token1.address,
          fee: plan.fee,
          tickSpacing: tickSpacingByFee[plan.fee]!,
          thin: plan.thin,
        };
      }),
    },
  };
}
