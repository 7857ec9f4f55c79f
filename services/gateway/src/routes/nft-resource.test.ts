import { NftCollection, NftPosition, NftToken, WalletNftCollection } from '@wallet-api/core/proto/nft';
import {
  nftCollectionResourceSchema,
  nftPositionResourceSchema,
  nftResourceSchema,
  walletNftCollectionResourceSchema,
  walletNftPortfolioResourceSchema,
} from '../schemas/nft.js';
import {
  collectionInfo,
  collectionsById,
  nextPageLink,
  nftInterface,
  nftPositionsIncluded,
  toNftCollectionResource,
  toNftPositionResource,
  toNftResource,
  toWalletNftCollectionResource,
  toWalletNftPortfolioResource,
} from './nft-resource.js';

const baseUrl = 'https://api.wallet.test';
const wallet = '0x00000000000000000000000000000000000000a1';
const apes = '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d';
const items = '0x00000000000000000000000000000000000000e1';

const ape = NftToken.fromPartial({
  id: `ethereum:${apes}:42`,
  ref: { chainId: 'ethereum', contractAddress: apes, tokenId: '42' },
  interface: 'erc721',
  metadata: {
    name: 'Ape #42',
    description: 'An ape',
    tags: ['ape', 'pfp'],
    content: {
      preview: { url: 'https://media.test/42-small.png', contentType: 'image/png' },
      detail: { url: 'https://media.test/42.png', contentType: 'image/png' },
    },
    attributes: [{ key: 'Fur', value: 'Golden' }],
  },
  floorPrice: 25_000,
  lastSale: { price: 30_000, quantity: '1', soldAt: '1700000000' },
  externalLinks: [{ url: 'https://apes.test', type: 'website', name: 'Website' }],
  isSpam: false,
  collectionId: '7',
});
/** A token whose metadata is not read yet, without market data: every optional absent. */
const bare = NftToken.fromPartial({
  id: `base:${items}:5`,
  ref: { chainId: 'base', contractAddress: items, tokenId: '5' },
  interface: 'erc1155',
  isSpam: true,
  collectionId: '9',
});
const apeCollection = NftCollection.fromPartial({
  id: '7',
  name: 'Apes',
  description: 'Apes club',
  icon: { url: 'https://media.test/apes.png', contentType: 'image/png' },
  banner: { url: 'https://media.test/apes-banner.jpg', contentType: 'image/jpeg' },
  paymentTokenSymbol: 'ETH',
  implementations: [{ chainId: 'ethereum', address: apes }],
  floorPrice: 25_000,
});
const apePosition = NftPosition.fromPartial({ id: `ethereum:${apes}:42`, nft: ape, amount: '1', changedAt: '1700000000', price: 25_000, value: 25_000 });
const itemsPosition = NftPosition.fromPartial({ id: `base:${items}:5`, nft: bare, amount: '3', changedAt: '1700003600' });
const apeHolding = WalletNftCollection.fromPartial({
  collectionId: '7',
  chainIds: ['ethereum'],
  minChangedAt: '1690000000',
  maxChangedAt: '1700000000',
  nftsCount: '2',
  totalFloorPrice: 50_000,
});

const noContent = { preview: null, detail: null, audio: null, video: null };

