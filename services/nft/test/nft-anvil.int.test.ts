import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { NftClient, NftPositionsSort, type ListWalletNftPositionsResponse } from '@wallet-api/core/proto/nft';
import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { eventually, setupChangeVersions, setupPostgresDatabase, testLogger, uniqueName, type PostgresDatabase } from '@wallet-api/core/testing';
import { encodeFunctionData, parseEther, type Address, type Hex } from 'viem';
import { compileContracts, type Artifacts } from '../../../devnet/src/compile/index.js';
import { erc1155Abi, erc721Abi, marketAbi, nftMintAbi } from '../../../devnet/src/protocols/nfts/abis.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { setupIndexing, startOwnChain, type IndexingHarness, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { token } from '../../indexer/test/wallet-history-fixtures.js';
import { createChainClients } from '../src/chain/chain-clients.js';
import { createNftConsumers, type NftConsumers } from '../src/consume/nft-consumers.js';
import { nftService } from '../src/grpc/nft-service.js';
import { createMarketFollower } from '../src/market/market-follower.js';
import { createOpeningReader } from '../src/ownership/opening-reader.js';
import { createMarketStore } from '../src/store/market-store.js';
import { createOwnershipStore } from '../src/store/ownership-store.js';
import { createTokenStore } from '../src/store/token-store.js';
import { createNftCatalog } from '../src/views/nft-catalog.js';
import { createWalletNfts } from '../src/views/wallet-nfts.js';
import { createWalletIndexing, type WalletIndexing } from '../src/wallets/wallet-indexing.js';

// Hand-made NFT activity on an anvil of the test's own, through the real chain indexer, Kafka, the
// nft consumers and PostgreSQL: mints, single and batch ERC-1155 transfers, ERC-721 transfers, a
// market listing and sale. Served holdings are held against ownerOf and balanceOf at the head
// after every step, also after a reorg that takes a transfer and a mint away, and for a wallet
// whose first read from the chain was at a block the reorg then orphaned.

const artifactsDir = new URL('../../../.data/devnet/artifacts', import.meta.url).pathname;
const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url).pathname;
const changes = setupChangeVersions();
// Chain ids are lowercase letters, digits and dashes (the registry's rule; NFT ids are built from them).
const chainId = uniqueName('nft-anvil').replace('_', '-');
const deployer = '0x00000000000000000000000000000000000d0000' as Address;
const wallet = '0x0000000000000000000000000000000000077a11' as Address;
const friend = '0x000000000000000000000000000000000000f00d' as Address;
const ethPrice = 2_000;

let chain: OwnChain;
let indexing: IndexingHarness;
let referenceData: RunningReferenceData;
let database: PostgresDatabase;
let consumers: NftConsumers;
let walletIndexing: WalletIndexing;
let server: GrpcServer;
let client: NftClient;
let artifacts: Artifacts;
let time = 1_700_000_000;
const contracts = { birds: '' as Address, passes: '' as Address, market: '' as Address };

const send = (from: Address, to: Address, data: Hex, value?: bigint) =>
  chain.session.sendAndMine({ from, to, data, ...(value ? { value } : {}) }, (time += 60));
const context = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };
const positions = (address: Address): Promise<ListWalletNftPositionsResponse> =>
  unary(client, client.listWalletNftPositions, {
    context,
    address,
    chainIds: [chainId],
    collectionIds: [],
    sort: NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_DESC,
    pageSize: 500,
    cursor: '',
    currency: 'usd',
  });

/** What ownerOf (birds 1..minted) and balanceOf (passes 1..3) say the wallet holds at the head. */
async function chainHoldings(address: Address): Promise<string[]> {
  const read = chain.session.client;
  const held: string[] = [];
  const minted = await read.readContract({ address: contracts.birds, abi: erc721Abi, functionName: 'totalSupply' });
  for (let id = 1n; id <= minted; id++) {
    if ((await read.readContract({ address: contracts.birds, abi: erc721Abi, functionName: 'ownerOf', args: [id] })).toLowerCase() === address.toLowerCase())
      held.push(`${contracts.birds.toLowerCase()}:${id}=1`);
  }
  for (let id = 1n; id <= 3n; id++) {
    const amount = await read.readContract({ address: contracts.passes, abi: erc1155Abi, functionName: 'balanceOf', args: [address, id] });
    if (amount > 0n) held.push(`${contracts.passes.toLowerCase()}:${id}=${amount}`);
  }
  return held.sort();
}

