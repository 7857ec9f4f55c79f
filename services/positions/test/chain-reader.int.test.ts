import { createPublicClient, erc20Abi, http, parseAbi, type Address, type Hash, type Hex } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import type { DefiManifest } from '../../../devnet/src/protocols/defi/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { readWalletTruth, worldTokens } from '../../../devnet/src/truth/index.js';
import { multicall3Address } from '@wallet-api/core/evm';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { serializeProtocolPositions } from '../src/adapters/protocol-position.js';
import { ContractCallFailed, createChainReader } from '../src/chain/chain-reader.js';
import { chainProtocols } from '../src/protocols/protocol-directory.js';
import { createProtocolHistory } from '../src/protocols/protocol-history.js';
import { protocolHoldings, sortHoldings } from './chain-truth.js';

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

/** The world's protocol contracts as the registry lists them (ListProtocols). */
function worldListing() {
  const uniswap = world.protocols.uniswap as UniswapManifest;
  const defi = world.protocols.defi as DefiManifest;
  return {
    chainId: 'ethereum',
    uniswapV2: [{ factory: uniswap.v2.factory, pairs: uniswap.v2.pairs.map((pair) => pair.address) }],
    uniswapV3: [{ factory: uniswap.v3.factory, positionManager: uniswap.v3.positionManager }],
    vaults: defi.vaults.map((vault) => ({ address: vault.address })),
    staking: [{ address: defi.staking.address }],
    lending: [{ address: defi.lending.address }],
    nftMarkets: [],
  };
}

test('positions read through Multicall3 equal those read with plain batched eth_calls, at the same block', async () => {
  const { adapters } = chainProtocols(worldListing());
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
      wallets.map(async (wallet) =>
        serializeProtocolPositions((await Promise.all(adapters.map((adapter) => adapter.read({ reader, wallet, blockNumber, heldTokens: [] })))).flat()),
      ),
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
  expect(ours.map((answer) => (answer.status === 'success' ? answer.result : undefined))).toEqual(
    viems.map((answer) => (answer.status === 'success' ? answer.result : undefined)),
  );
  for (const answer of ours) if (answer.status === 'failure') expect(answer.error).toBeInstanceOf(ContractCallFailed);

  await expect(createChainReader(client).multicall({ contracts: contracts.slice(0, 3), blockNumber, allowFailure: false })).rejects.toThrow(/factory on 0x/);
  await expect(createChainReader(client).multicall({ contracts: contracts.slice(0, 2), blockNumber, allowFailure: false })).resolves.toEqual(
    viems.slice(0, 2).map((answer) => (answer.status === 'success' ? answer.result : undefined)),
  );
}, 60_000);

test('balances after a block by hash equal the truth readers at that block, in one JSON-RPC batch, through Multicall3 given the block number; a token without code holds nothing, one that reverts answers nothing, an unknown block fails', async () => {
  const bodies: string[] = [];
  const reader = createChainReader(
    createPublicClient({
      transport: http(chain.rpcUrl, { batch: { batchSize: 500 }, onFetchRequest: async (request) => void bodies.push(await request.clone().text()) }),
      cacheTime: 0,
    }),
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

  // With the block's number, the token balances go through Multicall3: the same amounts.
  await reader.createdAt(multicall3Address);
  bodies.length = 0;
  expect(await reader.balancesAt(block.hash!, holdings, blockNumber)).toEqual(read);
  expect(bodies).toHaveLength(1);
  const requests = JSON.parse(bodies[0]!) as { method: string; params: [{ to: string }] }[];
  expect(requests.filter((request) => request.method === 'eth_call').map((request) => request.params[0].to.toLowerCase())).toEqual([
    multicall3Address.toLowerCase(),
  ]);

  const uniswap = world.protocols.uniswap as UniswapManifest;
  for (const number of [undefined, blockNumber]) {
    const [noCode, reverting] = await reader.balancesAt(
      block.hash!,
      [
        { wallet: wallets[0]!, asset: '0x6f70656e696e6773000000000000000000000009' },
        { wallet: wallets[0]!, asset: uniswap.v2.factory.toLowerCase() as Address },
      ],
      number,
    );
    expect([noCode, reverting]).toEqual([0n, undefined]);
  }
  await expect(reader.balancesAt(`0x${'ab'.repeat(32)}` as Hash, holdings.slice(0, 1))).rejects.toThrow();
  await expect(reader.balancesAt(`0x${'ab'.repeat(32)}` as Hash, holdings, blockNumber)).rejects.toThrow();
}, 120_000);

test('thousands of balances are read a wave of at most 200 requests at a time, equal one by one, in far fewer waves through Multicall3', async () => {
  const sizes: number[] = [];
  const reader = createChainReader(
    createPublicClient({
      transport: http(chain.rpcUrl, {
        batch: { batchSize: 500 },
        onFetchRequest: async (request) => void sizes.push([JSON.parse(await request.clone().text())].flat().length),
      }),
      cacheTime: 0,
    }),
  );
  const blockNumber = BigInt(world.endBlock);
  const block = await createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }).getBlock({ blockNumber });
  const tokens = worldTokens(world).tokens.map((token) => token.address.toLowerCase() as Address);
  // A crowd of new wallets (most hold nothing) beside the world's, as a payout block brings.
  const wallets = [
    ...world.wallets.map((wallet) => wallet.address.toLowerCase() as Address),
    ...Array.from({ length: 400 }, (_, index) => `0x${(index + 1).toString(16).padStart(40, 'c')}` as Address),
  ];
  const holdings = wallets.flatMap((wallet) => [{ wallet, asset: '' as const }, ...tokens.map((asset) => ({ wallet, asset }))]);
  const batches: number[] = [];
  for (const number of [undefined, blockNumber]) {
    await reader.createdAt(multicall3Address);
    sizes.length = 0;
    const read = await reader.balancesAt(block.hash!, holdings, number);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200);
    batches.push(sizes.length);
    const one = holdings.slice(0, 40).concat(holdings.slice(-40));
    const alone = await Promise.all(one.map((holding) => reader.balancesAt(block.hash!, [holding])));
    expect([...read.slice(0, 40), ...read.slice(-40)]).toEqual(alone.flat());
    expect(read.filter((amount) => amount! > 0n).length).toBeGreaterThan(world.wallets.length);
  }
  // One by one, a wave of 200 requests is 200 balances; through Multicall3 a wave carries the
  // token balances of a hundred wallets and more (its calldata caps it at 512 KiB).
  expect(batches[0]).toBe(Math.ceil(holdings.length / 200));
  expect(batches[1]).toBeLessThan(batches[0]! / 5);
}, 120_000);

