import { isAddressEqual, type Address } from 'viem';
import { erc1155Abi, erc721Abi } from '../protocols/nfts/abis.js';
import type { NftCollection, NftsManifest } from '../protocols/nfts/manifest.js';
import type { TruthClient } from './tokens.js';

export interface NftHolding {
  contract: Address;
  standard: 'erc721' | 'erc1155';
  tokenId: bigint;
  /** 1 for an ERC-721 token. */
  amount: bigint;
}

/** ownerOf calls in flight at once while scanning a collection. */
const scanChunk = 250;

/**
 * The ERC-721 tokens of `wallet` at `blockNumber`: ownerOf over ids 1..totalSupply() (the
 * collections never burn), skipped when balanceOf is 0 and stopped once balanceOf tokens are found.
 */
async function erc721Holdings(client: TruthClient, collection: NftCollection, wallet: Address, blockNumber: bigint): Promise<NftHolding[]> {
  const read = { address: collection.address, abi: erc721Abi, blockNumber } as const;
  const balance = await client.readContract({ ...read, functionName: 'balanceOf', args: [wallet] });
  if (balance === 0n) return [];
  const supply = await client.readContract({ ...read, functionName: 'totalSupply' });
  const held: NftHolding[] = [];
  for (let first = 1n; first <= supply && BigInt(held.length) < balance; first += BigInt(scanChunk)) {
    const ids: bigint[] = [];
    for (let id = first; id < first + BigInt(scanChunk) && id <= supply; id++) ids.push(id);
    const owners = await Promise.all(ids.map((id) => client.readContract({ ...read, functionName: 'ownerOf', args: [id] })));
    ids.forEach((tokenId, index) => {
      if (isAddressEqual(owners[index]!, wallet)) held.push({ contract: collection.address, standard: 'erc721', tokenId, amount: 1n });
    });
  }
  if (BigInt(held.length) !== balance) {
    throw new Error(`${collection.name}: balanceOf(${wallet}) is ${balance} but ${held.length} of ids 1..${supply} are owned at block ${blockNumber}`);
  }
  return held;
}

async function erc1155Holdings(client: TruthClient, collection: NftCollection, wallet: Address, blockNumber: bigint): Promise<NftHolding[]> {
  const read = { address: collection.address, abi: erc1155Abi, blockNumber } as const;
  const count = await client.readContract({ ...read, functionName: 'editionCount' });
  const ids = Array.from({ length: Number(count) }, (_, index) => BigInt(index + 1));
  const balances = await Promise.all(ids.map((id) => client.readContract({ ...read, functionName: 'balanceOf', args: [wallet, id] })));
  return ids
    .map((tokenId, index) => ({ contract: collection.address, standard: 'erc1155' as const, tokenId, amount: balances[index]! }))
    .filter((holding) => holding.amount > 0n);
}

/**
 * Every NFT `wallet` holds in the manifest's collections (spam included) at the end of block
 * `blockNumber`, by collection in manifest order, then by token id.
 */
export async function nftHoldings(client: TruthClient, manifest: NftsManifest, wallet: Address, blockNumber: bigint): Promise<NftHolding[]> {
  const perCollection = await Promise.all(
    manifest.collections.map((collection) =>
      collection.standard === 'erc721' ? erc721Holdings(client, collection, wallet, blockNumber) : erc1155Holdings(client, collection, wallet, blockNumber),
    ),
  );
  return perCollection.flat();
}
