import { createPublicClient, http, type Address, type Hex } from 'viem';
import { compileContracts } from '../../devnet/src/compile/index.js';
import { readManifest, type ChainWorld } from '../../devnet/src/manifest/index.js';
import type { DefiManifest } from '../../devnet/src/protocols/defi/index.js';
import type { UniswapManifest } from '../../devnet/src/protocols/uniswap/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { serializeProtocolPositions } from '../src/adapters/protocol-position.js';
import { createChainReader, multicall3Address } from '../src/chain/chain-reader.js';
import { chainProtocols } from '../src/protocols/protocol-directory.js';

// The adapters read the same positions whether the chain has Multicall3 (one aggregate3 call per
// batch) or not (plain eth_calls in JSON-RPC batches), and the reader picks Multicall3 when present.
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const fixtures = new URL('./fixtures/multicall3/', import.meta.url).pathname;
const compileCache = new URL('../../../.data/positions-test-artifacts/', import.meta.url).pathname;

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
  // The aggregator is deployed first and copied to Multicall3's address only between the two reads,
  // so both read the state of the same (latest) block.
  const { Multicall3 } = await compileContracts(fixtures, compileCache);
  const clock = Math.max(await chain.session.latestTimestamp(), Math.floor(Date.now() / 1000)) + 12;
  const deployed = await chain.session.deploy(Multicall3!, [], world.deployer as Address, clock);
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

  const runtime = (await chain.session.client.getCode({ address: deployed })) as Hex;
  await chain.session.client.request({ method: 'anvil_setCode' as never, params: [multicall3Address, runtime] as never });
  bodies.length = 0;

  const aggregated = await readAll(createChainReader(client()));
  expect(usedMulticall3()).toBe(true);
  expect(aggregated).toEqual(batched);
}, 120_000);
