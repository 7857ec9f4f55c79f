import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import type { NftEntry } from '../store/ownership-store.js';
import { toNftEntry } from './nft-consumers.js';

const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const contract = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const blockHash = `0x${'ab'.repeat(32)}`;

const change = (kind: AssetKind | undefined, overrides: Partial<BalanceChange> = {}): BalanceChange => ({
  chainId: 'devnet',
  wallet,
  asset:
    kind === undefined
      ? undefined
      : {
          kind,
          address: kind === AssetKind.ASSET_KIND_NATIVE ? '' : contract,
          tokenId: kind === AssetKind.ASSET_KIND_ERC721 || kind === AssetKind.ASSET_KIND_ERC1155 ? '42' : '',
        },
  blockNumber: '17',
  blockHash,
  blockTimestamp: '1700000000',
  transactionHash: `0x${'cd'.repeat(32)}`,
  transactionIndex: 3,
  amount: '1',
  ...overrides,
});

const entry = (overrides: Partial<NftEntry> = {}): NftEntry => ({
  chainId: 'devnet',
  blockHash,
  transactionIndex: 3,
  wallet: wallet.toLowerCase(),
  contract: contract.toLowerCase(),
  tokenId: '42',
  standard: 'erc721',
  blockNumber: 17n,
  blockTimestamp: 1_700_000_000n,
  amount: 1n,
  ...overrides,
});

const maxUint256 = (2n ** 256n - 1n).toString();

describe('toNftEntry', () => {
  it.each<{ name: string; change: BalanceChange; expected: NftEntry | undefined }>([
    { name: 'an ERC-721 receipt', change: change(AssetKind.ASSET_KIND_ERC721), expected: entry() },
    { name: 'an ERC-721 send (negative amount kept)', change: change(AssetKind.ASSET_KIND_ERC721, { amount: '-1' }), expected: entry({ amount: -1n }) },
    { name: 'an ERC-1155 receipt', change: change(AssetKind.ASSET_KIND_ERC1155, { amount: '25' }), expected: entry({ standard: 'erc1155', amount: 25n }) },
    {
      name: 'an ERC-1155 send (negative amount kept)',
      change: change(AssetKind.ASSET_KIND_ERC1155, { amount: '-25' }),
      expected: entry({ standard: 'erc1155', amount: -25n }),
    },
    {
      name: 'an ERC-1155 amount past 2^64',
      change: change(AssetKind.ASSET_KIND_ERC1155, { amount: `-${maxUint256}` }),
      expected: entry({ standard: 'erc1155', amount: -(2n ** 256n - 1n) }),
    },
    {
      name: 'the largest token id, kept as text',
      change: change(AssetKind.ASSET_KIND_ERC721, { asset: { kind: AssetKind.ASSET_KIND_ERC721, address: contract, tokenId: maxUint256 } }),
      expected: entry({ tokenId: maxUint256 }),
    },
    {
      name: 'already lowercase addresses',
      change: change(AssetKind.ASSET_KIND_ERC721, {
        wallet: wallet.toLowerCase(),
        asset: { kind: AssetKind.ASSET_KIND_ERC721, address: contract.toLowerCase(), tokenId: '42' },
      }),
      expected: entry(),
    },
    {
      name: 'uppercase addresses',
      change: change(AssetKind.ASSET_KIND_ERC721, {
        wallet: `0x${wallet.slice(2).toUpperCase()}`,
        asset: { kind: AssetKind.ASSET_KIND_ERC721, address: `0x${contract.slice(2).toUpperCase()}`, tokenId: '42' },
      }),
      expected: entry(),
    },
    {
      name: 'block 0 at time 0',
      change: change(AssetKind.ASSET_KIND_ERC721, { blockNumber: '0', blockTimestamp: '0', transactionIndex: 0 }),
      expected: entry({ blockNumber: 0n, blockTimestamp: 0n, transactionIndex: 0 }),
    },
    { name: 'a native change', change: change(AssetKind.ASSET_KIND_NATIVE), expected: undefined },
    { name: 'an ERC-20 change', change: change(AssetKind.ASSET_KIND_ERC20, { amount: '-1000000000000000000' }), expected: undefined },
    { name: 'an unspecified asset kind', change: change(AssetKind.ASSET_KIND_UNSPECIFIED), expected: undefined },
    { name: 'a change without an asset', change: change(undefined), expected: undefined },
  ])('$name', ({ change, expected }) => {
    expect(toNftEntry(change)).toEqual(expected);
  });
});
