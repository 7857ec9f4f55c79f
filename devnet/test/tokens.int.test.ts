import { decodeEventLog, getAbiItem, maxUint256, parseEther, parseUnits, type Address, type Hash } from 'viem';
import type { ChainSession, MinedBlock } from '../src/chain/index.js';
import { erc20Abi, wethAbi } from '../src/protocols/tokens/abis.js';
import { tokenBySymbol, tokensModule, type TokensManifest } from '../src/protocols/tokens/index.js';
import { nativeBalance, tokenBalances } from '../src/truth/tokens.js';
import { devnetAccounts, expectDeclaredOutcomes, setupDevnet, walkActions, type Devnet, type Performed } from './setup-devnet.js';

const accounts = devnetAccounts('tokens-test', 5);
const { deployer, wallets } = accounts;
const isWallet = (candidate: Address | null | undefined) => !!candidate && wallets.some((wallet) => wallet.toLowerCase() === candidate.toLowerCase());
const walletEth = (index: number) => parseEther(String(2 + index * 3));

describe('tokens module', () => {
  let devnet: Devnet;
  let session: ChainSession;
  let manifest: TokensManifest;
  let mined: MinedBlock[];
  let performed: Performed[];
  const initialEth = new Map(wallets.map((wallet, index) => [wallet, walletEth(index)]));
  let midBlock: bigint;
  let explicitTaxTransfer: Hash;

  beforeAll(async () => {
    devnet = await setupDevnet({ accounts, walletEth, modules: [tokensModule] });
    ({ session, mined, performed } = devnet);
    manifest = devnet.manifest(tokensModule);

    const fundContext = devnet.context(devnet.rng.fork('fund'), devnet.clock.advance(3600));
    for (const wallet of wallets) await tokensModule.fund!(fundContext, manifest, wallet);
    // The fee-on-transfer token is funded by chance; give one wallet some so its fee is checked for sure.
    const tax = tokenBySymbol(manifest, 'TAX');
    await devnet.sendToken(tax.address, wallets[0]!, parseUnits('5000', 18));
    await devnet.mine(fundContext.timestamp);
    explicitTaxTransfer = await devnet.sendToken(tax.address, wallets[1]!, parseUnits('1234.5', 18), { from: wallets[0]! });
    await devnet.mine(devnet.clock.advance(600));

    // Every wallet walks through every action twice, one action per wallet per block, so approve
    // precedes revoke and deposit precedes withdraw for each wallet at least once.
    const actions = tokensModule.actions(manifest);
    const blocks = await devnet.runActions({ rounds: actions.length * 2, seconds: 3600 * 7, act: walkActions(actions) });
    midBlock = blocks[actions.length]!.number;
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  test('the manifest lists every token kind with its on-chain decimals and symbol', async () => {
    const kinds = new Set(manifest.tokens.map((token) => token.kind));
    expect([...kinds].sort()).toEqual(['btc', 'fee-on-transfer', 'spam', 'stable', 'standard', 'weth']);
    expect(manifest.tokens.filter((token) => token.kind === 'standard' && token.decimals === 18).length).toBeGreaterThanOrEqual(3);
    expect(manifest.tokens.filter((token) => token.kind === 'spam')).toHaveLength(2);
    expect(tokenBySymbol(manifest, 'USDC').decimals).toBe(6);
    expect(tokenBySymbol(manifest, 'WBTC').decimals).toBe(8);
    expect(tokenBySymbol(manifest, 'WETH').address).toBe(manifest.weth);
    const abi = [
      ...erc20Abi,
      { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
      { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
    ] as const;
    for (const token of manifest.tokens) {
      expect(await session.client.readContract({ address: token.address, abi, functionName: 'decimals' })).toBe(token.decimals);
      expect(await session.client.readContract({ address: token.address, abi, functionName: 'symbol' })).toBe(token.symbol);
    }
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
  });

  test('every action kind ran and its transactions succeeded or failed as declared', () => {
    const kinds = new Set(performed.map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(
      tokensModule
        .actions(manifest)
        .map((action) => action.kind)
        .sort(),
    );
    expectDeclaredOutcomes(performed, 'every');
    for (const block of mined)
      expect([...block.receipts.values()].filter((receipt) => receipt.status !== 'success').length).toBe(
        performed.filter((entry) => entry.block === block && entry.result.expectFailure).length,
      );
  });

  test('token balances equal the sum of Transfer, Deposit and Withdrawal events, at a past block and at the end', async () => {
    const client = session.client;
    const end = mined[mined.length - 1]!.number;
    for (const blockNumber of [midBlock, end]) {
      const logs = await client.getLogs({
        address: manifest.tokens.map((token) => token.address),
        events: [
          getAbiItem({ abi: erc20Abi, name: 'Transfer' }),
          getAbiItem({ abi: wethAbi, name: 'Deposit' }),
          getAbiItem({ abi: wethAbi, name: 'Withdrawal' }),
        ],
        fromBlock: 0n,
        toBlock: blockNumber,
      });
      const expected = new Map<string, bigint>();
      const add = (token: Address, holder: Address, amount: bigint) => {
        const key = `${token.toLowerCase()}/${holder.toLowerCase()}`;
        expected.set(key, (expected.get(key) ?? 0n) + amount);
      };
      for (const log of logs) {
        if (log.eventName === 'Transfer') {
          add(log.address, log.args.from!, -log.args.value!);
          add(log.address, log.args.to!, log.args.value!);
        } else if (log.eventName === 'Deposit') add(log.address, log.args.dst!, log.args.wad!);
        else add(log.address, log.args.src!, -log.args.wad!);
      }
      for (const wallet of wallets) {
        const truth = await tokenBalances(client, manifest, wallet, blockNumber);
        const fromEvents = manifest.tokens
          .map((token) => ({
            address: token.address,
            symbol: token.symbol,
            decimals: token.decimals,
            balance: expected.get(`${token.address.toLowerCase()}/${wallet.toLowerCase()}`) ?? 0n,
          }))
          .filter((entry) => entry.balance !== 0n);
        expect(truth).toEqual(fromEvents);
      }
    }
    const everyone = await Promise.all(wallets.map((wallet) => tokenBalances(client, manifest, wallet, end)));
    expect(everyone.flat().some((entry) => manifest.tokens.find((token) => token.address === entry.address)!.kind === 'spam')).toBe(true);
  });

  test('native balances equal the starting balance plus value received minus value sent and gas paid', async () => {
    const client = session.client;
    const ledger = new Map(initialEth);
    const change = (wallet: Address, amount: bigint) => {
      const key = wallets.find((candidate) => candidate.toLowerCase() === wallet.toLowerCase())!;
      ledger.set(key, ledger.get(key)! + amount);
    };
    const snapshots = new Map<bigint, Map<Address, bigint>>();
    for (const block of mined) {
      const full = await client.getBlock({ blockNumber: block.number, includeTransactions: true });
      for (const tx of full.transactions) {
        const receipt = block.receipts.get(tx.hash)!;
        if (isWallet(tx.from)) change(tx.from, -receipt.gasUsed * receipt.effectiveGasPrice);
        if (receipt.status !== 'success') continue;
        if (isWallet(tx.from)) change(tx.from, -tx.value);
        if (isWallet(tx.to)) change(tx.to!, tx.value);
        for (const log of receipt.logs) {
          if (log.address.toLowerCase() !== manifest.weth.toLowerCase()) continue;
          const event = decodeEventLog({ abi: [...wethAbi, ...erc20Abi], data: log.data, topics: log.topics });
          // WETH pays the unwrapped ETH back with an internal call.
          if (event.eventName === 'Withdrawal' && isWallet(event.args.src)) change(event.args.src, event.args.wad);
        }
      }
      snapshots.set(block.number, new Map(ledger));
    }
    const end = mined[mined.length - 1]!.number;
    for (const blockNumber of [midBlock, end]) {
      for (const wallet of wallets) expect(await nativeBalance(client, wallet, blockNumber)).toBe(snapshots.get(blockNumber)!.get(wallet));
    }
  });

  test('the fee-on-transfer token delivers the amount less its fee, which goes to the treasury', async () => {
    const tax = tokenBySymbol(manifest, 'TAX');
    const receipt = await session.client.getTransactionReceipt({ hash: explicitTaxTransfer });
    const transfers = receipt.logs
      .map((log) => decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics }))
      .filter((event) => event.eventName === 'Transfer');
    const sent = parseUnits('1234.5', 18);
    const fee = (sent * BigInt(tax.feeBps!)) / 10_000n;
    expect(transfers.map((event) => event.args)).toEqual([
      { from: wallets[0], to: tax.feeRecipient, value: fee },
      { from: wallets[0], to: wallets[1], value: sent - fee },
    ]);
  });

  test('allowances end as the last approval set them; revokes leave them at zero', async () => {
    const client = session.client;
    const approvals = await client.getLogs({
      address: manifest.tokens.map((token) => token.address),
      event: getAbiItem({ abi: erc20Abi, name: 'Approval' }),
      fromBlock: 0n,
    });
    const last = new Map<string, { token: Address; owner: Address; spender: Address; value: bigint }>();
    for (const log of approvals)
      last.set(`${log.address}/${log.args.owner}/${log.args.spender}`, {
        token: log.address,
        owner: log.args.owner!,
        spender: log.args.spender!,
        value: log.args.value!,
      });
    expect(last.size).toBeGreaterThan(0);
    for (const approval of last.values()) {
      expect(await client.readContract({ address: approval.token, abi: erc20Abi, functionName: 'allowance', args: [approval.owner, approval.spender] })).toBe(
        approval.value,
      );
    }
    const revokes = performed.filter((entry) => entry.kind === 'revoke');
    expect(revokes.length).toBeGreaterThan(0);
    expect([...last.values()].filter((approval) => approval.value === 0n).length).toBeGreaterThan(0);
    expect(approvals.some((log) => log.args.value === maxUint256)).toBe(true);
  });

  test('spam airdrops reach several wallets in one transaction; wallets deploy contracts themselves', async () => {
    for (const entry of performed.filter((candidate) => candidate.kind === 'spam-airdrop')) {
      const receipt = entry.block.receipts.get(entry.result.hashes[0]!)!;
      expect(receipt.from.toLowerCase()).toBe(deployer.toLowerCase());
      expect(receipt.logs.length).toBeGreaterThanOrEqual(4);
    }
    for (const entry of performed.filter((candidate) => candidate.kind === 'deploy-contract')) {
      const receipt = entry.block.receipts.get(entry.result.hashes[0]!)!;
      expect(receipt.to).toBeNull();
      expect(receipt.from.toLowerCase()).toBe(entry.wallet.toLowerCase());
      expect((await session.client.getCode({ address: receipt.contractAddress! }))?.length).toBeGreaterThan(2);
    }
  });
});
