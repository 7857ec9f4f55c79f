import { encodeFunctionData, isAddressEqual, parseEther, type Address, type Hash } from 'viem';
import type { TxRequest } from '../../chain/index.js';
import type { ActionContext, ActionResult, ActionSpec } from '../../world/index.js';
import { humanAmount, logUniform } from '../tokens/amounts.js';
import { otherWallet } from '../tokens/counterparty.js';
import { knownContracts } from '../tokens/known-contracts.js';
import { spendableEth } from '../tokens/spendable-eth.js';
import { erc1155Abi, erc721Abi, marketAbi, nftMintAbi } from './abis.js';
import { collectionOf, type NftCollection, type NftsManifest } from './manifest.js';

const label = (kind: string) => `nfts:${kind}`;

/** Tokens of one collection a generator looks at per wallet: enough choice, bounded reads. */
const tokensConsidered = 20n;
/** Most recent listings a buyer browses. */
const listingsBrowsed = 40n;

interface OwnedToken {
  collection: NftCollection;
  tokenId: bigint;
}

/** Up to `tokensConsidered` tokens of an enumerable collection owned by the wallet at the latest block. */
async function ownedTokens(context: ActionContext, collection: NftCollection, wallet: Address): Promise<OwnedToken[]> {
  const { client } = context.session;
  const read = { address: collection.address, abi: erc721Abi } as const;
  const balance = await client.readContract({ ...read, functionName: 'balanceOf', args: [wallet] });
  const count = balance < tokensConsidered ? balance : tokensConsidered;
  const indexes = Array.from({ length: Number(count) }, (_, index) => BigInt(index));
  const ids = await Promise.all(indexes.map((index) => client.readContract({ ...read, functionName: 'tokenOfOwnerByIndex', args: [wallet, index] })));
  return ids.map((tokenId) => ({ collection, tokenId }));
}

async function editionBalances(context: ActionContext, collection: NftCollection, wallet: Address): Promise<{ id: bigint; balance: bigint }[]> {
  const { client } = context.session;
  const read = { address: collection.address, abi: erc1155Abi } as const;
  const count = await client.readContract({ ...read, functionName: 'editionCount' });
  const ids = Array.from({ length: Number(count) }, (_, index) => BigInt(index + 1));
  const balances = await Promise.all(ids.map((id) => client.readContract({ ...read, functionName: 'balanceOf', args: [wallet, id] })));
  return ids.map((id, index) => ({ id, balance: balances[index]! })).filter((entry) => entry.balance > 0n);
}

/**
 * Minting, moving and trading NFTs. Listed tokens stay with their seller until bought, so a seller
 * never moves or relists a token with an active listing (the buy would fail). Operator approvals
 * are remembered per chain and wallet in this process for revokes (checked on chain first), and a
 * listing being bought is reserved for its block so two buyers never race for it.
 */
