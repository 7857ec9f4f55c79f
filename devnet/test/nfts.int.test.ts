import { decodeEventLog, getAbiItem, isAddressEqual, parseAbi, parseEther, toHex, type Address } from 'viem';
import type { ChainSession, MinedBlock } from '../src/chain/index.js';
import { startMetadataServer, type MetadataServer } from '../src/metadata-server/index.js';
import { erc1155Abi, erc721Abi, marketAbi } from '../src/protocols/nfts/abis.js';
import { collectionOf, nftsModule, type NftsManifest } from '../src/protocols/nfts/index.js';
import { nftHoldings, type NftHolding } from '../src/truth/nfts.js';
import { devnetAccounts, setupDevnet, walkActions, type Devnet, type Performed } from './setup-devnet.js';

const accounts = devnetAccounts('nfts-test', 5);
const { wallets } = accounts;
const approvalForAll = parseAbi(['event ApprovalForAll(address indexed owner, address indexed operator, bool approved)']);

interface CallFrame {
  to?: string;
  value?: string;
  calls?: CallFrame[];
}

function dataUriJson(uri: string): { name: string; description: string; image: string } {
  const prefix = 'data:application/json;base64,';
  expect(uri.startsWith(prefix)).toBe(true);
  return JSON.parse(Buffer.from(uri.slice(prefix.length), 'base64').toString('utf8'));
}

