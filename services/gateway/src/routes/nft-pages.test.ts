import {
  GetWalletNftPortfolioResponse,
  ListWalletNftCollectionsResponse,
  ListWalletNftPositionsResponse,
  NftCollection,
  NftPosition,
  WalletNftCollection,
} from '@wallet-api/core/proto/nft';
import { nftPositionListResponseSchema, walletNftCollectionListResponseSchema, walletNftPortfolioResponseSchema } from '../schemas/nft.js';
import { StatusAnswer } from './define-route.js';
import { nftPositionsPage, noNftPositions, noWalletNftCollections, walletNftCollectionsPage, walletNftPortfolioAnswer } from './nft-pages.js';

const baseUrl = 'https://api.wallet.test';
const address = '0x00000000000000000000000000000000000000a1';
const contract = '0x00000000000000000000000000000000000000c1';
const selfUrl = `${baseUrl}/v1/wallets/${address}/nft-positions/?page[size]=1`;
const collection = NftCollection.fromPartial({ id: '3', name: 'Things', implementations: [{ chainId: 'base', address: contract }] });
const position = NftPosition.fromPartial({
  id: `base:${contract}:1`,
  nft: { id: `base:${contract}:1`, ref: { chainId: 'base', contractAddress: contract, tokenId: '1' }, interface: 'erc721', collectionId: '3' },
  amount: '1',
  changedAt: '1700000000',
});
const holding = WalletNftCollection.fromPartial({
  collectionId: '3',
  chainIds: ['base'],
  minChangedAt: '1700000000',
  maxChangedAt: '1700000000',
  nftsCount: '1',
});
const page = ListWalletNftPositionsResponse.fromPartial({ positions: [position], nextCursor: 'c2', collections: [collection], walletCollections: [holding] });

describe('nftPositionsPage', () => {
  test('a page: links.next with page[after], no included unless asked', () => {
    const body = nftPositionsPage(page, { address, selfUrl, baseUrl, include: undefined });
    expect(body).not.toBeInstanceOf(StatusAnswer);
    expect(body).toEqual({
      links: { self: selfUrl, next: `${baseUrl}/v1/wallets/${address}/nft-positions/?page%5Bsize%5D=1&page%5Bafter%5D=c2` },
      data: [expect.objectContaining({ type: 'nft_positions', id: `base:${contract}:1` })],
    });
    expect(nftPositionListResponseSchema.safeParse(body).success).toBe(true);
  });

  test('the last page has no links.next; included holds what was asked, empty when nothing is held', () => {
    const body = nftPositionsPage({ ...page, nextCursor: '' }, { address, selfUrl, baseUrl, include: ['nft_collections', 'wallet_nft_collections'] });
    expect(body).toEqual({
      links: { self: selfUrl },
      data: [expect.objectContaining({ type: 'nft_positions' })],
      included: [expect.objectContaining({ type: 'nft_collections', id: 3 }), expect.objectContaining({ type: 'wallet_nft_collections', id: `${address}-3` })],
    });
    expect(nftPositionListResponseSchema.safeParse(body).success).toBe(true);
    expect(nftPositionsPage(noNftPositions, { address, selfUrl, baseUrl, include: ['nfts'] })).toEqual({ links: { self: selfUrl }, data: [], included: [] });
  });

  test('202 while indexing: the same shape with empty data, no links.next, an empty included only when asked', () => {
    const indexing = ListWalletNftPositionsResponse.fromPartial({ indexing: true, nextCursor: 'ignored' });
    const answer = nftPositionsPage(indexing, { address, selfUrl, baseUrl, include: ['nfts'] });
    expect(answer).toEqual(new StatusAnswer(202, { links: { self: selfUrl }, data: [], included: [] }));
    expect(nftPositionListResponseSchema.safeParse((answer as StatusAnswer<unknown>).body).success).toBe(true);
    expect(nftPositionsPage(indexing, { address, selfUrl, baseUrl, include: undefined })).toEqual(
      new StatusAnswer(202, { links: { self: selfUrl }, data: [] }),
    );
  });
});

describe('walletNftCollectionsPage', () => {
  const collectionsPage = ListWalletNftCollectionsResponse.fromPartial({ walletCollections: [holding], nextCursor: 'n', collections: [collection] });

  test('holdings with their collection info; included collections when asked', () => {
    const body = walletNftCollectionsPage(collectionsPage, { address, selfUrl, baseUrl, include: ['nft_collections'] });
    expect(body).toEqual({
      links: { self: selfUrl, next: expect.stringContaining('page%5Bafter%5D=n') },
      data: [
        expect.objectContaining({
          type: 'wallet_nft_collections',
          id: `${address}-3`,
          attributes: expect.objectContaining({ collection_info: expect.objectContaining({ name: 'Things' }) }),
        }),
      ],
      included: [expect.objectContaining({ type: 'nft_collections', id: 3 })],
    });
    expect(walletNftCollectionListResponseSchema.safeParse(body).success).toBe(true);
    expect(walletNftCollectionsPage(noWalletNftCollections, { address, selfUrl, baseUrl, include: undefined })).toEqual({ links: { self: selfUrl }, data: [] });
  });

  test('202 while indexing', () => {
    const answer = walletNftCollectionsPage({ ...collectionsPage, indexing: true }, { address, selfUrl, baseUrl, include: undefined });
    expect(answer).toEqual(new StatusAnswer(202, { links: { self: selfUrl }, data: [] }));
  });
});

describe('walletNftPortfolioAnswer', () => {
  test('the value per chain; while indexing a 202 with the resource and an empty distribution', () => {
    const ready = walletNftPortfolioAnswer(GetWalletNftPortfolioResponse.fromPartial({ byChain: { ethereum: 12.5, base: 0 } }), { address, selfUrl });
    expect(ready).toEqual({
      links: { self: selfUrl },
      data: { type: 'wallet_nft_portfolio', id: address, attributes: { positions_distribution_by_chain: { ethereum: 12.5, base: 0 } } },
    });
    expect(walletNftPortfolioResponseSchema.safeParse(ready).success).toBe(true);
    const indexing = walletNftPortfolioAnswer({ indexing: true, byChain: { ethereum: 0 } }, { address, selfUrl });
    expect(indexing).toEqual(
      new StatusAnswer(202, {
        links: { self: selfUrl },
        data: { type: 'wallet_nft_portfolio', id: address, attributes: { positions_distribution_by_chain: {} } },
      }),
    );
  });
});
