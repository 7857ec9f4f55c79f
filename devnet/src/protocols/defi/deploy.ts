import { encodeFunctionData, getAddress, maxUint256, type Address } from 'viem';
import type { TxRequest } from '../../chain/index.js';
import type { DeployContext } from '../../world/index.js';
import { erc20Abi, lendingAbi, stakingAbi, vaultAbi, wethAbi } from './abi.js';
import { mineBatch } from './batch.js';
import type { DefiManifest } from './manifest.js';
import { tokenOfKind, tokensSection, type TokenRef } from './tokens-section.js';

const day = 86_400;
const wad = 10n ** 18n;
/** Long enough to outlast any world's history, so vault yield and staking rewards never stop. */
const streamDays = 500;

const rewardToken = { name: 'Orchard Reward', symbol: 'ORCH', decimals: 18 };

interface MarketPlan {
  token: TokenRef;
  collateralFactor: bigint;
  baseRatePerYear: bigint;
  slopePerYear: bigint;
  price: bigint;
  seed: bigint;
}

function units(token: TokenRef, whole: number): bigint {
  return BigInt(whole) * 10n ** BigInt(token.decimals);
}

function percent(value: number): bigint {
  return (BigInt(Math.round(value * 100)) * wad) / 10_000n;
}

export async function deployDefi(context: DeployContext): Promise<DefiManifest> {
  const { session, artifacts, deployer, rng } = context;
  const client = session.client;
  const section = tokensSection(context.deployed);
  const usd = tokenOfKind(section, 'stable');
  const weth = tokenOfKind(section, 'weth');
  const btc = tokenOfKind(section, 'btc');
  const stakingToken = tokenOfKind(section, 'standard');

  const deploy = (name: string, args: readonly unknown[]) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`contract ${name} was not compiled`);
    return session.deploy(artifact, args, deployer, context.clock());
  };

  const rewardSupply = 10_000_000n * wad;
  // The reward token is a plain fixed-supply ERC-20 minted to the deployer: the tokens module's contract.
  const reward = await deploy('DevnetERC20', [rewardToken.name, rewardToken.symbol, rewardToken.decimals, rewardSupply, deployer]);
  const vaults = [usd, weth].map((asset) => ({ asset, name: `Yield ${asset.symbol} Vault`, symbol: `yv${asset.symbol}` }));
  const vaultAddresses: Address[] = [];
  for (const vault of vaults) vaultAddresses.push(await deploy('DefiYieldVault', [vault.asset.address, vault.name, vault.symbol]));
  const staking = await deploy('DefiStaking', [stakingToken.address, reward, deployer]);
  const pool = await deploy('DefiLendingPool', [deployer]);

  // Existing depositors (the deployer) so shares are never priced off an empty vault, and a yield
  // stream of 3-7% a year on that deposit.
  const vaultSeeds = [units(usd, rng.int(150_000, 400_000)), units(weth, rng.int(60, 200))];
  const streams = vaultSeeds.map((seed) => (seed * BigInt(rng.int(300, 700)) * BigInt(streamDays)) / (10_000n * 365n));
  const markets: MarketPlan[] = [
    {
      token: usd,
      collateralFactor: percent(80),
      baseRatePerYear: percent(2),
      slopePerYear: percent(18),
      price: wad,
      seed: units(usd, rng.int(1_000_000, 3_000_000)),
    },
    {
      token: weth,
      collateralFactor: percent(75),
      baseRatePerYear: percent(1),
      slopePerYear: percent(12),
      price: BigInt(rng.int(2_400, 3_600)) * wad,
      seed: units(weth, rng.int(500, 1_500)),
    },
    {
      token: btc,
      collateralFactor: percent(70),
      baseRatePerYear: percent(0.5),
      slopePerYear: percent(10),
      price: BigInt(rng.int(55_000, 72_000)) * wad,
      seed: units(btc, rng.int(20, 80)),
    },
  ];
  const stakingRewards = 3_000_000n * wad;

  const needs = new Map<Address, bigint>();
  const need = (token: TokenRef, amount: bigint) => needs.set(token.address, (needs.get(token.address) ?? 0n) + amount);
  vaults.forEach((vault, index) => need(vault.asset, vaultSeeds[index]! + streams[index]!));
  for (const market of markets) need(market.token, market.seed);
  const wethNeeded = needs.get(weth.address)!;
  for (const [token, amount] of needs) {
    if (token === weth.address) continue;
    const balance = await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [deployer] });
    if (balance < amount) throw new Error(`defi: the deployer holds ${balance} of ${token} but seeding needs ${amount}`);
  }

  const call = (to: Address, data: `0x${string}`, gas: bigint, value?: bigint): TxRequest => ({ from: deployer, to, data, gas, ...(value ? { value } : {}) });
  const approve = (token: Address, spender: Address) =>
    call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }), 80_000n);
  const setup: TxRequest[] = [call(weth.address, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), 80_000n, wethNeeded)];
  vaults.forEach((vault, index) => {
    const address = vaultAddresses[index]!;
    setup.push(
      approve(vault.asset.address, address),
      call(address, encodeFunctionData({ abi: vaultAbi, functionName: 'deposit', args: [vaultSeeds[index]!, deployer] }), 300_000n),
      call(address, encodeFunctionData({ abi: vaultAbi, functionName: 'donateYield', args: [streams[index]!, BigInt(streamDays * day)] }), 200_000n),
    );
  });
  setup.push(
    call(reward, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [staking, stakingRewards] }), 80_000n),
    call(staking, encodeFunctionData({ abi: stakingAbi, functionName: 'notifyRewardAmount', args: [stakingRewards, BigInt(streamDays * day)] }), 200_000n),
  );
  for (const market of markets) {
    setup.push(
      call(
        pool,
        encodeFunctionData({
          abi: lendingAbi,
          functionName: 'listMarket',
          args: [market.token.address, market.collateralFactor, percent(10), market.baseRatePerYear, market.slopePerYear, market.price],
        }),
        300_000n,
      ),
      approve(market.token.address, pool),
      call(pool, encodeFunctionData({ abi: lendingAbi, functionName: 'supply', args: [market.token.address, market.seed] }), 300_000n),
    );
  }
  await mineBatch(session, setup, context.clock());

  const [periodFinish, shortLock, longLock] = await Promise.all(
    (['periodFinish', 'SHORT_LOCK', 'LONG_LOCK'] as const).map((functionName) => client.readContract({ address: staking, abi: stakingAbi, functionName })),
  );
  return {
    weth: weth.address,
    vaults: vaults.map((vault, index) => ({
      address: getAddress(vaultAddresses[index]!),
      name: vault.name,
      symbol: vault.symbol,
      decimals: vault.asset.decimals,
      asset: vault.asset.address,
      assetSymbol: vault.asset.symbol,
    })),
    staking: {
      address: getAddress(staking),
      stakingToken: stakingToken.address,
      rewardToken: getAddress(reward),
      lockDurations: [Number(shortLock), Number(longLock)],
      periodFinish: Number(periodFinish),
    },
    lending: {
      address: getAddress(pool),
      markets: markets.map((market) => ({
        token: market.token.address,
        symbol: market.token.symbol,
        decimals: market.token.decimals,
        collateralFactor: market.collateralFactor.toString(),
      })),
    },
    tokens: [
      { address: getAddress(reward), ...rewardToken },
      ...vaults.map((vault, index) => ({
        address: getAddress(vaultAddresses[index]!),
        name: vault.name,
        symbol: vault.symbol,
        decimals: vault.asset.decimals,
      })),
    ],
  };
}
