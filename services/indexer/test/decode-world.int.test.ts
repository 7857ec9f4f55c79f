import { AssetKind, type BalanceChange, type WalletTransaction } from '@wallet-api/core/proto/events';
import { createPublicClient, formatTransactionReceipt, http, numberToHex, type Address, type PublicClient, type RpcTransactionReceipt } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import type { NftsManifest } from '../../../devnet/src/protocols/nfts/index.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/index.js';
import { readWalletTruth, worldTokens, type WalletTruth } from '../../../devnet/src/truth/index.js';
import type { BlockBundle, TransactionTrace } from '../src/fetch/block-bundle.js';
import { walletView, type TokenFacts } from '@wallet-api/core/transactions';
import { decodeBlock } from '../src/decode/index.js';
import { expectedByLabel, failureLabels, trashLabels, unreadLabels } from './world-labels.js';

/**
 * Decodes every block of the test world loaded on the shared anvil chains and holds the result
 * against the chains themselves. Read-only: the chains are shared with other suites.
 */

async function fetchBundle(client: PublicClient, chainId: string, number: bigint): Promise<BlockBundle> {
  const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
  const [receipts, traces] = await Promise.all([
    client.request({ method: 'eth_getBlockReceipts' as never, params: [numberToHex(number)] as never }) as Promise<RpcTransactionReceipt[]>,
    client.request({ method: 'debug_traceBlockByNumber' as never, params: [numberToHex(number), { tracer: 'callTracer' }] as never }) as Promise<
      TransactionTrace[]
    >,
  ]);
  return {
    chainId,
    block: block as BlockBundle['block'],
    transactions: block.transactions,
    receipts: receipts.map((receipt) => formatTransactionReceipt(receipt)),
    traces,
  };
}

interface DecodedChain {
  transactions: WalletTransaction[];
  balanceChanges: BalanceChange[];
  sentBy: Map<string, Set<string>>;
}

async function decodeChain(client: PublicClient, chain: ChainWorld): Promise<DecodedChain> {
  const decoded: DecodedChain = { transactions: [], balanceChanges: [], sentBy: new Map() };
  const numbers = Array.from({ length: chain.endBlock + 1 }, (_, index) => BigInt(index));
  for (let start = 0; start < numbers.length; start += 16) {
    const bundles = await Promise.all(numbers.slice(start, start + 16).map((number) => fetchBundle(client, chain.id, number)));
    for (const bundle of bundles) {
      for (const transaction of bundle.transactions) {
        const from = transaction.from.toLowerCase();
        decoded.sentBy.set(from, (decoded.sentBy.get(from) ?? new Set()).add(transaction.hash));
      }
      const { transactions, balanceChanges } = decodeBlock(bundle);
      decoded.transactions.push(...transactions);
      decoded.balanceChanges.push(...balanceChanges);
    }
  }
  return decoded;
}

const assetKey = (kind: AssetKind, address: string, tokenId = '') => `${kind}:${address.toLowerCase()}:${tokenId}`;

function sumsByWallet(changes: BalanceChange[]): Map<string, Map<string, bigint>> {
  const sums = new Map<string, Map<string, bigint>>();
  for (const change of changes) {
    const wallet = sums.get(change.wallet) ?? new Map<string, bigint>();
    sums.set(change.wallet, wallet);
    const key = assetKey(change.asset!.kind, change.asset!.address, change.asset!.tokenId);
    wallet.set(key, (wallet.get(key) ?? 0n) + BigInt(change.amount));
  }
  return sums;
}

/** The world's token list as reference data would know it: its spam tokens and collections flagged, the rest verified. */
function worldTokenFacts(chain: ChainWorld): TokenFacts {
  const facts = new Map<string, { verified: boolean; isSpam: boolean }>();
  for (const token of worldTokens(chain).tokens) facts.set(token.address.toLowerCase(), { verified: token.kind !== 'spam', isSpam: token.kind === 'spam' });
  for (const collection of (chain.protocols.nfts as NftsManifest).collections) {
    facts.set(collection.address.toLowerCase(), { verified: collection.kind !== 'spam', isSpam: collection.kind === 'spam' });
  }
  return { lookup: (_chainId, address) => facts.get(address) };
}

let manifest: Manifest;

beforeAll(async () => {
  manifest = await readManifest();
});

