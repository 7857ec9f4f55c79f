import { eventually } from '@wallet-api/core/testing';
import { unary } from '@wallet-api/core/grpc';
import type { NftPosition } from '@wallet-api/core/proto/nft';
import { createPublicClient, http, isAddressEqual, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import { startMetadataServer, type MetadataServer } from '../../../devnet/src/metadata-server/index.js';
import { tokenMetadata } from '../../../devnet/src/metadata-server/metadata.js';
import { erc721Abi, marketAbi } from '../../../devnet/src/protocols/nfts/abis.js';
import type { NftsManifest } from '../../../devnet/src/protocols/nfts/manifest.js';
import { nftHoldings } from '../../../devnet/src/truth/nfts.js';
import { readUniswapV3Positions } from '../../../devnet/src/truth/uniswap.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { contextFor, startNftHarness, type NftHarness } from './setup-nft.js';

// The test world indexed end to end (chain -> indexer -> Kafka -> nft consumers -> PostgreSQL ->
// gRPC), every wallet's first read from the chain included, held against the chain itself:
// ownership by ownerOf and balanceOf at the head, metadata as the devnet serves it, floors and last
// sales from the market's own events and storage. The shared chains are only read.

let manifest: Manifest;
let harness: NftHarness;
let metadataServer: MetadataServer | undefined;
/** Collections with a listing standing now, over the chains: at least one floor must have been held against the market. */
let standingFloors = 0;

beforeAll(async () => {
  manifest = await readManifest();
  harness = await startNftHarness();
  await harness.pipeline.resetCheckpoints(manifest.chains.map((chain) => chain.id));
  for (const chain of manifest.chains) harness.pipeline.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  // The hosted collections' token URIs name this port; a running start command may serve it already.
  metadataServer = await startMetadataServer({ port: 18600 }).catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await metadataServer?.close();
});

const held = (positions: readonly NftPosition[]) =>
  positions.map((position) => `${position.nft!.ref!.contractAddress}:${position.nft!.ref!.tokenId}=${position.amount}`).sort();

describe.each(['ethereum', 'base', 'sepolia'])('the test world on %s', (chainId) => {
  let chain: ChainWorld;
  let nfts: NftsManifest;
  let client: PublicClient;
  let head: bigint;
  let wallets: Address[];

  beforeAll(async () => {
    chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
    nfts = chain.protocols.nfts as NftsManifest;
    client = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 500 } }), cacheTime: 0 });
    head = await client.getBlockNumber();
    wallets = [...chain.wallets.map((wallet) => wallet.address as Address), chain.deployer as Address];
  });

  test('every wallet answers indexing first, then exactly the NFTs ownerOf and balanceOf give at the head', async () => {
    const first = await harness.positions({ address: wallets[0]!, chainIds: [chainId] });
    expect(first).toMatchObject({ indexing: true, positions: [] });
    // Every wallet's first request starts its read from the chain; they run side by side.
    for (const wallet of wallets.slice(1)) expect((await harness.positions({ address: wallet, chainIds: [chainId] })).indexing).toBe(true);
    // Every NFT the chain gives the wallet: the world's collections, and its Uniswap V3 liquidity positions.
    const uniswap = chain.protocols.uniswap as UniswapManifest;
    const truths = new Map<string, string[]>();
    for (const wallet of wallets) {
      const collections = (await nftHoldings(client, nfts, wallet, head)).map(
        (holding) => `${holding.contract.toLowerCase()}:${holding.tokenId}=${holding.amount}`,
      );
      const liquidity = (await readUniswapV3Positions(client, uniswap, wallet, head)).map(
        (position) => `${uniswap.v3.positionManager.toLowerCase()}:${position.tokenId}=1`,
      );
      truths.set(wallet, [...collections, ...liquidity].sort());
    }
    let served = 0;
    await eventually(async () => {
      served = 0;
      for (const wallet of wallets) {
        const answer = await harness.positions({ address: wallet, chainIds: [chainId] });
        expect({ wallet, indexing: answer.indexing }).toEqual({ wallet, indexing: false });
        expect({ wallet, held: held(answer.positions) }).toEqual({ wallet, held: truths.get(wallet) });
        served += answer.positions.length;
      }
    }, 240_000);
    // The world gives its wallets NFTs of every kind: an empty comparison proves nothing.
    expect(served).toBeGreaterThan(wallets.length);
  }, 300_000);

  test('metadata: hosted JSON, ERC-1155 {id} URIs and on-chain data: documents as the devnet serves them; the spam collection flagged', async () => {
    const kinds = new Map<string, string>(nfts.collections.map((collection) => [collection.address.toLowerCase(), collection.kind]));
    kinds.set((chain.protocols.uniswap as UniswapManifest).v3.positionManager.toLowerCase(), 'liquidity');
    await eventually(async () => {
      const seen = new Set<string>();
      for (const wallet of wallets) {
        const { positions } = await harness.positions({ address: wallet, chainIds: [chainId] });
        for (const { nft } of positions) {
          const kind = kinds.get(nft!.ref!.contractAddress)!;
          const tokenId = BigInt(nft!.ref!.tokenId);
          seen.add(kind);
          expect({ kind, spam: nft!.isSpam }).toEqual({ kind, spam: kind === 'spam' });
          expect(nft!.interface).toBe(kind === 'editions' ? 'erc1155' : 'erc721');
          if (kind === 'hosted' || kind === 'editions') {
            const expected = tokenMetadata(kind === 'hosted' ? 'harbor-birds' : 'field-passes', tokenId, nfts.metadataBaseUrl);
            expect(nft!.metadata).toMatchObject({
              name: expected.name,
              description: expected.description,
              content: { preview: { url: expected.image, contentType: 'image/svg+xml' } },
              attributes: expected.attributes.map((attribute) => ({ key: attribute.trait_type, value: String(attribute.value) })),
            });
          } else if (kind !== 'liquidity') {
            const uri = await client.readContract({ address: nft!.ref!.contractAddress as Address, abi: erc721Abi, functionName: 'tokenURI', args: [tokenId] });
            const document = JSON.parse(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64').toString('utf8')) as { name: string };
            expect(nft!.metadata!.name).toBe(document.name);
          }
        }
      }
      expect([...seen].sort()).toEqual(['editions', 'hosted', 'liquidity', 'onchain-art', 'spam']);
    }, 120_000);
  }, 300_000);

  test('floors and last sales equal the market: its Sold events, and the listings it would honour now', async () => {
    const market = nfts.market as Address;
    const [listed, sold] = await Promise.all([
      client.getContractEvents({ address: market, abi: marketAbi, eventName: 'Listed', fromBlock: 0n, toBlock: head }),
      client.getContractEvents({ address: market, abi: marketAbi, eventName: 'Sold', fromBlock: 0n, toBlock: head }),
    ]);
    // Sales and listings on every chain; a chain may have no listing standing now (its floors are all absent then).
    expect(sold.length).toBeGreaterThan(0);
    // A listing the market would sell now: active in its storage, the seller still the owner, the market still approved.
    const floors = new Map<string, bigint>();
    for (const event of listed) {
      const [seller, nft, tokenId, price, active] = await client.readContract({
        address: market,
        abi: marketAbi,
        functionName: 'listings',
        args: [event.args.listingId!],
        blockNumber: head,
      });
      if (!active) continue;
      const read = { address: nft, abi: erc721Abi, blockNumber: head } as const;
      const [owner, approved, operator] = await Promise.all([
        client.readContract({ ...read, functionName: 'ownerOf', args: [tokenId] }),
        client.readContract({ ...read, functionName: 'getApproved', args: [tokenId] }),
        client.readContract({ ...read, functionName: 'isApprovedForAll', args: [seller, market] }),
      ]);
      if (!isAddressEqual(owner, seller) || !(isAddressEqual(approved, market) || operator)) continue;
      const key = nft.toLowerCase();
      if (!floors.has(key) || floors.get(key)! > price) floors.set(key, price);
    }
    standingFloors += floors.size;
    const lastSales = new Map<string, bigint>();
    for (const event of sold) lastSales.set(`${event.args.nft!.toLowerCase()}:${event.args.tokenId}`, event.args.price!);
    const [ethPrice] = (
      await unary(harness.pipeline.referenceData, harness.pipeline.referenceData.getPrices, {
        context: contextFor([chainId]),
        currency: 'usd',
        queries: [{ token: { chainId, address: '' }, timestamp: '0' }],
      })
    ).prices.map((price) => price.price!);
    const toUsd = (wei: bigint) => (Number(wei) / 1e18) * ethPrice!;
    const refs = [...new Set([...listed.map((event) => `${event.args.nft!.toLowerCase()}:${event.args.tokenId}`), ...lastSales.keys()])].slice(0, 100);
    await eventually(async () => {
      const { nfts: served, collections } = await harness.nfts({
        refs: refs.map((ref) => ({ chainId, contractAddress: ref.split(':')[0]!, tokenId: ref.split(':')[1]! })),
      });
      expect(served).toHaveLength(refs.length);
      for (const nft of served) {
        const key = `${nft.ref!.contractAddress}:${nft.ref!.tokenId}`;
        const floor = floors.get(nft.ref!.contractAddress);
        expect({ key, floor: nft.floorPrice }).toEqual({ key, floor: floor === undefined ? undefined : expect.closeTo(toUsd(floor), 6) });
        const sale = lastSales.get(key);
        expect({ key, sale: nft.lastSale && { price: nft.lastSale.price, quantity: nft.lastSale.quantity } }).toEqual({
          key,
          sale: sale === undefined ? undefined : { price: expect.closeTo(toUsd(sale), 6), quantity: '1' },
        });
      }
      for (const collection of collections) {
        expect(collection.implementations).toEqual([{ chainId, address: expect.stringMatching(/^0x[0-9a-f]{40}$/) }]);
        expect(collection.paymentTokenSymbol).toBe('ETH');
      }
    }, 120_000);
  }, 300_000);
});

test('some chain has a listing standing now, so a served floor was held against the market', () => {
  expect(standingFloors).toBeGreaterThan(0);
});
