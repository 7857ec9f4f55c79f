import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeEventLog, getAbiItem, getAddress, isAddressEqual, keccak256, parseAbi, parseEther, slice, stringToHex, toHex, type Address } from 'viem';
import { createChainSession, startAnvil, type AnvilInstance, type ChainSession, type MinedBlock } from '../src/chain/index.js';
import { compileContracts } from '../src/compile/index.js';
import { startMetadataServer, type MetadataServer } from '../src/metadata-server/index.js';
import { erc1155Abi, erc721Abi, marketAbi } from '../src/protocols/nfts/abis.js';
import { collectionOf, nftsModule, type NftsManifest } from '../src/protocols/nfts/index.js';
import { nftHoldings, type NftHolding } from '../src/truth/nfts.js';
import { createRng, type ActionContext, type ActionResult } from '../src/world/index.js';

const dataDir = new URL('../../../.data/devnet/', import.meta.url).pathname;
const contractsDir = new URL('../contracts/', import.meta.url).pathname;

const address = (label: string): Address => getAddress(slice(keccak256(stringToHex(label)), 12));
const deployer = address('nfts-test/deployer');
const wallets = Array.from({ length: 5 }, (_, index) => address(`nfts-test/wallet/${index}`));
const approvalForAll = parseAbi(['event ApprovalForAll(address indexed owner, address indexed operator, bool approved)']);

interface Performed {
  wallet: Address;
  kind: string;
  result: ActionResult;
  block: MinedBlock;
}

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
  let anvilDir: string;
  let anvil: AnvilInstance;
  let server: MetadataServer;
  let session: ChainSession;
  let manifest: NftsManifest;
  const mined: MinedBlock[] = [];
  const performed: Performed[] = [];
  let midBlock: bigint;

  beforeAll(async () => {
    const started = Date.now();
    await mkdir(join(dataDir, 'test-anvil'), { recursive: true });
    anvilDir = await mkdtemp(join(dataDir, 'test-anvil', 'nfts-'));
    const artifacts = await compileContracts(contractsDir, join(dataDir, 'artifacts'));
    server = await startMetadataServer({ port: 0 });
    const genesis = 1_700_000_000;
    anvil = await startAnvil({ chainId: 1, cachePath: anvilDir, genesisTimestamp: genesis });
    session = await createChainSession(anvil.rpcUrl);
    await session.setBalance(deployer, parseEther('1000000'));
    for (const [index, wallet] of wallets.entries()) await session.setBalance(wallet, parseEther(String(3 + index * 4)));
    let clock = genesis + 60;
    const rng = createRng('nfts-test');
    const deployed: Record<string, unknown> = { metadata: { baseUrl: server.url } };
    manifest = await nftsModule.deploy({ session, artifacts, deployer, rng: rng.fork('deploy'), clock: () => (clock += 12), deployed });
    deployed.nfts = manifest;

    // Every wallet walks through every action three times, one action per wallet per block, so
    // each has minted before it moves, lists or batch-transfers, and others' listings await buyers.
    const actions = nftsModule.actions(manifest);
    for (let round = 0; round < actions.length * 3; round++) {
      const context: ActionContext = { session, rng: rng.fork(`round/${round}`), timestamp: (clock += 3600 * 5), wallets, deployer, deployed };
      const sent: Omit<Performed, 'block'>[] = [];
      for (const [index, wallet] of wallets.entries()) {
        const action = actions[(index + round) % actions.length]!;
        const result = await action.run(context, wallet);
        if (result) sent.push({ wallet, kind: action.kind, result });
      }
      const block = await session.mine(context.timestamp);
      mined.push(block);
      performed.push(...sent.map((entry) => ({ ...entry, block })));
      if (round === actions.length) midBlock = block.number;
    }
    console.log(`nfts setup: ${performed.length} actions in ${mined.length} blocks, ${(Date.now() - started) / 1000} s`);
  });

  afterAll(async () => {
    await anvil?.stop();
    await server?.close();
    await rm(anvilDir, { recursive: true, force: true });
  });

  test('every action kind ran and its transactions succeeded', () => {
    const kinds = new Set(performed.map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(nftsModule.actions(manifest).map((action) => action.kind).sort());
    for (const entry of performed) {
      for (const hash of entry.result.hashes) expect({ kind: entry.kind, status: entry.block.receipts.get(hash)?.status }).toEqual({ kind: entry.kind, status: 'success' });
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
        for (const [holder, delta] of [[from, -amount], [to, amount]] as const) {
          const key = `${contract.toLowerCase()}/${holder.toLowerCase()}/${tokenId}`;
          owned.set(key, (owned.get(key) ?? 0n) + delta);
        }
      };
      const erc721s = manifest.collections.filter((collection) => collection.standard === 'erc721').map((collection) => collection.address);
      for (const log of await client.getLogs({ address: erc721s, event: getAbiItem({ abi: erc721Abi, name: 'Transfer' }), fromBlock: 0n, toBlock: blockNumber })) {
        move(log.address, log.args.tokenId!, log.args.from!, log.args.to!, 1n);
      }
      const passes = collectionOf(manifest, 'editions').address;
      for (const log of await client.getLogs({ address: passes, events: [getAbiItem({ abi: erc1155Abi, name: 'TransferSingle' }), getAbiItem({ abi: erc1155Abi, name: 'TransferBatch' })], fromBlock: 0n, toBlock: blockNumber })) {
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
    const kindsHeld = new Set((await Promise.all(wallets.map((wallet) => nftHoldings(client, manifest, wallet, end)))).flat().map((holding) => holding.contract));
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
      const trace = (await session.client.request({ method: 'debug_traceTransaction' as never, params: [receipt.transactionHash, { tracer: 'callTracer' }] as never })) as CallFrame;
      expect(BigInt(trace.value!)).toBe(sold.args.price);
      const payment = (trace.calls ?? []).find((call) => call.to && isAddressEqual(call.to as Address, sold.args.seller));
      expect(payment?.value).toBe(toHex(sold.args.price));
      const owner = await session.client.readContract({ address: sold.args.nft, abi: erc721Abi, functionName: 'ownerOf', args: [sold.args.tokenId], blockNumber: sale.block.number });
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
    for (const log of logs) last.set(`${log.address}/${log.args.owner}/${log.args.operator}`, { contract: log.address, owner: log.args.owner!, operator: log.args.operator!, approved: log.args.approved! });
    expect([...last.values()].some((approval) => !approval.approved)).toBe(true);
    for (const approval of last.values()) {
      expect(await client.readContract({ address: approval.contract, abi: erc721Abi, functionName: 'isApprovedForAll', args: [approval.owner, approval.operator] })).toBe(approval.approved);
    }
  });
});
