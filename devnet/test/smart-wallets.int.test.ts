import { decodeErrorResult, decodeEventLog, decodeFunctionData, getAbiItem, getAddress, type Address, type Hex } from 'viem';
import type { ChainSession, MinedBlock } from '../src/chain/index.js';
import { erc20Abi } from '../src/protocols/defi/abi.js';
import { entryPointAbi, safeAbi, safeFactoryAbi, smartAccountAbi } from '../src/protocols/smart-wallets/abi.js';
import { safeTransactionHash, smartWalletsModule, userOperationHash, type SmartWalletsManifest } from '../src/protocols/smart-wallets/index.js';
import { tokensModule, type TokensManifest } from '../src/protocols/tokens/index.js';
import { readSafeState, readSmartAccountState, readSmartWallets } from '../src/truth/smart-wallets.js';
import { nativeBalance, tokenBalances } from '../src/truth/tokens.js';
import { devnetAccounts, expectDeclaredOutcomes, perform, setupDevnet, type Devnet, type Performed } from './setup-devnet.js';

const accounts = devnetAccounts('smart-wallets-test', 5);
const { wallets } = accounts;

const labels = [
  'smart-wallets:safe-create',
  'smart-wallets:safe-approve',
  'smart-wallets:safe-execute',
  'smart-wallets:safe-execute-failed-call',
  'smart-wallets:safe-execute-reverted',
  'smart-wallets:safe-execute-unsigned',
  'smart-wallets:fund-eth',
  'smart-wallets:fund-token',
  'smart-wallets:account-op',
  'smart-wallets:account-op-failed',
  'smart-wallets:account-call-unauthorized',
];

interface CallFrame {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  error?: string;
  calls?: CallFrame[];
}

