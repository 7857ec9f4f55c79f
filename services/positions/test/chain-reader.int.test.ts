import { createPublicClient, erc20Abi, http, parseAbi, type Address, type Hash, type Hex } from 'viem';
import { readManifest, type ChainWorld } from '../../devnet/src/manifest/index.js';
import type { DefiManifest } from '../../devnet/src/protocols/defi/index.js';
import type { UniswapManifest } from '../../devnet/src/protocols/uniswap/index.js';
import { readWalletTruth, worldTokens } from '../../devnet/src/truth/index.js';
import { multicall3Address } from '@wallet-api/core/evm';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { serializeProtocolPositions } from '../src/adapters/protocol-position.js';
import { ContractCallFailed, createChainReader } from '../src/chain/chain-reader.js';
import { chainProtocols } from '../src/protocols/protocol-directory.js';

// The adapters read the same positions whether the chain has Multicall3 (one aggregate3 call per
// batch) or not (plain eth_calls in JSON-RPC batches), and the reader picks Multicall3 when present.
// Opening balances read after a block by its hash equal the truth readers' at that block.
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;

let world: ChainWorld;
let chain: OwnChain;

beforeAll(async () => {
  world = (await readManifest()).chains.find((candidate) => candidate.id === 'ethereum')!;
  chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
}, 60_000);

afterAll(async () => {
  await chain?.stop();
});

test('positions read through Multicall3 equal those read with plain batched eth_calls, at the same block', async () => {
  const uniswap = world.protocols.uniswap as UniswapManifest;
  const defi = world.protocols.defi as DefiManifest;
  const { adapters } = chainProtocols({
    chainId: 'ethereum',
    uniswapV2: [{ factory: uniswap.v2.factory, pairs: uniswap.v2.pairs.map((pair) => pair.address) }],
    uniswapV3: [{ factory: uniswap.v3.factory, positionManager: uniswap.v3.positionManager }],
    vaults: defi.vaults.map((vault) => ({ address: vault.address })),
    staking: [{ address: defi.staking.address }],
    lending: [{ address: defi.lending.address }],
  });
  const bodies: string[] = [];
  const client = () =>
    createPublicClient({
      transport: http(chain.rpcUrl, { batch: { batchSize: 500 }, onFetchRequest: async (request) => void bodies.push(await request.clone().text()) }),
      cacheTime: 0,
    });
  // The world deployed Multicall3 where production chains have it. Its code is taken away for the
  // first read and put back for the second, both at the same (latest) block.
  const runtime = (await chain.session.client.getCode({ address: multicall3Address })) as Hex;
  expect(runtime.length).toBeGreaterThan(2);
  const setCode = (code: Hex) => chain.session.client.request({ method: 'anvil_setCode' as never, params: [multicall3Address, code] as never });
  await setCode('0x');
  const blockNumber = await chain.session.client.getBlockNumber();
  const wallets = world.wallets.map((wallet) => wallet.address.toLowerCase() as Address);
  const readAll = async (reader: ReturnType<typeof createChainReader>) =>
    Promise.all(
      wallets.map(async (wallet) => serializeProtocolPositions((await Promise.all(adapters.map((adapter) => adapter.read({ reader, wallet, blockNumber, heldTokens: [] })))).flat())),
    );
  const usedMulticall3 = () => bodies.some((body) => body.toLowerCase().includes(multicall3Address.slice(2).toLowerCase()) && body.includes('eth_call'));

  const batched = await readAll(createChainReader(client()));
  expect(usedMulticall3()).toBe(false);
  expect(batched.flat().length).toBeGreaterThan(0);

  await setCode(runtime);
  bodies.length = 0;

  const aggregated = await readAll(createChainReader(client()));
  expect(usedMulticall3()).toBe(true);
  expect(aggregated).toEqual(batched);
}, 120_000);