const served = (answer: ListWalletNftPositionsResponse) =>
  answer.positions.map((position) => `${position.nft!.ref!.contractAddress}:${position.nft!.ref!.tokenId}=${position.amount}`).sort();

/** The service's answer once it equals the chain (the wallet indexed and every block applied). */
async function servedMatchesChain(address: Address): Promise<ListWalletNftPositionsResponse> {
  const truth = await chainHoldings(address);
  return eventually(async () => {
    const answer = await positions(address);
    expect({ indexing: answer.indexing, held: served(answer) }).toEqual({ indexing: false, held: truth });
    return answer;
  }, 60_000);
}

beforeAll(async () => {
  artifacts = await compileContracts(new URL('../../../devnet/contracts/', import.meta.url).pathname, artifactsDir);
  chain = await startOwnChain({ genesisTimestamp: time });
  for (const account of [deployer, wallet, friend]) await chain.session.setBalance(account, parseEther('100'));
  const deploy = (name: string, args: readonly unknown[]) => chain.session.deploy(artifacts[name]!, args, deployer, (time += 60));
  contracts.birds = await deploy('DevnetHarborBirds', ['http://metadata.invalid/harbor-birds/']);
  contracts.passes = await deploy('DevnetFieldPasses', ['http://metadata.invalid/field-passes/', 3n]);
  contracts.market = await deploy('DevnetNftMarket', []);

  const registry = createChainRegistry(await loadChainsConfig(chainsFile, {}));
  const ethereum = registry.get(Network.NETWORK_MAINNET, 'ethereum')!;
  const own: Chain = { ...ethereum, id: chainId, family: ChainFamily.CHAIN_FAMILY_EVM, rpc: { internalServerUrlFormat: chain.rpcUrl, publicServersUrl: [] } };
  referenceData = await startReferenceDataFixture({
    chains: { list: (network) => (network === Network.NETWORK_MAINNET ? [own] : []) },
    tokens: [token(chainId, '', { interface: 1, symbol: 'ETH', decimals: 18, fungibleId: 'eth' })],
    dapps: [],
    price: (query) => (query.token?.address === '' ? ethPrice : undefined),
    protocols: () => ({ nftMarkets: [{ address: contracts.market.toLowerCase() }] }),
  });
  database = await setupPostgresDatabase(uniqueName('nft_anvil'));
  indexing = await setupIndexing();
  const clients = createChainClients(referenceData.client, { rpcTimeoutMs: 30_000 });
  const ownership = createOwnershipStore(database.prisma);
  const tokens = createTokenStore(database.prisma);
  const market = createMarketStore(database.prisma);
  walletIndexing = createWalletIndexing({
    store: ownership,
    tokens,
    reader: createOpeningReader({ clients, maxLogRange: 1_000_000n, concurrency: 8 }),
    clients,
    versions: changes.versions,
    logger: testLogger,
    concurrency: 2,
  });
  consumers = createNftConsumers({
    kafka: indexing.kafka,
    ownership,
    tokens,
    indexing: walletIndexing,
    market: createMarketFollower({ clients, store: market, logger: testLogger }),
    versions: changes.versions,
    logger: testLogger,
    groupId: uniqueName('nft-anvil'),
    topics: indexing.topics,
  });
  await consumers.start();
  const catalog = createNftCatalog({ tokens, market, tokenDirectory: createTokenDirectory(referenceData.client), referenceData: referenceData.client });
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      nftService({ indexing: walletIndexing, wallets: createWalletNfts({ ownership, catalog, versions: changes.versions, maxWallets: 100 }), catalog }),
    ],
    logger: testLogger,
  });
  client = createGrpcClient(NftClient, `127.0.0.1:${server.port}`);
  // Prisma loads its query compiler on a client's first query, with a dynamic import that jest
  // only allows inside hooks and tests, not in callbacks running between them: both clients load it here.
  await Promise.all([database.prisma.nftBlockState.count(), indexing.prisma.indexedBlock.count()]);
  indexing.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 3 });
}, 120_000);

afterAll(async () => {
  client?.close();
  await server?.shutdown(1_000);
  await consumers?.stop();
  await walletIndexing?.close();
  await indexing?.close();
  await referenceData?.stop();
  await chain?.stop();
  await database?.drop();
  changes.close();
});