describe('smartWallets module', () => {
  let devnet: Devnet;
  let session: ChainSession;
  let tokens: TokensManifest;
  let manifest: SmartWalletsManifest;
  let mined: MinedBlock[];
  let performed: Performed[];
  let walletsAtLastSync: SmartWalletsManifest['wallets'];

  beforeAll(async () => {
    devnet = await setupDevnet({ accounts, modules: [tokensModule, smartWalletsModule] });
    ({ session, mined, performed } = devnet);
    tokens = devnet.manifest(tokensModule);
    manifest = devnet.manifest(smartWalletsModule);

    await devnet.fundWallets({
      rng: devnet.rng.fork('fund'),
      eth: (rng) => rng.int(5, 30),
      tokens,
      amounts: [
        ['USDC', (rng) => rng.int(100, 20_000)],
        ['GOV', (rng) => rng.int(100, 20_000)],
      ],
      seconds: 3600,
    });

    // Wallets act as the world builder has them act (a weighted random action each, one per
    // block), until every outcome has happened: approvals and executions by different owners of
    // the same safe need many blocks.
    const actions = smartWalletsModule.actions(manifest);
    const actionRng = devnet.rng.fork('actions');
    const seen = new Set<string>();
    await devnet.runActions({
      rounds: 300,
      until: () => seen.size >= labels.length,
      seconds: 3600 * 6,
      rng: () => actionRng,
      order: () => actionRng.shuffle(wallets),
      act: async (context, wallet) => {
        for (let attempt = 0; attempt < 4; attempt++) {
          const step = await perform(actionRng.weighted(actions.map((entry) => ({ weight: entry.weight, value: entry }))), context, wallet);
          if (!step) continue;
          seen.add(step.result.label);
          return step;
        }
        return undefined;
      },
    });
    // The manifest as the last round's actions left it, before its block was mined.
    walletsAtLastSync = structuredClone(manifest.wallets);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const receiptsOf = (label: string) =>
    performed.filter((entry) => entry.result.label === label).map((entry) => entry.block.receipts.get(entry.result.hashes.at(-1)!)!);

  test('every outcome happened, and each transaction succeeded or failed as declared', () => {
    expect([...new Set(performed.map((entry) => entry.result.label))].sort()).toEqual([...labels].sort());
    expectDeclaredOutcomes(performed, 'last');
    // Each failed transaction was sent to a smart wallet.
    const smart = new Set(manifest.wallets.map((wallet) => wallet.address.toLowerCase()));
    for (const entry of performed.filter((candidate) => candidate.result.expectFailure)) {
      expect(smart.has(entry.block.receipts.get(entry.result.hashes.at(-1)!)!.to!.toLowerCase())).toBe(true);
    }
  });

  test('reverted transactions carry the reason of their kind', async () => {
    const expected: Record<string, string> = {
      'smart-wallets:safe-execute-unsigned': 'InvalidSignatures',
      'smart-wallets:safe-execute-reverted': 'ExecutionReverted',
      'smart-wallets:account-call-unauthorized': 'NotEntryPoint',
    };
    for (const [label, errorName] of Object.entries(expected)) {
      for (const receipt of receiptsOf(label)) {
        const trace = (await session.client.request({
          method: 'debug_traceTransaction' as never,
          params: [receipt.transactionHash, { tracer: 'callTracer' }] as never,
        })) as { output: Hex };
        expect(decodeErrorResult({ abi: [...safeAbi, ...smartAccountAbi], data: trace.output }).errorName).toBe(errorName);
      }
    }
  });

  test('safe executions emit ExecutionSuccess or ExecutionFailure under the hash the safe computes', async () => {
    for (const [label, eventName] of [
      ['smart-wallets:safe-execute', 'ExecutionSuccess'],
      ['smart-wallets:safe-execute-failed-call', 'ExecutionFailure'],
    ] as const) {
      for (const receipt of receiptsOf(label)) {
        const tx = await session.client.getTransaction({ hash: receipt.transactionHash });
        const { args } = decodeFunctionData({ abi: safeAbi, data: tx.input });
        const [to, value, data] = args as readonly [Address, bigint, Hex, number, Hex];
        const events = receipt.logs
          .filter((log) => log.address.toLowerCase() === receipt.to!.toLowerCase())
          .map((log) => decodeEventLog({ abi: safeAbi, data: log.data, topics: log.topics }));
        const execution = events.find((event) => event.eventName === 'ExecutionSuccess' || event.eventName === 'ExecutionFailure')!;
        expect(execution.eventName).toBe(eventName);
        const nonce = (await readSafeState(session.client, getAddress(receipt.to!), receipt.blockNumber - 1n)).nonce;
        const hash = safeTransactionHash(getAddress(receipt.to!), session.chainId, { to, value, data }, nonce);
        expect((execution.args as { txHash: Hex }).txHash).toBe(hash);
        const onChain = await session.client.readContract({
          address: receipt.to!,
          abi: safeAbi,
          functionName: 'getTransactionHash',
          args: [to, value, data, 0, nonce],
        });
        expect(onChain).toBe(hash);
        expect((await readSafeState(session.client, getAddress(receipt.to!), receipt.blockNumber)).nonce).toBe(nonce + 1n);
      }
    }
  });

  test('user operations are reported by UserOperationEvent; the first one deploys the account', async () => {
    const deployedAccounts = new Set<string>();
    for (const entry of performed.filter((candidate) => candidate.result.label.startsWith('smart-wallets:account-op'))) {
      const receipt = entry.block.receipts.get(entry.result.hashes[0]!)!;
      expect(receipt.from.toLowerCase()).toBe(manifest.bundler.toLowerCase());
      const tx = await session.client.getTransaction({ hash: receipt.transactionHash });
      const [[op]] = decodeFunctionData({ abi: entryPointAbi, data: tx.input }).args as unknown as [[Parameters<typeof userOperationHash>[0]]];
      const hash = userOperationHash(op!, manifest.entryPoint, session.chainId);
      expect(
        await session.client.readContract({
          address: manifest.entryPoint,
          abi: entryPointAbi,
          functionName: 'getUserOpHash',
          args: [{ ...op!, signature: '0x' }],
        }),
      ).toBe(hash);
      const events = receipt.logs
        .filter((log) => log.address.toLowerCase() === manifest.entryPoint.toLowerCase())
        .map((log) => decodeEventLog({ abi: entryPointAbi, data: log.data, topics: log.topics }));
      const outcome = events.find((event) => event.eventName === 'UserOperationEvent')!.args as { userOpHash: Hex; sender: Address; success: boolean };
      expect(outcome.userOpHash).toBe(hash);
      expect(outcome.success).toBe(entry.result.label === 'smart-wallets:account-op');
      expect(events.some((event) => event.eventName === 'UserOperationRevertReason')).toBe(!outcome.success);
      const deploys = events.some((event) => event.eventName === 'AccountDeployed');
      expect(deploys).toBe(!deployedAccounts.has(outcome.sender));
      deployedAccounts.add(outcome.sender);
    }
    for (const account of manifest.smartAccounts) {
      const state = await readSmartAccountState(session.client, manifest, account.address, mined.at(-1)!.number);
      expect(state.deployed).toBe(deployedAccounts.has(account.address));
      if (state.deployed)
        expect(await session.client.readContract({ address: account.address, abi: smartAccountAbi, functionName: 'owner' })).toBe(account.owner);
    }
  });

  test('the manifest lists the smart wallets the chain has, with owners and thresholds', async () => {
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
    const end = mined.at(-1)!.number;
    expect(walletsAtLastSync).toEqual(await readSmartWallets(session.client, manifest, end - 1n));
    const onChain = await readSmartWallets(session.client, manifest, end);
    const safes = onChain.filter((wallet) => wallet.kind === 'safe');
    expect(safes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(safes.map((safe) => safe.kind === 'safe' && safe.requireSuccess))).toEqual(new Set([true, false]));
    for (const safe of safes) {
      expect(safe.threshold).toBe(2);
      expect(safe.owners.length === 2 || safe.owners.length === 3).toBe(true);
      expect(safe.owners.every((owner) => wallets.includes(owner))).toBe(true);
    }
    expect(onChain.filter((wallet) => wallet.kind === 'smart-account').map((wallet) => wallet.address)).toEqual(
      manifest.smartAccounts.map((account) => account.address),
    );
    // Both ways of creating a safe were used: minimal proxies of the singleton and full instances.
    const creations = await session.client.getLogs({
      address: manifest.safeFactory,
      events: [getAbiItem({ abi: safeFactoryAbi, name: 'ProxyCreation' }), getAbiItem({ abi: safeFactoryAbi, name: 'InstanceCreation' })],
      fromBlock: 0n,
    });
    expect(new Set(creations.map((log) => log.eventName))).toEqual(new Set(['ProxyCreation', 'InstanceCreation']));
    expect(creations.map((log) => getAddress(log.eventName === 'ProxyCreation' ? log.args.proxy! : log.args.safe!))).toEqual(safes.map((safe) => safe.address));
  });

  test("smart wallets' ETH and token balances follow from value transfers and Transfer events", async () => {
    const client = session.client;
    const end = mined.at(-1)!.number;
    const smart = (await readSmartWallets(client, manifest, end)).map((wallet) => wallet.address);
    const key = (value: string) => value.toLowerCase();
    const tracked = new Set(smart.map(key));
    const eth = new Map<string, bigint>();
    const walk = (frame: CallFrame) => {
      if (frame.error) return;
      const value = BigInt(frame.value ?? '0x0');
      // A delegatecall frame repeats its caller's value without moving it.
      if (value > 0n && frame.to && frame.type !== 'DELEGATECALL') {
        if (tracked.has(key(frame.from))) eth.set(key(frame.from), (eth.get(key(frame.from)) ?? 0n) - value);
        if (tracked.has(key(frame.to))) eth.set(key(frame.to), (eth.get(key(frame.to)) ?? 0n) + value);
      }
      frame.calls?.forEach(walk);
    };
    for (let blockNumber = 1n; blockNumber <= end; blockNumber++) {
      const traces = (await client.request({
        method: 'debug_traceBlockByNumber' as never,
        params: [`0x${blockNumber.toString(16)}`, { tracer: 'callTracer' }] as never,
      })) as { result: CallFrame }[];
      traces.forEach((trace) => walk(trace.result));
    }
    const transfers = await client.getLogs({
      address: tokens.tokens.map((token) => token.address),
      event: getAbiItem({ abi: erc20Abi, name: 'Transfer' }),
      fromBlock: 0n,
      toBlock: end,
    });
    const held = new Map<string, bigint>();
    for (const log of transfers) {
      held.set(`${key(log.address)}/${key(log.args.from!)}`, (held.get(`${key(log.address)}/${key(log.args.from!)}`) ?? 0n) - log.args.value!);
      held.set(`${key(log.address)}/${key(log.args.to!)}`, (held.get(`${key(log.address)}/${key(log.args.to!)}`) ?? 0n) + log.args.value!);
    }
    let withTokens = 0;
    for (const wallet of smart) {
      expect(await nativeBalance(client, wallet, end)).toBe(eth.get(key(wallet)) ?? 0n);
      const balances = await tokenBalances(client, tokens, wallet, end);
      for (const token of tokens.tokens) {
        const expected = held.get(`${key(token.address)}/${key(wallet)}`) ?? 0n;
        expect(balances.find((entry) => entry.address === token.address)?.balance ?? 0n).toBe(expected);
      }
      if (balances.length > 0) withTokens++;
    }
    expect(withTokens).toBeGreaterThanOrEqual(3);
  });
});