test('createdAt finds the block a contract was created in (code there, none the block before); an address without code has none', async () => {
  const reader = createChainReader(createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }));
  const uniswap = world.protocols.uniswap as UniswapManifest;
  const defi = world.protocols.defi as DefiManifest;
  for (const address of [
    multicall3Address,
    uniswap.v2.factory,
    uniswap.v2.pairs[0]!.address,
    uniswap.v3.positionManager,
    defi.vaults[0]!.address,
    defi.lending.address,
  ]) {
    const created = await reader.createdAt(address as Address);
    expect(created).toBeDefined();
    expect(created!).toBeGreaterThan(0n);
    expect(await chain.session.client.getCode({ address: address as Address, blockNumber: created! })).toMatch(/^0x[0-9a-f]+$/);
    expect(await chain.session.client.getCode({ address: address as Address, blockNumber: created! - 1n })).toBeUndefined();
  }
  expect(await reader.createdAt('0x00000000000000000000000000000000000000aa')).toBeUndefined();
}, 120_000);

test('past protocol positions equal the truth readers at each block, from before the protocols (and Multicall3) existed to the end of the world', async () => {
  const reader = createChainReader(createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 500 } }), cacheTime: 0 }));
  const history = createProtocolHistory({
    chains: { reader: async () => reader, solanaReader: async () => undefined },
    protocols: { protocols: async () => chainProtocols(worldListing()) },
    concurrency: 4,
  });
  const multicall3Block = (await reader.createdAt(multicall3Address))!;
  const blocks = [
    ...new Set([
      1n,
      multicall3Block - 1n,
      multicall3Block,
      BigInt(world.activityStartBlock) - 1n,
      ...Array.from({ length: 12 }, (_, index) =>
        BigInt(world.activityStartBlock + Math.floor(((world.endBlock - world.activityStartBlock) * (index + 1)) / 12)),
      ),
    ]),
  ];
  let held = 0;
  const users: Address[] = [];
  for (const { address } of world.wallets.filter((wallet) => wallet.address !== world.deployer)) {
    const wallet = address.toLowerCase() as Address;
    if (protocolHoldings(await readWalletTruth(chain.session.client, world, wallet, BigInt(world.endBlock)), world).length > 0) users.push(wallet);
  }
  expect(users.length).toBeGreaterThan(0);
  for (const wallet of users.slice(0, 6)) {
    const read = await history.positionsAt('ethereum', wallet, blocks);
    expect(read.map((entry) => entry.blockNumber)).toEqual([...blocks].sort((a, b) => Number(a - b)));
    for (const { blockNumber, positions } of read) {
      const served = sortHoldings(
        positions
          .filter((position) => position.amount > 0n)
          .map((position) => ({
            type: position.type,
            token: position.token,
            amount: position.amount,
            receipt:
              position.receipt?.kind === 'fungible'
                ? `fungible:${position.receipt.token}:${position.receipt.amount}`
                : position.receipt
                  ? `nft:${position.receipt.contract}:${position.receipt.tokenId}`
                  : '',
            pool: position.poolAddress,
          })),
      );
      // Before the world's activity the truth readers fail on contracts not deployed yet: nothing is held then.
      const truth =
        blockNumber < BigInt(world.activityStartBlock)
          ? []
          : protocolHoldings(await readWalletTruth(chain.session.client, world, wallet, blockNumber), world).filter((holding) => holding.amount > 0n);
      expect({ blockNumber, wallet, positions: served }).toEqual({ blockNumber, wallet, positions: truth });
      held += served.length;
    }
  }
  expect(held).toBeGreaterThan(0);
}, 300_000);