test('mints, single and batch transfers, a sale; then a reorg takes a transfer and a mint away, also from a wallet first read at an orphaned block', async () => {
  await send(wallet, contracts.birds, encodeFunctionData({ abi: nftMintAbi, functionName: 'mint', args: [3n] }));
  await send(wallet, contracts.passes, encodeFunctionData({ abi: erc1155Abi, functionName: 'mint', args: [1n, 5n] }));
  await send(wallet, contracts.passes, encodeFunctionData({ abi: erc1155Abi, functionName: 'mint', args: [2n, 2n] }));
  await send(
    wallet,
    contracts.passes,
    encodeFunctionData({ abi: erc1155Abi, functionName: 'safeBatchTransferFrom', args: [wallet, friend, [1n, 2n], [1n, 1n], '0x'] }),
  );
  await send(wallet, contracts.birds, encodeFunctionData({ abi: erc721Abi, functionName: 'safeTransferFrom', args: [wallet, friend, 3n] }));
  for (const [id, price] of [
    [1n, parseEther('1')],
    [2n, parseEther('0.5')],
  ] as const) {
    await send(wallet, contracts.birds, encodeFunctionData({ abi: erc721Abi, functionName: 'approve', args: [contracts.market, id] }));
    await send(wallet, contracts.market, encodeFunctionData({ abi: marketAbi, functionName: 'list', args: [contracts.birds, id, price] }));
  }
  await send(friend, contracts.market, encodeFunctionData({ abi: marketAbi, functionName: 'buy', args: [2n] }), parseEther('0.5'));

  // A wallet never asked for: indexing first, then exactly what the chain says.
  expect(await positions(wallet)).toMatchObject({ indexing: true, positions: [] });
  const before = await servedMatchesChain(wallet);
  expect(served(before)).toEqual(
    [`${contracts.birds.toLowerCase()}:1=1`, `${contracts.passes.toLowerCase()}:1=4`, `${contracts.passes.toLowerCase()}:2=1`].sort(),
  );
  // Bird 1 is listed at 1 ETH and still the wallet's: the floor. Bird 2 sold at 0.5 ETH. The
  // market's logs come with the block topic, which may trail the balance changes a moment.
  const bird1 = () =>
    positions(wallet).then((answer) => answer.positions.find((position) => position.nft!.ref!.tokenId === '1' && position.nft!.interface === 'erc721')!);
  await eventually(async () => {
    const listed = await bird1();
    expect(listed.nft!.floorPrice).toBeCloseTo(ethPrice, 9);
    expect(listed.value).toBeCloseTo(ethPrice, 9);
  }, 30_000);
  await servedMatchesChain(friend);
  const { nfts } = await unary(client, client.getNfts, {
    context,
    refs: [{ chainId, contractAddress: contracts.birds.toLowerCase(), tokenId: '2' }],
    currency: 'usd',
  });
  expect(nfts[0]!.lastSale).toMatchObject({ price: expect.closeTo(ethPrice / 2, 9), quantity: '1' });

  // Moves on a branch the reorg will drop: bird 1 leaves (its listing with it), a new edition is minted.
  const snapshot = (await chain.session.client.request({ method: 'evm_snapshot' as never })) as string;
  await send(wallet, contracts.birds, encodeFunctionData({ abi: erc721Abi, functionName: 'safeTransferFrom', args: [wallet, friend, 1n] }));
  await send(wallet, contracts.passes, encodeFunctionData({ abi: erc1155Abi, functionName: 'mint', args: [3n, 7n] }));
  await servedMatchesChain(wallet);
  await eventually(async () => expect((await positions(wallet)).positions.every((position) => position.nft!.floorPrice === undefined)).toBe(true), 30_000);
  // The deployer is first read now, at a block of the branch that is about to be orphaned.
  await send(wallet, contracts.passes, encodeFunctionData({ abi: erc1155Abi, functionName: 'safeTransferFrom', args: [wallet, deployer, 3n, 2n, '0x'] }));
  await servedMatchesChain(deployer);

  await chain.session.client.request({ method: 'evm_revert' as never, params: [snapshot] as never });
  chain.session.resetNonces();
  for (let block = 0; block < 4; block++) await chain.session.mine((time += 30));
  const reorged = await servedMatchesChain(wallet);
  expect(served(reorged)).toEqual(served(before));
  await eventually(async () => expect((await bird1()).nft!.floorPrice).toBeCloseTo(ethPrice, 9), 30_000);
  expect(served(await servedMatchesChain(deployer))).toEqual([]);
}, 180_000);
