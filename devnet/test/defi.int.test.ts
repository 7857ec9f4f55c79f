import { decodeErrorResult, encodeFunctionData, getAbiItem, maxUint256, parseEther, type Hex } from 'viem';
import type { ChainSession, MinedBlock } from '../src/chain/index.js';
import { erc20Abi, lendingAbi, stakingAbi, vaultAbi, wethAbi } from '../src/protocols/defi/abi.js';
import { defiModule, type DefiManifest } from '../src/protocols/defi/index.js';
import { tokenBySymbol, tokensModule, type TokensManifest } from '../src/protocols/tokens/index.js';
import { borrowRatePerSecond, lendingAccountValue, readDefiHoldings, readLendingPositions, vaultAssetsFromTotals } from '../src/truth/defi.js';
import { devnetAccounts, expectDeclaredOutcomes, setupDevnet, walkActions, type Devnet, type Performed } from './setup-devnet.js';

const accounts = devnetAccounts('defi-test', 4);
const { deployer, wallets } = accounts;
const day = 86_400;

describe('defi module', () => {
  let devnet: Devnet;
  let session: ChainSession;
  let tokens: TokensManifest;
  let defi: DefiManifest;
  let mined: MinedBlock[];
  let performed: Performed[];

  beforeAll(async () => {
    devnet = await setupDevnet({ accounts, deployerEth: '10000000', modules: [tokensModule, defiModule] });
    ({ session, mined, performed } = devnet);
    tokens = devnet.manifest(tokensModule);
    defi = devnet.manifest(defiModule);

    // Every wallet holds each token the module uses, in different amounts.
    await devnet.fundWallets({
      rng: devnet.rng.fork('fund'),
      eth: (rng) => rng.int(8, 40),
      tokens,
      amounts: [
        ['USDC', (rng) => rng.int(2_000, 60_000)],
        ['WBTC', (rng) => rng.int(1, 30) / 10],
        ['GOV', (rng) => rng.int(500, 40_000)],
      ],
      seconds: 3600,
    });

    // Each wallet walks the action list three times, one action per wallet per block, four days
    // apart: deposits come before withdrawals, supplies before borrows, locks before their unlock.
    const actions = defiModule.actions(defi);
    await devnet.runActions({ rounds: actions.length * 3, seconds: 4 * day, act: walkActions(actions) });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  test('the manifest is plain JSON and names the vaults, staking tokens and markets', () => {
    expect(JSON.parse(JSON.stringify(defi))).toEqual(defi);
    expect(defi.vaults.map((vault) => vault.assetSymbol)).toEqual(['USDC', 'WETH']);
    expect(defi.lending.markets.map((market) => market.symbol)).toEqual(['USDC', 'WETH', 'WBTC']);
    expect(defi.staking.stakingToken).toBe(tokenBySymbol(tokens, 'GOV').address);
    expect(defi.staking.lockDurations).toEqual([30 * day, 90 * day]);
    expect(defi.tokens.map((token) => token.symbol)).toEqual(['ORCH', 'yvUSDC', 'yvWETH']);
  });

  test('every action and label ran, and each transaction succeeded or failed as declared', () => {
    expect([...new Set(performed.map((entry) => entry.kind))].sort()).toEqual(
      defiModule
        .actions(defi)
        .map((action) => action.kind)
        .sort(),
    );
    expect([...new Set(performed.map((entry) => entry.result.label))].sort()).toEqual(
      [
        'defi:borrow',
        'defi:borrow-over-limit',
        'defi:claim-rewards',
        'defi:price-update',
        'defi:repay',
        'defi:repay-all',
        'defi:stake',
        'defi:stake-locked',
        'defi:supply',
        'defi:unstake',
        'defi:unstake-early',
        'defi:unstake-locked',
        'defi:vault-deposit',
        'defi:vault-redeem',
        'defi:vault-withdraw',
        'defi:vault-yield',
        'defi:withdraw-supply',
        'defi:withdraw-supply-all',
      ].sort(),
    );
    expectDeclaredOutcomes(performed, 'last');
    // Approvals and wraps share the block with the deposit that needs them.
    expect(performed.some((entry) => entry.result.label === 'defi:vault-deposit' && entry.result.hashes.length >= 2)).toBe(true);
  });

  test('planned failures revert for the planned reason', async () => {
    const reasons = new Map<string, Set<string>>();
    for (const entry of performed.filter((candidate) => candidate.result.expectFailure)) {
      const trace = (await session.client.request({
        method: 'debug_traceTransaction' as never,
        params: [entry.result.hashes.at(-1)!, { tracer: 'callTracer' }] as never,
      })) as { output: Hex };
      const error = decodeErrorResult({ abi: [...stakingAbi, ...lendingAbi], data: trace.output });
      reasons.set(entry.result.label, (reasons.get(entry.result.label) ?? new Set()).add(error.errorName));
    }
    expect(reasons.get('defi:unstake-early')).toEqual(new Set(['StillLocked']));
    expect(reasons.get('defi:borrow-over-limit')).toEqual(new Set(['InsufficientLiquidity']));
  });

  test("the truth readers agree with the contracts' own views at past blocks", async () => {
    const client = session.client;
    const sampled = mined.filter((_, index) => index % 5 === 0 || index === mined.length - 1);
    let checked = 0;
    for (const { number: blockNumber } of sampled) {
      for (const wallet of wallets) {
        const truth = await readDefiHoldings(client, defi, wallet, blockNumber);
        for (const vault of truth.vaults) {
          expect(await client.readContract({ address: vault.vault, abi: vaultAbi, functionName: 'previewRedeem', args: [vault.shares], blockNumber })).toBe(
            vault.assets,
          );
        }
        const staking = { address: defi.staking.address, abi: stakingAbi, blockNumber } as const;
        expect(truth.staking.earned).toBe(await client.readContract({ ...staking, functionName: 'earned', args: [wallet] }));
        expect(truth.staking.flexible).toBe(await client.readContract({ ...staking, functionName: 'flexibleBalanceOf', args: [wallet] }));
        const locks = await client.readContract({ ...staking, functionName: 'locksOf', args: [wallet] });
        expect(truth.staking.locked.map((lock) => lock.amount)).toEqual(locks.filter((lock) => !lock.withdrawn).map((lock) => lock.amount));
        for (const market of defi.lending.markets) {
          const pool = { address: defi.lending.address, abi: lendingAbi, blockNumber } as const;
          const supplied = await client.readContract({ ...pool, functionName: 'supplyBalanceOf', args: [market.token, wallet] });
          const debt = await client.readContract({ ...pool, functionName: 'borrowBalanceOf', args: [market.token, wallet] });
          const held = truth.lending.find((entry) => entry.token === market.token) ?? { supplied: 0n, debt: 0n };
          expect({ supplied: held.supplied, debt: held.debt }).toEqual({ supplied, debt });
          if (supplied > 0n || debt > 0n) checked++;
        }
        // The pool's own accrual and liquidity, against the same arithmetic done here.
        const positions = await readLendingPositions(client, defi.lending, wallet, { blockNumber });
        const pool = { address: defi.lending.address, abi: lendingAbi, blockNumber } as const;
        for (const position of positions) {
          expect(await client.readContract({ ...pool, functionName: 'accruedState', args: [position.token] })).toEqual(position.state);
          expect(await client.readContract({ ...pool, functionName: 'borrowRatePerSecond', args: [position.token] })).toBe(
            borrowRatePerSecond(position.config, position.state),
          );
        }
        const { powerUsd, debtUsd } = lendingAccountValue(positions);
        const [liquidity, shortfall] = await client.readContract({ ...pool, functionName: 'accountLiquidity', args: [wallet] });
        expect({ liquidity, shortfall }).toEqual(
          powerUsd >= debtUsd ? { liquidity: powerUsd - debtUsd, shortfall: 0n } : { liquidity: 0n, shortfall: debtUsd - powerUsd },
        );
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  test("positions follow from the module's events", async () => {
    const client = session.client;
    const blockNumber = mined.at(-1)!.number;
    const range = { fromBlock: 0n, toBlock: blockNumber } as const;
    const stakingLogs = await client.getLogs({
      ...range,
      address: defi.staking.address,
      events: [
        getAbiItem({ abi: stakingAbi, name: 'Staked' }),
        getAbiItem({ abi: stakingAbi, name: 'StakedLocked' }),
        getAbiItem({ abi: stakingAbi, name: 'Withdrawn' }),
        getAbiItem({ abi: stakingAbi, name: 'WithdrawnLocked' }),
        getAbiItem({ abi: stakingAbi, name: 'RewardPaid' }),
      ],
    });
    const poolLogs = await client.getLogs({
      ...range,
      address: defi.lending.address,
      events: [
        getAbiItem({ abi: lendingAbi, name: 'Supply' }),
        getAbiItem({ abi: lendingAbi, name: 'Withdraw' }),
        getAbiItem({ abi: lendingAbi, name: 'Borrow' }),
        getAbiItem({ abi: lendingAbi, name: 'Repay' }),
      ],
    });
    for (const wallet of wallets) {
      const truth = await readDefiHoldings(client, defi, wallet, blockNumber);
      const mine = <T extends { args: object }>(logs: T[], key: string) => logs.filter((log) => (log.args as Record<string, unknown>)[key] === wallet);

      for (const vault of defi.vaults) {
        const logs = await client.getLogs({
          ...range,
          address: vault.address,
          events: [getAbiItem({ abi: vaultAbi, name: 'Deposit' }), getAbiItem({ abi: vaultAbi, name: 'Withdraw' })],
        });
        let shares = 0n;
        for (const log of mine(logs, 'owner')) shares += log.eventName === 'Deposit' ? log.args.shares! : -log.args.shares!;
        expect(truth.vaults.find((entry) => entry.vault === vault.address)!.shares).toBe(shares);
      }

      let flexible = 0n;
      let rewardsPaid = 0n;
      const locks = new Map<number, bigint>();
      for (const log of mine(stakingLogs, 'user')) {
        if (log.eventName === 'Staked') flexible += log.args.amount!;
        else if (log.eventName === 'Withdrawn') flexible -= log.args.amount!;
        else if (log.eventName === 'StakedLocked') locks.set(Number(log.args.lockId!), log.args.amount!);
        else if (log.eventName === 'WithdrawnLocked') locks.delete(Number(log.args.lockId!));
        else rewardsPaid += log.args.reward!;
      }
      expect(truth.staking.flexible).toBe(flexible);
      expect(truth.staking.locked.map((lock) => [lock.lockId, lock.amount])).toEqual([...locks.entries()].sort((a, b) => a[0] - b[0]));
      expect(await client.readContract({ address: defi.staking.rewardToken, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber })).toBe(
        rewardsPaid,
      );

      for (const market of defi.lending.markets) {
        const logs = mine(poolLogs, 'account').filter((log) => log.args.token === market.token);
        let shares = 0n;
        let principal = 0n;
        for (const log of logs) {
          if (log.eventName === 'Supply') shares += log.args.shares!;
          else if (log.eventName === 'Withdraw') shares -= log.args.shares!;
          else principal = log.args.accountDebt!;
        }
        const pool = { address: defi.lending.address, abi: lendingAbi, blockNumber } as const;
        expect(await client.readContract({ ...pool, functionName: 'supplySharesOf', args: [market.token, wallet] })).toBe(shares);
        expect((await client.readContract({ ...pool, functionName: 'borrowSnapshotOf', args: [market.token, wallet] }))[0]).toBe(principal);
      }
    }
  });

  test('vault share prices rise with the streamed yield; totalAssets is the balance less what has not vested', async () => {
    const client = session.client;
    for (const vault of defi.vaults) {
      const contract = { address: vault.address, abi: vaultAbi } as const;
      const one = 10n ** BigInt(vault.decimals);
      const prices: bigint[] = [];
      for (const { number: blockNumber, timestamp } of [mined[0]!, mined[20]!, mined.at(-1)!]) {
        const [totalAssets, totalSupply, balance, streamAmount, streamStart, streamEnd, unvestedOnChain] = await Promise.all([
          client.readContract({ ...contract, functionName: 'totalAssets', blockNumber }),
          client.readContract({ ...contract, functionName: 'totalSupply', blockNumber }),
          client.readContract({ address: vault.asset, abi: erc20Abi, functionName: 'balanceOf', args: [vault.address], blockNumber }),
          client.readContract({ ...contract, functionName: 'streamAmount', blockNumber }),
          client.readContract({ ...contract, functionName: 'streamStart', blockNumber }),
          client.readContract({ ...contract, functionName: 'streamEnd', blockNumber }),
          client.readContract({ ...contract, functionName: 'unvested', blockNumber }),
        ]);
        const now = BigInt(timestamp);
        const unvested = now >= streamEnd ? 0n : (streamAmount * (streamEnd - now)) / (streamEnd - streamStart);
        expect(unvestedOnChain).toBe(unvested);
        expect(totalAssets).toBe(balance - unvested);
        prices.push(vaultAssetsFromTotals(one, totalAssets, totalSupply));
      }
      expect(prices[0]! > one).toBe(true);
      expect(prices[1]! > prices[0]!).toBe(true);
      expect(prices[2]! > prices[1]!).toBe(true);
    }
  });

  test('truth equals what redeem-all, claim, withdraw-all and repay-all pay or take at the latest block', async () => {
    const client = session.client;
    // Thirty quiet days, then every wallet allows the pool its tokens and has enough to repay.
    const positionsBefore = await Promise.all(wallets.map((wallet) => readDefiHoldings(client, defi, wallet, mined.at(-1)!.number)));
    const weth = tokenBySymbol(tokens, 'WETH');
    for (const wallet of wallets) {
      for (const market of defi.lending.markets) {
        await session.send({
          from: wallet,
          to: market.token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [defi.lending.address, maxUint256] }),
          gas: 80_000n,
        });
        if (market.token === weth.address)
          await session.send({
            from: wallet,
            to: weth.address,
            data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
            value: parseEther('3'),
            gas: 80_000n,
          });
        else
          await session.send({
            from: deployer,
            to: market.token,
            data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [wallet, 10n ** BigInt(market.decimals + 4)] }),
            gas: 120_000n,
          });
      }
    }
    const block = await session.mine(devnet.clock.advance(30 * day));
    expect([...block.receipts.values()].every((receipt) => receipt.status === 'success')).toBe(true);

    let redeemed = 0;
    let claimed = 0;
    let withdrawn = 0;
    let repaid = 0;
    for (const [index, wallet] of wallets.entries()) {
      const truth = await readDefiHoldings(client, defi, wallet, block.number);
      for (const vault of truth.vaults.filter((entry) => entry.shares > 0n)) {
        const { result } = await client.simulateContract({
          address: vault.vault,
          abi: vaultAbi,
          functionName: 'redeem',
          args: [vault.shares, wallet, wallet],
          account: wallet,
        });
        expect(result).toBe(vault.assets);
        redeemed++;
      }
      if (truth.staking.earned > 0n) {
        const { result } = await client.simulateContract({ address: defi.staking.address, abi: stakingAbi, functionName: 'claim', account: wallet });
        expect(result).toBe(truth.staking.earned);
        claimed++;
      }
      const inDebt = truth.lending.some((entry) => entry.debt > 0n);
      for (const position of truth.lending) {
        const before = positionsBefore[index]!.lending.find((entry) => entry.token === position.token)!;
        if (position.debt > 0n) {
          expect(position.debt > before.debt).toBe(true);
          const { result } = await client.simulateContract({
            address: defi.lending.address,
            abi: lendingAbi,
            functionName: 'repay',
            args: [position.token, maxUint256],
            account: wallet,
          });
          expect(result).toBe(position.debt);
          repaid++;
        }
        if (position.supplied > 0n && !inDebt) {
          const { result } = await client.simulateContract({
            address: defi.lending.address,
            abi: lendingAbi,
            functionName: 'withdraw',
            args: [position.token, maxUint256],
            account: wallet,
          });
          expect(result).toBe(position.supplied);
          withdrawn++;
        }
      }
    }
    expect({ redeemed: redeemed > 0, claimed: claimed > 0, withdrawn: withdrawn > 0, repaid: repaid > 0 }).toEqual({
      redeemed: true,
      claimed: true,
      withdrawn: true,
      repaid: true,
    });

    // Interest accrues to the reading block's timestamp even when nothing touched the market.
    const positions = await readLendingPositions(client, defi.lending, wallets[0]!, { blockNumber: block.number });
    const later = await readLendingPositions(client, defi.lending, wallets[0]!, { blockNumber: block.number, timestamp: BigInt(block.timestamp + 365 * day) });
    for (const [index, position] of positions.entries()) {
      if (position.debt > 0n) expect(later[index]!.debt > position.debt).toBe(true);
      if (position.supplied > 0n && position.state.totalBorrows > 0n) expect(later[index]!.supplied > position.supplied).toBe(true);
    }
  });
});
