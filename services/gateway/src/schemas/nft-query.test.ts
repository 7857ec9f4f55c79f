import type { z } from 'zod';
import {
  evmWalletAddressParam,
  nftIdParam,
  nftPositionsQuery,
  nftQuery,
  nftsQuery,
  parseNftReference,
  walletNftCollectionsQuery,
  walletNftPortfolioQuery,
} from './nft-query.js';

/** The first problem as define-route words it after `parameter `: the parameter's name and the rule. */
const detail = (schema: z.ZodType, input: Record<string, string>) => {
  const result = schema.safeParse(input);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
};
/** Cases titled by the detail they expect: the lists some queries carry are too long to title a test. */
const refusals = (cases: [Record<string, string>, string][]) => cases.map(([query, expected]) => [expected, query] as const);
const list = (count: number, item: (index: number) => string) => Array.from({ length: count }, (_, index) => item(index)).join(',');
const contract = '0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D';
const evm = '0x00000000000000000000000000000000000000a1';

describe('the wallet of an NFT endpoint', () => {
  test('EVM addresses pass as sent (the scope lowercases them)', () => {
    expect(evmWalletAddressParam.parse({ address: contract })).toEqual({ address: contract });
  });

  test('a Solana address is refused as such; anything else as not an EVM address', () => {
    expect(detail(evmWalletAddressParam, { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' })).toBe(
      'address: NFT endpoints accept EVM addresses only (0x and 40 hex digits), not Solana addresses',
    );
    expect(detail(evmWalletAddressParam, { address: '0x123' })).toBe(
      'address: must be an EVM address (0x and 40 hex digits); NFT endpoints accept EVM addresses only',
    );
  });
});

describe('nftPositionsQuery', () => {
  test('defaults: usd, newest change first, 50 a page, no filters, includes or cursor', () => {
    expect(nftPositionsQuery.parse({})).toEqual({ currency: 'usd', sort: '-created_at', 'page[size]': 50 });
  });

  test('every parameter read: lists split and trimmed, collection ids as decimal text, the cursor passed as is', () => {
    expect(
      nftPositionsQuery.parse({
        currency: 'eur',
        'filter[chain_ids]': 'ethereum, base',
        'filter[collections_ids]': '7,0012,9223372036854775807',
        sort: 'floor_price',
        include: 'nfts,nft_collections,wallet_nft_collections',
        'page[size]': '500',
        'page[after]': 'opaque-cursor==',
      }),
    ).toEqual({
      currency: 'eur',
      'filter[chain_ids]': ['ethereum', 'base'],
      'filter[collections_ids]': ['7', '12', '9223372036854775807'],
      sort: 'floor_price',
      include: ['nfts', 'nft_collections', 'wallet_nft_collections'],
      'page[size]': 500,
      'page[after]': 'opaque-cursor==',
    });
    for (const sort of ['created_at', '-created_at', '-floor_price']) expect(nftPositionsQuery.parse({ sort }).sort).toBe(sort);
    expect(nftPositionsQuery.parse({ 'page[size]': '1' })['page[size]']).toBe(1);
    expect(nftPositionsQuery.parse({ 'filter[chain_ids]': list(25, (index) => `chain-${index}`) })['filter[chain_ids]']).toHaveLength(25);
  });

  test.each(
    refusals([
      [{ include: 'nfts,owners' }, 'include: each value must be one of nfts, nft_collections, wallet_nft_collections (got "owners")'],
      [{ include: '' }, 'include: must not contain an empty value (a comma-separated list of non-empty values)'],
      [{ include: 'nfts,nfts,nfts,nfts' }, 'include: must name at most 3 values (got 4)'],
      [{ sort: 'value' }, 'sort: must be one of -created_at, created_at, -floor_price, floor_price'],
      [{ 'page[size]': '0' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'page[size]': '501' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'page[size]': 'ten' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'page[size]': '-1' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'page[after]': '' }, 'page[after]: must not be empty (follow links.next, which carries it)'],
      [{ 'page[after]': 'c'.repeat(1025) }, 'page[after]: is not a cursor this endpoint returned (follow links.next)'],
      [
        { 'filter[collections_ids]': '12,abc' },
        'filter[collections_ids]: each collection id must be a non-negative integer (an nft_collections id) (got "abc")',
      ],
      [{ 'filter[collections_ids]': '-3' }, 'filter[collections_ids]: each collection id must be a non-negative integer (an nft_collections id) (got "-3")'],
      [{ 'filter[collections_ids]': '1.5' }, 'filter[collections_ids]: each collection id must be a non-negative integer (an nft_collections id) (got "1.5")'],
      [
        { 'filter[collections_ids]': '9223372036854775808' },
        'filter[collections_ids]: each collection id must be a non-negative integer (an nft_collections id) (got "9223372036854775808")',
      ],
      [{ 'filter[collections_ids]': '1,,2' }, 'filter[collections_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
      [{ 'filter[collections_ids]': list(26, (index) => String(index)) }, 'filter[collections_ids]: must name at most 25 values (got 26)'],
      [{ 'filter[chain_ids]': list(26, () => 'ethereum') }, 'filter[chain_ids]: must name at most 25 values (got 26)'],
      [
        { 'filter[chain_ids]': 'ethereum,eth mainnet' },
        'filter[chain_ids]: each chain id must be 1 to 64 letters, digits, dots, dashes or underscores (got "eth mainnet")',
      ],
      [{ currency: 'USD' }, 'currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
    ]),
  )('refused: %s', (expected, query) => {
    expect(detail(nftPositionsQuery, query)).toBe(expected);
  });
});

describe('walletNftCollectionsQuery', () => {
  test('defaults: most valuable first, 50 a page', () => {
    expect(walletNftCollectionsQuery.parse({})).toEqual({ currency: 'usd', sort: '-total_floor_price', 'page[size]': 50 });
    for (const sort of ['total_floor_price', '-max_changed_at', 'max_changed_at']) expect(walletNftCollectionsQuery.parse({ sort }).sort).toBe(sort);
    expect(walletNftCollectionsQuery.parse({ include: 'nft_collections' }).include).toEqual(['nft_collections']);
  });

  test.each(
    refusals([
      [{ include: 'nfts' }, 'include: each value must be one of nft_collections (got "nfts")'],
      [{ sort: '-created_at' }, 'sort: must be one of -total_floor_price, total_floor_price, -max_changed_at, max_changed_at'],
      [{ 'page[size]': '0' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'page[size]': '501' }, 'page[size]: must be an integer from 1 to 500'],
      [{ 'filter[collections_ids]': 'x' }, 'filter[collections_ids]: each collection id must be a non-negative integer (an nft_collections id) (got "x")'],
      [{ 'filter[chain_ids]': list(26, () => 'base') }, 'filter[chain_ids]: must name at most 25 values (got 26)'],
    ]),
  )('refused: %s', (expected, query) => {
    expect(detail(walletNftCollectionsQuery, query)).toBe(expected);
  });
});

describe('walletNftPortfolioQuery', () => {
  test('currency and chains only', () => {
    expect(walletNftPortfolioQuery.parse({ 'filter[chain_ids]': 'base' })).toEqual({ currency: 'usd', 'filter[chain_ids]': ['base'] });
    expect(detail(walletNftPortfolioQuery, { 'filter[chain_ids]': list(26, () => 'base') })).toBe('filter[chain_ids]: must name at most 25 values (got 26)');
  });
});

describe('parseNftReference', () => {
  test('chain, contract lowercased, token id without leading zeros', () => {
    expect(parseNftReference(`ethereum:${contract}:0042`)).toEqual({ chainId: 'ethereum', contractAddress: contract.toLowerCase(), tokenId: '42' });
    const largest = (2n ** 256n - 1n).toString();
    expect(parseNftReference(`base:${evm}:${largest}`)).toEqual({ chainId: 'base', contractAddress: evm, tokenId: largest });
  });

  test.each([
    [`ethereum:${contract}`, 'each reference must be <chain_id>:<contract_address>:<token_id>'],
    [`ethereum:${contract}:1:2`, 'each reference must be <chain_id>:<contract_address>:<token_id>'],
    [`:${contract}:1`, 'each reference must start with a chain id (letters, digits, dots, dashes or underscores)'],
    ['ethereum:0x123:1', "each reference's contract address must be an EVM address (0x and 40 hex digits)"],
    ['ethereum:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM:1', "each reference's contract address must be an EVM address (0x and 40 hex digits)"],
    [`ethereum:${contract}:0x2a`, "each reference's token id must be a decimal integer below 2^256"],
    [`ethereum:${contract}:-1`, "each reference's token id must be a decimal integer below 2^256"],
    [`ethereum:${contract}:`, "each reference's token id must be a decimal integer below 2^256"],
    [`ethereum:${contract}:${2n ** 256n}`, "each reference's token id must be a decimal integer below 2^256"],
  ])('%s: %s', (reference, reason) => {
    expect(parseNftReference(reference)).toBe(reason);
  });
});

describe('nftsQuery', () => {
  test('references parsed in the order given; include only nft_collections', () => {
    expect(nftsQuery.parse({ 'filter[references]': `ethereum:${contract}:1, base:${evm}:2`, include: 'nft_collections' })).toEqual({
      'filter[references]': [
        { chainId: 'ethereum', contractAddress: contract.toLowerCase(), tokenId: '1' },
        { chainId: 'base', contractAddress: evm, tokenId: '2' },
      ],
      currency: 'usd',
      include: ['nft_collections'],
    });
    expect(nftsQuery.parse({ 'filter[references]': list(100, (index) => `ethereum:${evm}:${index}`) })['filter[references]']).toHaveLength(100);
  });

  test.each(
    refusals([
      [{}, 'filter[references]: is required'],
      [{ 'filter[references]': '' }, 'filter[references]: must not contain an empty value (a comma-separated list of non-empty values)'],
      [{ 'filter[references]': list(101, (index) => `ethereum:${evm}:${index}`) }, 'filter[references]: must name at most 100 values (got 101)'],
      [
        { 'filter[references]': `ethereum:${evm}:1,ethereum:${evm}` },
        `filter[references]: each reference must be <chain_id>:<contract_address>:<token_id> (got "ethereum:${evm}")`,
      ],
      [
        { 'filter[references]': 'ethereum:0xabc:1' },
        'filter[references]: each reference\'s contract address must be an EVM address (0x and 40 hex digits) (got "ethereum:0xabc:1")',
      ],
      [
        { 'filter[references]': `ethereum:${evm}:one` },
        `filter[references]: each reference's token id must be a decimal integer below 2^256 (got "ethereum:${evm}:one")`,
      ],
      [{ 'filter[references]': `ethereum:${evm}:1`, include: 'nfts' }, 'include: each value must be one of nft_collections (got "nfts")'],
      [
        { 'filter[references]': `ethereum:${evm}:1`, currency: 'doge' },
        'currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf',
      ],
    ]),
  )('refused: %s', (expected, query) => {
    expect(detail(nftsQuery, query)).toBe(expected);
  });
});

describe('one NFT', () => {
  test('any id is taken (one naming no NFT is a 404, not a 400); currency and include as for the list', () => {
    expect(nftIdParam.parse({ nft_id: 'not-an-id' })).toEqual({ nft_id: 'not-an-id' });
    expect(nftQuery.parse({})).toEqual({ currency: 'usd' });
    expect(detail(nftQuery, { include: 'wallet_nft_collections' })).toBe('include: each value must be one of nft_collections (got "wallet_nft_collections")');
  });
});