describe.each(['ethereum', 'base', 'sepolia'])('decoding the test world on %s', (chainId) => {
  let chain: ChainWorld;
  let client: PublicClient;
  let decoded: DecodedChain;
  let truths: Map<string, WalletTruth>;

  beforeAll(async () => {
    chain = manifest.chains.find((candidate) => candidate.id === chainId)!;
    client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
    decoded = await decodeChain(client, chain);
    const end = BigInt(chain.endBlock);
    const entries = await Promise.all(
      chain.wallets.map(async (wallet) => [wallet.address.toLowerCase(), await readWalletTruth(client, chain, wallet.address as Address, end)] as const),
    );
    truths = new Map(entries);
  }, 300_000);

  test('the world has wallets, transactions and balance changes to check', () => {
    expect(chain.wallets.length).toBeGreaterThan(0);
    expect(decoded.transactions.length).toBeGreaterThan(chain.wallets.length);
    expect(decoded.balanceChanges.length).toBeGreaterThan(decoded.transactions.length);
  });

  // The devnet funds its deployer (a wallet of the manifest when it acts, e.g. as the spammer) in the
  // genesis state, which no transaction shows; every other wallet starts empty.
  test('native balances summed from balance changes equal getBalance at the end block, less the genesis balance', async () => {
    const sums = sumsByWallet(decoded.balanceChanges);
    const genesis = await Promise.all(chain.wallets.map((wallet) => client.getBalance({ address: wallet.address as Address, blockNumber: 0n })));
    const mismatches = chain.wallets.flatMap((wallet, index) => {
      const address = wallet.address.toLowerCase();
      const summed = sums.get(address)?.get(assetKey(AssetKind.ASSET_KIND_NATIVE, '')) ?? 0n;
      const truth = truths.get(address)!.native - genesis[index]!;
      return summed === truth ? [] : [{ wallet: address, summed, truth }];
    });
    expect(mismatches).toEqual([]);
  });

  test('every token balance of the world equals balanceOf at the end block', () => {
    const sums = sumsByWallet(decoded.balanceChanges);
    const tokens = worldTokens(chain).tokens;
    expect(tokens.map((token) => token.address)).toEqual(
      expect.arrayContaining((chain.protocols.tokens as TokensManifest).tokens.map((token) => token.address)),
    );
    const mismatches = chain.wallets.flatMap((wallet) => {
      const address = wallet.address.toLowerCase();
      const truth = truths.get(address)!;
      return tokens.flatMap((token) => {
        const summed = sums.get(address)?.get(assetKey(AssetKind.ASSET_KIND_ERC20, token.address)) ?? 0n;
        const onChain = truth.tokens.find((held) => held.address.toLowerCase() === token.address.toLowerCase())?.balance ?? 0n;
        return summed === onChain ? [] : [{ wallet: address, token: token.symbol, summed, onChain }];
      });
    });
    expect(mismatches).toEqual([]);
  });

  test('NFT holdings (ERC-721 ownerOf, ERC-1155 balanceOf) equal the chain at the end block', () => {
    const sums = sumsByWallet(decoded.balanceChanges);
    const collections = (chain.protocols.nfts as NftsManifest).collections;
    let held = 0;
    for (const wallet of chain.wallets) {
      const address = wallet.address.toLowerCase();
      const fromChanges = [...(sums.get(address) ?? new Map<string, bigint>()).entries()]
        .filter(([key, amount]) => amount !== 0n && collections.some((collection) => key.includes(`:${collection.address.toLowerCase()}:`)))
        .map(([key, amount]) => `${key}=${amount}`)
        .sort();
      const onChain = truths
        .get(address)!
        .nfts.map(
          (nft) =>
            `${assetKey(nft.standard === 'erc721' ? AssetKind.ASSET_KIND_ERC721 : AssetKind.ASSET_KIND_ERC1155, nft.contract, nft.tokenId.toString())}=${nft.amount}`,
        )
        .sort();
      held += onChain.length;
      expect({ wallet: address, holdings: fromChanges }).toEqual({ wallet: address, holdings: onChain });
    }
    expect(held).toBeGreaterThan(0);
  });

  test('every transaction a wallet sent, and every one that changed its balances, is attributed to it', () => {
    const attributed = new Map<string, Set<string>>();
    for (const transaction of decoded.transactions) {
      for (const wallet of transaction.wallets) attributed.set(wallet, (attributed.get(wallet) ?? new Set()).add(transaction.hash));
    }
    const missing = chain.wallets.flatMap((wallet) => {
      const address = wallet.address.toLowerCase();
      const own = attributed.get(address) ?? new Set<string>();
      const touched = decoded.balanceChanges.filter((change) => change.wallet === address).map((change) => change.transactionHash);
      const sent = [...(decoded.sentBy.get(address) ?? [])];
      return [...sent, ...touched].filter((hash) => !own.has(hash)).map((hash) => ({ wallet: address, hash }));
    });
    expect(missing).toEqual([]);
  });

  test('the labels of each wallet show up as the operation types of its transactions', () => {
    const tokens = worldTokenFacts(chain);
    const byWallet = new Map<string, WalletTransaction[]>();
    for (const transaction of decoded.transactions) {
      for (const wallet of transaction.wallets) byWallet.set(wallet, [...(byWallet.get(wallet) ?? []), transaction]);
    }
    const unexpected: { wallet: string; label: string; found: string[] }[] = [];
    let checked = 0;
    for (const wallet of chain.wallets) {
      const address = wallet.address.toLowerCase();
      const transactions = byWallet.get(address) ?? [];
      const views = transactions.map((transaction) => ({ transaction, view: walletView(transaction, address, tokens) }));
      const types = new Set(views.map(({ view }) => view.operationType));
      for (const label of wallet.labels) {
        if (unreadLabels.has(label)) continue;
        checked++;
        const expected = expectedByLabel[label];
        const ok = failureLabels.has(label)
          ? transactions.some((transaction) => transaction.failed && transaction.from === address)
          : expected !== undefined && types.has(expected) && (!trashLabels.has(label) || views.some(({ view }) => view.isTrash));
        if (!ok) unexpected.push({ wallet: address, label, found: [...types].sort() });
      }
    }
    expect(unexpected).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