export function nftsActions(manifest: NftsManifest): ActionSpec[] {
  const glyphs = collectionOf(manifest, 'onchain-art');
  const birds = collectionOf(manifest, 'hosted');
  const passes = collectionOf(manifest, 'editions');
  const spam = collectionOf(manifest, 'spam');
  const tradable = [glyphs, birds];
  const mintPrice = BigInt(manifest.mintPriceWei);
  const operatorApprovals = new Map<string, { collection: Address; operator: Address }[]>();
  const buying = new Map<string, number>();

  const send = async (context: ActionContext, kind: string, requests: TxRequest[]): Promise<ActionResult> => {
    const hashes: Hash[] = [];
    for (const request of requests) hashes.push(await context.session.send(request));
    return { label: label(kind), hashes };
  };

  /** The wallet's ERC-721s without an active listing: the ones it may move or list. */
  async function unlistedTokens(context: ActionContext, wallet: Address): Promise<OwnedToken[]> {
    const owned = (await Promise.all(tradable.map((collection) => ownedTokens(context, collection, wallet)))).flat();
    const listings = await Promise.all(
      owned.map((token) =>
        context.session.client.readContract({
          address: manifest.market,
          abi: marketAbi,
          functionName: 'activeListingOf',
          args: [token.collection.address, token.tokenId],
        }),
      ),
    );
    return owned.filter((_, index) => listings[index] === 0n);
  }

  return [
    {
      kind: 'mint-erc721-paid',
      weight: 4,
      async run(context, wallet) {
        const quantity = context.rng.weighted([
          { weight: 60, value: 1n },
          { weight: 25, value: 2n },
          { weight: 10, value: 3n },
          { weight: 5, value: 5n },
        ]);
        const value = mintPrice * quantity;
        if ((await spendableEth(context, wallet)) < value) return undefined;
        const data = encodeFunctionData({ abi: nftMintAbi, functionName: 'mint', args: [quantity] });
        return send(context, 'mint-erc721-paid', [{ from: wallet, to: glyphs.address, data, value, gas: 80_000n + 200_000n * quantity }]);
      },
    },
    {
      kind: 'mint-erc721',
      weight: 4,
      async run(context, wallet) {
        const quantity = BigInt(
          context.rng.weighted([
            { weight: 70, value: 1 },
            { weight: 20, value: 2 },
            { weight: 10, value: 3 },
          ]),
        );
        const data = encodeFunctionData({ abi: nftMintAbi, functionName: 'mint', args: [quantity] });
        return send(context, 'mint-erc721', [{ from: wallet, to: birds.address, data, gas: 80_000n + 200_000n * quantity }]);
      },
    },
    {
      kind: 'mint-erc1155',
      weight: 4,
      async run(context, wallet) {
        const count = await context.session.client.readContract({ address: passes.address, abi: erc1155Abi, functionName: 'editionCount' });
        // Early editions are the popular ones.
        const id = BigInt(Math.floor(logUniform(context.rng, 1, Number(count) + 1)));
        const amount = BigInt(
          context.rng.weighted([
            { weight: 60, value: 1 },
            { weight: 25, value: context.rng.int(2, 4) },
            { weight: 15, value: 10 },
          ]),
        );
        const data = encodeFunctionData({ abi: erc1155Abi, functionName: 'mint', args: [id, amount] });
        return send(context, 'mint-erc1155', [{ from: wallet, to: passes.address, data, gas: 120_000n }]);
      },
    },
    {
      kind: 'transfer-erc721',
      weight: 3,
      async run(context, wallet) {
        const to = otherWallet(context, wallet);
        const tokens = await unlistedTokens(context, wallet);
        if (!to || tokens.length === 0) return undefined;
        const token = context.rng.pick(tokens);
        const data = encodeFunctionData({ abi: erc721Abi, functionName: 'safeTransferFrom', args: [wallet, to, token.tokenId] });
        return send(context, 'transfer-erc721', [{ from: wallet, to: token.collection.address, data, gas: 200_000n }]);
      },
    },
    {
      kind: 'transfer-erc1155',
      weight: 2,
      async run(context, wallet) {
        const to = otherWallet(context, wallet);
        const held = await editionBalances(context, passes, wallet);
        if (!to || held.length === 0) return undefined;
        const edition = context.rng.pick(held);
        const amount = context.rng.chance(0.6) ? 1n : context.rng.bigint(1n, edition.balance);
        const data = encodeFunctionData({ abi: erc1155Abi, functionName: 'safeTransferFrom', args: [wallet, to, edition.id, amount, '0x'] });
        return send(context, 'transfer-erc1155', [{ from: wallet, to: passes.address, data, gas: 120_000n }]);
      },
    },
    {
      kind: 'batch-transfer-erc1155',
      weight: 1,
      async run(context, wallet) {
        const to = otherWallet(context, wallet);
        const held = await editionBalances(context, passes, wallet);
        if (!to || held.length < 2) return undefined;
        const chosen = context.rng.shuffle(held).slice(0, context.rng.int(2, held.length));
        const ids = chosen.map((edition) => edition.id);
        const amounts = chosen.map((edition) => context.rng.bigint(1n, edition.balance));
        const data = encodeFunctionData({ abi: erc1155Abi, functionName: 'safeBatchTransferFrom', args: [wallet, to, ids, amounts, '0x'] });
        return send(context, 'batch-transfer-erc1155', [{ from: wallet, to: passes.address, data, gas: 80_000n + 60_000n * BigInt(ids.length) }]);
      },
    },
    {
      kind: 'approve-for-all',
      weight: 2,
      async run(context, wallet) {
        const { rng } = context;
        const collection = rng.pick([glyphs, birds, passes]);
        const contracts = knownContracts(context.deployed).filter((address) => address !== wallet && address !== context.deployer);
        const operator = rng.weighted<Address | undefined>([
          { weight: 40, value: manifest.market },
          { weight: contracts.length > 0 ? 20 : 0, value: contracts.length > 0 ? rng.pick(contracts) : undefined },
          { weight: 40, value: otherWallet(context, wallet) },
        ]);
        if (!operator) return undefined;
        const approved = await context.session.client.readContract({
          address: collection.address,
          abi: erc721Abi,
          functionName: 'isApprovedForAll',
          args: [wallet, operator],
        });
        if (approved) return undefined;
        const key = `${context.session.chainId}:${wallet}`;
        operatorApprovals.set(key, [...(operatorApprovals.get(key) ?? []), { collection: collection.address, operator }]);
        const data = encodeFunctionData({ abi: erc721Abi, functionName: 'setApprovalForAll', args: [operator, true] });
        return send(context, 'approve-for-all', [{ from: wallet, to: collection.address, data, gas: 80_000n }]);
      },
    },
    {
      kind: 'revoke-approval-for-all',
      weight: 1,
      async run(context, wallet) {
        const key = `${context.session.chainId}:${wallet}`;
        const remembered = operatorApprovals.get(key) ?? [];
        for (const approval of context.rng.shuffle(remembered)) {
          const approved = await context.session.client.readContract({
            address: approval.collection,
            abi: erc721Abi,
            functionName: 'isApprovedForAll',
            args: [wallet, approval.operator],
          });
          if (!approved) continue;
          operatorApprovals.set(
            key,
            remembered.filter((entry) => entry.collection !== approval.collection || entry.operator !== approval.operator),
          );
          const data = encodeFunctionData({ abi: erc721Abi, functionName: 'setApprovalForAll', args: [approval.operator, false] });
          return send(context, 'revoke-approval-for-all', [{ from: wallet, to: approval.collection, data, gas: 80_000n }]);
        }
        operatorApprovals.delete(key);
        return undefined;
      },
    },
    {
      kind: 'list',
      weight: 2,
      async run(context, wallet) {
        const { rng } = context;
        const tokens = await unlistedTokens(context, wallet);
        if (tokens.length === 0) return undefined;
        const token = rng.pick(tokens);
        const price =
          token.collection === glyphs
            ? humanAmount(rng, (mintPrice * BigInt(Math.round(logUniform(rng, 0.5, 20) * 1000))) / 1000n)
            : humanAmount(rng, parseEther(logUniform(rng, 0.002, 0.5).toFixed(6)));
        const approve = encodeFunctionData({ abi: erc721Abi, functionName: 'approve', args: [manifest.market, token.tokenId] });
        const list = encodeFunctionData({ abi: marketAbi, functionName: 'list', args: [token.collection.address, token.tokenId, price] });
        return send(context, 'list', [
          { from: wallet, to: token.collection.address, data: approve, gas: 80_000n },
          { from: wallet, to: manifest.market, data: list, gas: 300_000n },
        ]);
      },
    },
    {
      kind: 'buy',
      weight: 2,
      async run(context, wallet) {
        const { client, chainId } = context.session;
        const [count, spendable] = await Promise.all([
          client.readContract({ address: manifest.market, abi: marketAbi, functionName: 'listingCount' }),
          spendableEth(context, wallet),
        ]);
        const first = count > listingsBrowsed ? count - listingsBrowsed + 1n : 1n;
        const ids = Array.from({ length: Number(count - first + 1n) }, (_, index) => first + BigInt(index));
        const listings = await Promise.all(
          ids.map((id) => client.readContract({ address: manifest.market, abi: marketAbi, functionName: 'listings', args: [id] })),
        );
        const open = ids
          .map((id, index) => {
            const [seller, nft, tokenId, price, active] = listings[index]!;
            return { id, seller, nft, tokenId, price, active };
          })
          .filter((listing) => listing.active && !isAddressEqual(listing.seller, wallet) && listing.price <= spendable)
          .filter((listing) => buying.get(`${chainId}:${listing.id}`) !== context.timestamp);
        for (const listing of context.rng.shuffle(open)) {
          const read = { address: listing.nft, abi: erc721Abi } as const;
          const [owner, approved, approvedForAll] = await Promise.all([
            client.readContract({ ...read, functionName: 'ownerOf', args: [listing.tokenId] }),
            client.readContract({ ...read, functionName: 'getApproved', args: [listing.tokenId] }),
            client.readContract({ ...read, functionName: 'isApprovedForAll', args: [listing.seller, manifest.market] }),
          ]);
          if (!isAddressEqual(owner, listing.seller) || (!isAddressEqual(approved, manifest.market) && !approvedForAll)) continue;
          buying.set(`${chainId}:${listing.id}`, context.timestamp);
          const data = encodeFunctionData({ abi: marketAbi, functionName: 'buy', args: [listing.id] });
          return send(context, 'buy', [{ from: wallet, to: manifest.market, data, value: listing.price, gas: 300_000n }]);
        }
        return undefined;
      },
    },
    {
      kind: 'spam-airdrop',
      weight: 1,
      async run(context, wallet) {
        const others = context.rng.shuffle(context.wallets.filter((candidate) => candidate !== wallet));
        const recipients = [wallet, ...others.slice(0, context.rng.int(3, 30))];
        const data = encodeFunctionData({ abi: nftMintAbi, functionName: 'airdrop', args: [recipients] });
        // Sent by the spammer (the deployer): the wallets only receive.
        return send(context, 'spam-airdrop', [{ from: context.deployer, to: spam.address, data, gas: 60_000n + 70_000n * BigInt(recipients.length) }]);
      },
    },
  ];
}
