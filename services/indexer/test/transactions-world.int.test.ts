import { inList, sql } from '@wallet-api/core/clickhouse';
import { WalletTransaction } from '@wallet-api/core/proto/events';
import { createPublicClient, http, numberToHex, type Address, type PublicClient, type RpcTransactionReceipt } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { readWalletTruth, type WalletTruth } from '../../../devnet/src/truth/index.js';
import type { CallFrame, TransactionTrace } from '../src/fetch/block-bundle.js';
import { startPipeline, type Pipeline } from './setup-pipeline.js';
import { eventually } from './setup-indexing.js';
import { expectedByLabel, failureLabels, trashLabels, unreadLabels } from './world-labels.js';

// The test world, indexed end to end (chain -> indexer -> Kafka -> ClickHouse -> gRPC -> gateway),
// held against the chain: for every manifest wallet, the API's transactions are exactly those the
// chain shows the wallet in, with the chain's fees, and its transfers add up to the chain's
// balances at the end block. The shared chains are only read.

interface ChainFacts {
  /** Per wallet (lowercase), the hashes of transactions the chain shows it in. */
  involvement: Map<string, Set<string>>;
  fees: Map<string, bigint>;
  transactionCount: number;
}

/** An address-shaped 32-byte log topic: 12 zero bytes, then 20 bytes. */
function topicAddress(topic: string): string | undefined {
  return /^0x0{24}[0-9a-f]{40}$/.test(topic) ? `0x${topic.slice(26)}` : undefined;
}

function valueParties(frame: CallFrame, parties: Set<string>): void {
  if (frame.error) return;
  if (frame.value && BigInt(frame.value) > 0n) {
    parties.add(frame.from.toLowerCase());
    if (frame.to) parties.add(frame.to.toLowerCase());
  }
  for (const child of frame.calls ?? []) valueParties(child, parties);
}

/**
 * Independent of the decoder: a wallet is in a transaction when it sent it, was called by it, moved
 * value in its call tree, or is named by an address topic of one of its logs.
 */