describe('toNftPositionResource', () => {
  test('spec 2.6: a priced ERC-721 with its media and collection', () => {
    const resource = toNftPositionResource(apePosition, collectionsById([apeCollection]), baseUrl);
    expect(resource).toEqual({
      type: 'nft_positions',
      id: `ethereum:${apes}:42`,
      attributes: {
        changed_at: '2023-11-14T22:13:20.000Z',
        amount: '1',
        price: 25_000,
        value: 25_000,
        nft_info: {
          contract_address: apes,
          token_id: '42',
          name: 'Ape #42',
          interface: 'erc721',
          flags: { is_spam: false },
          content: {
            ...noContent,
            preview: { url: 'https://media.test/42-small.png', content_type: 'image/png' },
            detail: { url: 'https://media.test/42.png', content_type: 'image/png' },
          },
        },
        collection_info: {
          name: 'Apes',
          description: 'Apes club',
          content: { icon: { url: 'https://media.test/apes.png' }, banner: { url: 'https://media.test/apes-banner.jpg', content_type: 'image/jpeg' } },
        },
      },
      relationships: {
        chain: { links: { related: `${baseUrl}/v1/chains/ethereum` }, data: { type: 'chains', id: 'ethereum' } },
        nft_collection: { data: { type: 'nft_collections', id: 7 } },
        nft: { data: { type: 'nfts', id: `ethereum:${apes}:42` } },
      },
    });
    expect(nftPositionResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('absent optionals are null: no price, no value, no media; a collection missing from the response shows empty', () => {
    const resource = toNftPositionResource(itemsPosition, collectionsById([apeCollection]), baseUrl);
    expect(resource.attributes).toEqual({
      changed_at: '2023-11-14T23:13:20.000Z',
      amount: '3',
      price: null,
      value: null,
      nft_info: { contract_address: items, token_id: '5', name: '', interface: 'erc1155', flags: { is_spam: true }, content: noContent },
      collection_info: { name: '', description: '', content: { icon: null, banner: null } },
    });
    expect(resource.relationships.nft_collection).toEqual({ data: { type: 'nft_collections', id: 9 } });
    expect(nftPositionResourceSchema.safeParse(resource).success).toBe(true);
  });
});

describe('toNftResource', () => {
  test('spec 2.7: metadata, floor, last sale with an integer quantity, links, spam flag', () => {
    const resource = toNftResource(ape, baseUrl);
    expect(resource).toEqual({
      type: 'nfts',
      id: `ethereum:${apes}:42`,
      attributes: {
        contract_address: apes,
        token_id: '42',
        interface: 'erc721',
        metadata: {
          name: 'Ape #42',
          description: 'An ape',
          tags: ['ape', 'pfp'],
          content: {
            ...noContent,
            preview: { url: 'https://media.test/42-small.png', content_type: 'image/png' },
            detail: { url: 'https://media.test/42.png', content_type: 'image/png' },
          },
          attributes: [{ key: 'Fur', value: 'Golden' }],
        },
        market_data: { prices: { floor: 25_000 }, last_sale: { price: 30_000, quantity: { int: '1', decimals: 0, float: 1, numeric: '1' } } },
        external_links: [{ url: 'https://apes.test', type: 'website', name: 'Website' }],
        flags: { is_spam: false },
      },
      relationships: {
        chain: { links: { related: `${baseUrl}/v1/chains/ethereum` }, data: { type: 'chains', id: 'ethereum' } },
        nft_collection: { data: { type: 'nft_collections', id: 7 } },
      },
    });
    expect(nftResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('a token without metadata or market data: empty metadata, null floor and last sale', () => {
    const resource = toNftResource(bare, baseUrl);
    expect(resource.attributes).toEqual({
      contract_address: items,
      token_id: '5',
      interface: 'erc1155',
      metadata: { name: '', description: '', tags: [], content: noContent, attributes: [] },
      market_data: { prices: { floor: null }, last_sale: null },
      external_links: [],
      flags: { is_spam: true },
    });
    expect(nftResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('a sale paid in an unpriced asset keeps its quantity with a null price; an empty content url is no item', () => {
    const token = {
      ...ape,
      lastSale: { quantity: '12', soldAt: '1' },
      metadata: { ...ape.metadata!, content: { audio: { url: '', contentType: 'audio/mpeg' } } },
    };
    const resource = toNftResource(token, baseUrl);
    expect(resource.attributes.market_data.last_sale).toEqual({ price: null, quantity: { int: '12', decimals: 0, float: 12, numeric: '12' } });
    expect(resource.attributes.metadata.content).toEqual(noContent);
  });
});

describe('nftInterface', () => {
  test.each([
    ['erc721', 'erc721'],
    ['erc1155', 'erc1155'],
    ['ERC-1155', 'erc1155'],
    ['ERC721', 'erc721'],
    ['', 'erc721'],
  ])('%j -> %s', (given, expected) => {
    expect(nftInterface(given)).toBe(expected);
  });
});

describe('collections', () => {
  test('spec 2.8 nft_collections: integer id, metadata, implementations', () => {
    const resource = toNftCollectionResource(apeCollection);
    expect(resource).toEqual({
      type: 'nft_collections',
      id: 7,
      attributes: {
        metadata: {
          name: 'Apes',
          description: 'Apes club',
          content: { icon: { url: 'https://media.test/apes.png' }, banner: { url: 'https://media.test/apes-banner.jpg', content_type: 'image/jpeg' } },
          payment_token_symbol: 'ETH',
        },
        implementations: [{ chain_id: 'ethereum', address: apes }],
      },
    });
    expect(nftCollectionResourceSchema.safeParse(resource).success).toBe(true);
    expect(collectionInfo(NftCollection.fromPartial({ id: '3', name: 'No art' }))).toEqual({
      name: 'No art',
      description: '',
      content: { icon: null, banner: null },
    });
  });

  test('wallet_nft_collections: id of wallet and collection, ISO times, the count as text, chains as a to-many relationship', () => {
    const resource = toWalletNftCollectionResource(wallet, { ...apeHolding, chainIds: ['ethereum', 'base'] }, collectionsById([apeCollection]));
    expect(resource).toEqual({
      type: 'wallet_nft_collections',
      id: `${wallet}-7`,
      attributes: {
        min_changed_at: '2023-07-22T04:26:40.000Z',
        max_changed_at: '2023-11-14T22:13:20.000Z',
        nfts_count: '2',
        total_floor_price: 50_000,
        collection_info: collectionInfo(apeCollection),
      },
      relationships: {
        chains: {
          data: [
            { type: 'chains', id: 'ethereum' },
            { type: 'chains', id: 'base' },
          ],
        },
        nft_collection: { data: { type: 'nft_collections', id: 7 } },
      },
    });
    expect(walletNftCollectionResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('wallet_nft_portfolio: the address as id, value per chain', () => {
    const resource = toWalletNftPortfolioResource(wallet, { ethereum: 50_000, base: 0 });
    expect(resource).toEqual({ type: 'wallet_nft_portfolio', id: wallet, attributes: { positions_distribution_by_chain: { ethereum: 50_000, base: 0 } } });
    expect(walletNftPortfolioResourceSchema.safeParse(resource).success).toBe(true);
  });
});

describe('nftPositionsIncluded', () => {
  const response = { positions: [apePosition, { ...apePosition, id: 'again' }, itemsPosition], collections: [apeCollection], walletCollections: [apeHolding] };

  test('each kind asked for, NFTs once each, in a fixed order whatever the order asked', () => {
    const included = nftPositionsIncluded(response, ['wallet_nft_collections', 'nfts', 'nft_collections'], wallet, baseUrl);
    expect(included.map((resource) => [resource.type, resource.id])).toEqual([
      ['nfts', `ethereum:${apes}:42`],
      ['nfts', `base:${items}:5`],
      ['nft_collections', 7],
      ['wallet_nft_collections', `${wallet}-7`],
    ]);
  });

  test('only what is asked for', () => {
    expect(nftPositionsIncluded(response, ['nft_collections'], wallet, baseUrl)).toEqual([toNftCollectionResource(apeCollection)]);
    expect(nftPositionsIncluded(response, [], wallet, baseUrl)).toEqual([]);
  });
});

describe('nextPageLink', () => {
  test('the same query with page[after] set (replaced when following a link); none on the last page', () => {
    expect(nextPageLink(`${baseUrl}/v1/wallets/${wallet}/nft-positions/?page[size]=2`, 'abc=')).toBe(
      `${baseUrl}/v1/wallets/${wallet}/nft-positions/?page%5Bsize%5D=2&page%5Bafter%5D=abc%3D`,
    );
    expect(nextPageLink(`${baseUrl}/v1/x/?page[after]=one&sort=floor_price`, 'two')).toBe(`${baseUrl}/v1/x/?page%5Bafter%5D=two&sort=floor_price`);
    expect(nextPageLink(`${baseUrl}/v1/x/`, '')).toBeUndefined();
  });
});