describe('nfts module', () => {
  let devnet: Devnet;
  let server: MetadataServer;
  let session: ChainSession;
  let manifest: NftsManifest;
  let mined: MinedBlock[];
  let performed: Performed[];
  let midBlock: bigint;

  beforeAll(async () => {
    server = await startMetadataServer({ port: 0 });
    devnet = await setupDevnet({
      accounts,
      walletEth: (index) => parseEther(String(3 + index * 4)),
      deployed: { metadata: { baseUrl: server.url } },
      modules: [nftsModule],
    });
    ({ session, mined, performed } = devnet);
    manifest = devnet.manifest(nftsModule);

    // Every wallet walks through every action three times, one action per wallet per block, so
    // each has minted before it moves, lists or batch-transfers, and others' listings await buyers.
    const actions = nftsModule.actions(manifest);
    const blocks = await devnet.runActions({ rounds: actions.length * 3, seconds: 3600 * 5, act: walkActions(actions) });
    midBlock = blocks[actions.length]!.number;
  });

  afterAll(async () => {
    await devnet?.stop();
    await server?.close();
  });

  test('every action kind ran and its transactions succeeded', () => {
    const kinds = new Set(performed.map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(
      nftsModule
        .actions(manifest)
        .map((action) => action.kind)
        .sort(),
    );
    for (const entry of performed) {
      for (const hash of entry.result.hashes)
        expect({ kind: entry.kind, status: entry.block.receipts.get(hash)?.status }).toEqual({ kind: entry.kind, status: 'success' });
    }
    for (const block of mined) for (const receipt of block.receipts.values()) expect(receipt.status).toBe('success');
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
  });

  test('holdings equal a replay of Transfer, TransferSingle and TransferBatch events, at a past block and at the end', async () => {
    const client = session.client;
    const end = mined[mined.length - 1]!.number;
    for (const blockNumber of [midBlock, end]) {
      const owned = new Map<string, bigint>();
      const move = (contract: Address, tokenId: bigint, from: Address, to: Address, amount: bigint) => {
        for (const [holder, delta] of [
          [from, -amount],
          [to, amount],
        ] as const) {
          const key = `${contract.toLowerCase()}/${holder.toLowerCase()}/${tokenId}`;
          owned.set(key, (owned.get(key) ?? 0n) + delta);
        }
      };
      const erc721s = manifest.collections.filter((collection) => collection.standard === 'erc721').map((collection) => collection.address);
      for (const log of await client.getLogs({
        address: erc721s,
        event: getAbiItem({ abi: erc721Abi, name: 'Transfer' }),
        fromBlock: 0n,
        toBlock: blockNumber,
      })) {
        move(log.address, log.args.tokenId!, log.args.from!, log.args.to!, 1n);
      }
      const passes = collectionOf(manifest, 'editions').address;
      for (const log of await client.getLogs({
        address: passes,
        events: [getAbiItem({ abi: erc1155Abi, name: 'TransferSingle' }), getAbiItem({ abi: erc1155Abi, name: 'TransferBatch' })],
        fromBlock: 0n,
        toBlock: blockNumber,
      })) {
        if (log.eventName === 'TransferSingle') move(log.address, log.args.id!, log.args.from!, log.args.to!, log.args.value!);
        else log.args.ids!.forEach((id, index) => move(log.address, id, log.args.from!, log.args.to!, log.args.values![index]!));
      }
      let total = 0;
      for (const wallet of wallets) {
        const expected: NftHolding[] = manifest.collections.flatMap((collection) =>
          [...owned.entries()]
            .filter(([key, amount]) => key.startsWith(`${collection.address.toLowerCase()}/${wallet.toLowerCase()}/`) && amount > 0n)
            .map(([key, amount]) => ({ contract: collection.address, standard: collection.standard, tokenId: BigInt(key.split('/')[2]!), amount }))
            .sort((a, b) => (a.tokenId < b.tokenId ? -1 : 1)),
        );
        const truth = await nftHoldings(client, manifest, wallet, blockNumber);
        expect(truth).toEqual(expected);
        total += truth.length;
      }
      expect(total).toBeGreaterThan(0);
    }
    const kindsHeld = new Set(
      (await Promise.all(wallets.map((wallet) => nftHoldings(client, manifest, wallet, end)))).flat().map((holding) => holding.contract),
    );
    expect(kindsHeld.size).toBe(manifest.collections.length);
  });

  test('on-chain metadata is a base64 JSON data URI with an SVG image', async () => {
    for (const kind of ['onchain-art', 'spam'] as const) {
      const collection = collectionOf(manifest, kind);
      const metadata = dataUriJson(await session.client.readContract({ address: collection.address, abi: erc721Abi, functionName: 'tokenURI', args: [1n] }));
      expect(metadata.name).toMatch(/#1$/);
      const imagePrefix = 'data:image/svg+xml;base64,';
      expect(metadata.image.startsWith(imagePrefix)).toBe(true);
      expect(Buffer.from(metadata.image.slice(imagePrefix.length), 'base64').toString('utf8')).toMatch(/^<svg .*<\/svg>$/);
    }
  });

  test('hosted metadata and images are served over http at the token URIs', async () => {
    const birds = collectionOf(manifest, 'hosted');
    const passes = collectionOf(manifest, 'editions');
    const birdUri = await session.client.readContract({ address: birds.address, abi: erc721Abi, functionName: 'tokenURI', args: [2n] });
    const passUri = await session.client.readContract({ address: passes.address, abi: erc1155Abi, functionName: 'uri', args: [3n] });
    expect(birdUri).toBe(`${server.url}harbor-birds/2.json`);
    expect(passUri).toBe(`${server.url}field-passes/3.json`);
    for (const uri of [birdUri, passUri]) {
      const response = await fetch(uri);
      expect(response.status).toBe(200);
      const metadata = (await response.json()) as { name: string; image: string; attributes: unknown[] };
      expect(metadata.attributes.length).toBeGreaterThan(0);
      expect(await (await fetch(uri)).text()).toBe(JSON.stringify(metadata));
      const image = await fetch(metadata.image);
      expect(image.headers.get('content-type')).toBe('image/svg+xml');
      expect(await image.text()).toMatch(/^<svg .*<\/svg>$/);
    }
    expect((await fetch(`${server.url}unknown/1.json`)).status).toBe(404);
    expect((await fetch(`${server.url}harbor-birds/0.json`)).status).toBe(404);
  });

  test('a sale pays the seller in the buy transaction and moves the token to the buyer', async () => {
    const sales = performed.filter((entry) => entry.kind === 'buy');
    expect(sales.length).toBeGreaterThan(0);
    for (const sale of sales) {
      const receipt = sale.block.receipts.get(sale.result.hashes[0]!)!;
      const sold = receipt.logs
        .filter((log) => isAddressEqual(log.address, manifest.market))
        .map((log) => decodeEventLog({ abi: marketAbi, data: log.data, topics: log.topics }))
        .find((event) => event.eventName === 'Sold')!;
      if (sold.eventName !== 'Sold') throw new Error('no Sold event');
      expect(sold.args.buyer).toBe(sale.wallet);
      const trace = (await session.client.request({
        method: 'debug_traceTransaction' as never,
        params: [receipt.transactionHash, { tracer: 'callTracer' }] as never,
      })) as CallFrame;
      expect(BigInt(trace.value!)).toBe(sold.args.price);
      const payment = (trace.calls ?? []).find((call) => call.to && isAddressEqual(call.to as Address, sold.args.seller));
      expect(payment?.value).toBe(toHex(sold.args.price));
      const owner = await session.client.readContract({
        address: sold.args.nft,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [sold.args.tokenId],
        blockNumber: sale.block.number,
      });
      expect(owner).toBe(sale.wallet);
    }
  });

  test('paid mints leave their ETH in the collection; operator approvals end as last set', async () => {
    const client = session.client;
    const glyphs = collectionOf(manifest, 'onchain-art');
    let paid = 0n;
    for (const entry of performed.filter((candidate) => candidate.kind === 'mint-erc721-paid')) {
      paid += (await client.getTransaction({ hash: entry.result.hashes[0]! })).value;
    }
    expect(paid).toBeGreaterThan(0n);
    expect(await client.getBalance({ address: glyphs.address })).toBe(paid);

    const last = new Map<string, { contract: Address; owner: Address; operator: Address; approved: boolean }>();
    const logs = await client.getLogs({ address: manifest.collections.map((collection) => collection.address), event: approvalForAll[0], fromBlock: 0n });
    for (const log of logs)
      last.set(`${log.address}/${log.args.owner}/${log.args.operator}`, {
        contract: log.address,
        owner: log.args.owner!,
        operator: log.args.operator!,
        approved: log.args.approved!,
      });
    expect([...last.values()].some((approval) => !approval.approved)).toBe(true);
    for (const approval of last.values()) {
      expect(
        await client.readContract({ address: approval.contract, abi: erc721Abi, functionName: 'isApprovedForAll', args: [approval.owner, approval.operator] }),
      ).toBe(approval.approved);
    }
  });
});