test("aggregate3 answers each call as viem's multicall does: results where a contract answered, failures where it reverted, had no code or answered nothing; without allowFailure the first failure throws", async () => {
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  const blockNumber = await client.getBlockNumber();
  const wallet = world.wallets[0]!.address as Address;
  const tokens = worldTokens(world).tokens.map((token) => token.address as Address);
  const probeAbi = parseAbi(['function factory() view returns (address)']);
  const contracts = [
    ...tokens.flatMap((address) => [
      { address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] } as const,
      { address, abi: erc20Abi, functionName: 'symbol' } as const,
      // An ERC-20 has no factory(): the call reverts.
      { address, abi: probeAbi, functionName: 'factory' } as const,
    ]),
    // No code at this address: the call answers nothing.
    { address: '0x00000000000000000000000000000000000000aa', abi: erc20Abi, functionName: 'decimals' } as const,
  ];
  const ours = await createChainReader(client).multicall({ contracts, blockNumber, allowFailure: true });
  const viems = await client.multicall({ contracts, blockNumber, allowFailure: true, multicallAddress: multicall3Address });
  expect(ours.map((answer) => answer.status)).toEqual(viems.map((answer) => answer.status));
  expect(ours.filter((answer) => answer.status === 'failure')).toHaveLength(tokens.length + 1);
  expect(ours.map((answer) => (answer.status === 'success' ? answer.result : undefined))).toEqual(viems.map((answer) => (answer.status === 'success' ? answer.result : undefined)));
  for (const answer of ours) if (answer.status === 'failure') expect(answer.error).toBeInstanceOf(ContractCallFailed);

  await expect(createChainReader(client).multicall({ contracts: contracts.slice(0, 3), blockNumber, allowFailure: false })).rejects.toThrow(/factory on 0x/);
  await expect(createChainReader(client).multicall({ contracts: contracts.slice(0, 2), blockNumber, allowFailure: false })).resolves.toEqual(
    viems.slice(0, 2).map((answer) => (answer.status === 'success' ? answer.result : undefined)),
  );
}, 60_000);

test('balances after a block by hash equal the truth readers at that block, in one JSON-RPC batch; a token without code holds nothing, one that reverts answers nothing, an unknown block fails', async () => {
  const bodies: string[] = [];
  const reader = createChainReader(
    createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 500 }, onFetchRequest: async (request) => void bodies.push(await request.clone().text()) }), cacheTime: 0 }),
  );
  const blockNumber = BigInt(Math.floor((world.activityStartBlock + world.endBlock) / 2));
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  const block = await client.getBlock({ blockNumber });
  const tokens = worldTokens(world).tokens.map((token) => token.address.toLowerCase() as Address);
  const wallets = [...world.wallets.slice(0, 12).map((wallet) => wallet.address), world.deployer].map((address) => address.toLowerCase() as Address);
  const holdings = wallets.flatMap((wallet) => [{ wallet, asset: '' as const }, ...tokens.map((asset) => ({ wallet, asset }))]);
  expect(holdings.length).toBeLessThanOrEqual(500);

  bodies.length = 0;
  const read = await reader.balancesAt(block.hash!, holdings);
  expect(bodies).toHaveLength(1);
  const expected = new Map<string, bigint>();
  for (const wallet of wallets) {
    const truth = await readWalletTruth(client, world, wallet, blockNumber);
    expected.set(`${wallet}:`, truth.native);
    for (const asset of tokens) expected.set(`${wallet}:${asset}`, truth.tokens.find((token) => token.address.toLowerCase() === asset)?.balance ?? 0n);
  }
  expect(new Map(holdings.map((holding, index) => [`${holding.wallet}:${holding.asset}`, read[index]]))).toEqual(expected);
  expect(read.filter((amount) => amount! > 0n).length).toBeGreaterThan(wallets.length);

  const uniswap = world.protocols.uniswap as UniswapManifest;
  const [noCode, reverting] = await reader.balancesAt(block.hash!, [
    { wallet: wallets[0]!, asset: '0x6f70656e696e6773000000000000000000000009' },
    { wallet: wallets[0]!, asset: uniswap.v2.factory.toLowerCase() as Address },
  ]);
  expect([noCode, reverting]).toEqual([0n, undefined]);
  await expect(reader.balancesAt(`0x${'ab'.repeat(32)}` as Hash, holdings.slice(0, 1))).rejects.toThrow();
}, 120_000);