async function readChainFacts(client: PublicClient, chain: ChainWorld): Promise<ChainFacts> {
  const wallets = new Set(chain.wallets.map((wallet) => wallet.address.toLowerCase()));
  const involvement = new Map([...wallets].map((wallet) => [wallet, new Set<string>()]));
  const fees = new Map<string, bigint>();
  let transactionCount = 0;
  for (let number = 0n; number <= BigInt(chain.endBlock); number++) {
    const [block, receipts, traces] = await Promise.all([
      client.getBlock({ blockNumber: number, includeTransactions: true }),
      client.request({ method: 'eth_getBlockReceipts' as never, params: [numberToHex(number)] as never }) as Promise<RpcTransactionReceipt[]>,
      client.request({ method: 'debug_traceBlockByNumber' as never, params: [numberToHex(number), { tracer: 'callTracer' }] as never }) as Promise<
        TransactionTrace[]
      >,
    ]);
    block.transactions.forEach((transaction, index) => {
      transactionCount++;
      const receipt = receipts[index]!;
      fees.set(transaction.hash, BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
      const parties = new Set<string>([transaction.from.toLowerCase()]);
      if (transaction.to) parties.add(transaction.to.toLowerCase());
      if (receipt.contractAddress) parties.add(receipt.contractAddress.toLowerCase());
      valueParties(traces[index]!.result, parties);
      for (const log of receipt.logs)
        for (const topic of log.topics.slice(1)) {
          const address = topicAddress(topic);
          if (address) parties.add(address);
        }
      for (const party of parties) involvement.get(party)?.add(transaction.hash);
    });
  }
  return { involvement, fees, transactionCount };
}

/** The wallet's holdings as its API transfers and fees add them up, keyed `native`, `<token>`, `<nft>:<id>`. */
function holdingsFromApi(items: any[], wallet: string): Map<string, bigint> {
  const holdings = new Map<string, bigint>();
  const add = (key: string, amount: bigint) => holdings.set(key, (holdings.get(key) ?? 0n) + amount);
  for (const { attributes, relationships } of items) {
    if (attributes.sent_from === wallet) add('native', -BigInt(attributes.fee.quantity.int));
    // A fungible lists its implementations on every chain of the network; the transfer moved the one on its own chain.
    const onChain = (info: any) => info.implementations.find((implementation: any) => implementation.chain_id === relationships.chain.data.id);
    for (const transfer of attributes.transfers) {
      const sign = transfer.direction === 'in' ? 1n : transfer.direction === 'out' ? -1n : 0n;
      const key = transfer.nft_info
        ? `${transfer.nft_info.contract_address}:${transfer.nft_info.token_id}`
        : (onChain(transfer.fungible_info).address ?? 'native');
      add(key, sign * BigInt(transfer.quantity.int));
    }
  }
  return holdings;
}

let manifest: Manifest;
let pipeline: Pipeline;

beforeAll(async () => {
  manifest = await readManifest();
  pipeline = await startPipeline();
  await pipeline.resetCheckpoints(manifest.chains.map((chain) => chain.id));
  for (const chain of manifest.chains) pipeline.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
}, 60_000);

afterAll(async () => {
  await pipeline?.close();
});

describe.each(['ethereum', 'base', 'sepolia'])('the test world on %s, through the API', (chainId) => {
  let chain: ChainWorld;
  let client: PublicClient;
  let facts: ChainFacts;
  const headers = (): Record<string, string> => (chainId === 'sepolia' ? { 'x-env': 'testnet' } : {});
  const history = async (wallet: string) => {
    const items: any[] = [];
    let next: string | undefined = `/v1/wallets/${wallet}/transactions/?filter[chain_ids]=${chainId}&filter[trash]=no_filter&page[size]=100`;
    while (next) {
      const { status, body } = await pipeline.get(next, headers());
      expect(status).toBe(200);
      items.push(...body.data);
      next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
    }
    return items;
  };

  beforeAll(async () => {
    chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
    client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    facts = await readChainFacts(client, chain);
    // Indexed, written and readable: every transaction of the chain has its rows.
    await eventually(async () => {
      const [row] = await pipeline.database.clickhouse.query<{ count: string }>(
        sql`SELECT uniqExact(block_hash, transaction_index) AS count FROM wallet_transactions WHERE chain_id = ${chainId}`,
      );
      expect(Number(row!.count)).toBe(facts.transactionCount);
    }, 120_000);
  }, 180_000);

  test('every wallet: exactly the transactions the chain shows it in, each once, newest first, with the chain fees', async () => {
    for (const { address } of chain.wallets) {
      const wallet = address.toLowerCase();
      const items = await history(wallet);
      const hashes = items.map((item) => item.attributes.hash);
      expect({ wallet, count: hashes.length }).toEqual({ wallet, count: new Set(hashes).size });
      expect({ wallet, hashes: new Set(hashes) }).toEqual({ wallet, hashes: facts.involvement.get(wallet) });
      const times = items.map((item) => [Date.parse(item.attributes.mined_at), item.attributes.mined_at_block]);
      expect(times).toEqual([...times].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!));
      for (const { attributes } of items) {
        expect(attributes.status).toBe('confirmed');
        expect(attributes.address).toBe(wallet);
        expect(BigInt(attributes.fee.quantity.int)).toBe(facts.fees.get(attributes.hash));
      }
    }
  });

  test('every wallet: transfers and fees add up to the chain balances at the end block', async () => {
    const end = BigInt(chain.endBlock);
    for (const { address } of chain.wallets) {
      const wallet = address.toLowerCase();
      const holdings = holdingsFromApi(await history(wallet), wallet);
      const truth: WalletTruth = await readWalletTruth(client, chain, address as Address, end);
      // The devnet deployer starts with a genesis allocation no transaction shows.
      const genesis = await client.getBalance({ address: address as Address, blockNumber: 0n });
      expect({ wallet, native: holdings.get('native') ?? 0n }).toEqual({ wallet, native: truth.native - genesis });
      for (const token of truth.tokens) {
        expect({ wallet, token: token.address, balance: holdings.get(token.address.toLowerCase()) ?? 0n }).toEqual({
          wallet,
          token: token.address,
          balance: token.balance,
        });
      }
      for (const nft of truth.nfts) {
        const key = `${nft.contract.toLowerCase()}:${nft.tokenId}`;
        expect({ wallet, nft: key, amount: holdings.get(key) ?? 0n }).toEqual({ wallet, nft: key, amount: nft.amount });
      }
      // Every NFT the transfers leave with the wallet is one the chain says it holds: world
      // collections and Uniswap V3 liquidity positions.
      const positionManager = (chain.protocols.uniswap as UniswapManifest).v3.positionManager.toLowerCase();
      const heldOnChain = [
        ...truth.nfts.filter((nft) => nft.amount > 0n).map((nft) => `${nft.contract.toLowerCase()}:${nft.tokenId}`),
        ...truth.uniswapV3.map((position) => `${positionManager}:${position.tokenId}`),
      ];
      const heldByTransfers = [...holdings].filter(([key, amount]) => key.includes(':') && amount !== 0n).map(([key]) => key);
      expect({ wallet, nfts: heldByTransfers.sort() }).toEqual({ wallet, nfts: heldOnChain.sort() });
    }
  });

  test('every wallet: its manifest labels show up as operation types, spam as trash', async () => {
    for (const { address, labels } of chain.wallets) {
      const wallet = address.toLowerCase();
      const all = await history(wallet);
      const types = new Set(all.map((item) => item.attributes.operation_type));
      for (const label of labels) {
        if (unreadLabels.has(label) || failureLabels.has(label)) continue;
        expect({ wallet, label, seen: types.has(expectedByLabel[label]) }).toEqual({ wallet, label, seen: true });
      }
      if (labels.some((label) => trashLabels.has(label))) {
        const { body } = await pipeline.get(`/v1/wallets/${wallet}/transactions/?filter[chain_ids]=${chainId}&filter[trash]=only_trash`, headers());
        expect({ wallet, trash: body.data.length > 0 }).toEqual({ wallet, trash: true });
      }
    }
  });

  test('no rows for the contracts trades pass through, which every wallet endpoint refuses; the wallets that traded keep theirs', async () => {
    const uniswap = chain.protocols.uniswap as UniswapManifest;
    const contracts = [uniswap.weth, uniswap.v2.router, uniswap.v3.swapRouter, ...uniswap.v2.pairs.map((pair) => pair.address)].map((address) =>
      address.toLowerCase(),
    );
    // A row's body is its wallet's part of the transaction: the contracts appear as the other side
    // of the traders' own transfers and approvals.
    const stored = await pipeline.database.clickhouse.query<{ body: string }>(sql`SELECT body FROM wallet_transactions WHERE chain_id = ${chainId}`);
    const parties = (tx: WalletTransaction) => [
      ...tx.transfers.flatMap((transfer) => [transfer.sender, transfer.recipient]),
      ...tx.approvals.flatMap((approval) => [approval.owner, approval.spender]),
    ];
    const named = new Set(stored.flatMap(({ body }) => parties(WalletTransaction.decode(Buffer.from(body, 'base64')))));
    // The decoder names them as parties of the traders' transactions (and so among a transaction's wallets on the topic, where a subscription to one matches) ...
    expect(contracts.filter((address) => named.has(address)).length).toBeGreaterThan(0);
    // ... but their history is not kept: the API answers 400 for each of them.
    const rows = await pipeline.database.clickhouse.query<{ address: string }>(
      sql`SELECT DISTINCT address FROM wallet_transactions WHERE chain_id = ${chainId} AND address IN ${inList(contracts)}`,
    );
    expect(rows).toEqual([]);
    for (const address of contracts.filter((candidate) => named.has(candidate)).slice(0, 3)) {
      const { status } = await pipeline.get(`/v1/wallets/${address}/transactions/`, headers());
      expect({ address, status }).toEqual({ address, status: 400 });
    }
  });
});
