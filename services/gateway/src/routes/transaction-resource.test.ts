import { AssetKind } from '@wallet-api/core/proto/events';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { TokenInfo } from '@wallet-api/core/proto/reference_data';
import { responseFungibles } from '@wallet-api/core/resources';
import { cursorFromPage, noPrices, pagePrices, priceQueries, toTransactionResource, transactionId, transactionTokens } from '@wallet-api/core/resources';
import { transactionsQuery } from '../schemas/transaction.js';

describe('cursor', () => {
  test('the id and mined time of the last item read back as its cursor', () => {
    const cursor = { chainId: 'base-sepolia.x', blockNumber: '18446744073709551615', transactionIndex: 4, minedAtMs: '1700000000000' };
    const id = transactionId(cursor);
    expect(id).toBe('base-sepolia.x:18446744073709551615:4');
    const query = transactionsQuery.parse({ 'page[lastId]': id, 'page[lastTimestamp]': cursor.minedAtMs });
    expect(cursorFromPage(query['page[lastId]']!, query['page[lastTimestamp]']!)).toEqual(cursor);
  });

  test('the query defaults to usd, only_non_trash and 100 per page', () => {
    expect(transactionsQuery.parse({})).toEqual({ currency: 'usd', 'filter[trash]': 'only_non_trash', 'filter[include_pending]': 'false', 'page[size]': 100 });
  });
});

describe('prices of a page', () => {
  const usdc = '0x00000000000000000000000000000000000000c1';
  const collection = '0x00000000000000000000000000000000000000c2';
  const native = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };
  const erc20 = { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' };
  const nft = { kind: AssetKind.ASSET_KIND_ERC721, address: collection, tokenId: '7' };
  const ether = { asset: native, info: TokenInfo.fromPartial({ decimals: 18, symbol: 'ETH' }) };
  const dollar = { asset: erc20, info: TokenInfo.fromPartial({ decimals: 6, symbol: 'USDC' }) };
  const punk = { asset: nft, info: TokenInfo.fromPartial({ name: 'Punks' }) };

  const record = (chainId: string, minedAt: string, fee: string, transfers: { token: typeof ether | typeof dollar | typeof punk; amount: string }[]) =>
    TransactionRecord.fromPartial({
      cursor: { chainId, blockNumber: '1', transactionIndex: 0, minedAtMs: `${minedAt}000` },
      chainId,
      minedAt,
      fee,
      feeToken: ether,
      transfers: transfers.map(({ token, amount }, index) => ({ actId: index, direction: 'in', token, amount, sender: '0x01', recipient: '0x02' })),
    });

  const swap = record('ethereum', '1700000000', '21000000000000', [
    { token: ether, amount: '1500000000000000000' },
    { token: dollar, amount: '2500000' },
    { token: punk, amount: '1' },
  ]);
  const later = record('ethereum', '1700000600', '0', [{ token: dollar, amount: '1' }]);
  const sameTime = record('ethereum', '1700000000', '5', [{ token: dollar, amount: '7' }]);
  const onBase = record('base', '1700000000', '5', []);

  test('asks once for each fungible and chain at each transaction time, never for an NFT', () => {
    expect(priceQueries([swap, later, sameTime, onBase])).toEqual([
      { token: { chainId: 'ethereum', address: '' }, timestamp: '1700000000' },
      { token: { chainId: 'ethereum', address: usdc }, timestamp: '1700000000' },
      { token: { chainId: 'ethereum', address: '' }, timestamp: '1700000600' },
      { token: { chainId: 'ethereum', address: usdc }, timestamp: '1700000600' },
      { token: { chainId: 'base', address: '' }, timestamp: '1700000000' },
    ]);
  });

  test('GetFungibles is asked for the fee, transfer and approval fungibles of every transaction, never for an NFT', () => {
    const approving = TransactionRecord.fromPartial({
      ...onBase,
      approvals: [
        { actId: 1, token: dollar, amount: '5' },
        { actId: 2, token: punk, amount: '' },
      ],
    });
    expect(transactionTokens([swap, approving])).toEqual([
      { chainId: 'ethereum', address: '' },
      { chainId: 'ethereum', address: '' },
      { chainId: 'ethereum', address: usdc },
      { chainId: 'base', address: '' },
      { chainId: 'base', address: usdc },
    ]);
  });

  test('a GetPrices answer of another length is refused rather than misread', () => {
    expect(() => pagePrices(priceQueries([swap]), [{ price: 1 }])).toThrow('GetPrices answered 1 prices for 2 queries');
  });

  test('value is the quantity times the price at the transaction time; NFTs and unpriced tokens stay null', () => {
    const queries = priceQueries([swap, later]);
    const prices = pagePrices(queries, [{ price: 3000 }, { price: 0.999 }, { price: 3100 }, {}]);
    const [swapResource, laterResource] = [swap, later].map((item) => toTransactionResource(item, 'https://api.test', prices, responseFungibles([])));
    expect(swapResource!.attributes.fee).toMatchObject({ price: 3000, value: 0.000021 * 3000 });
    expect(swapResource!.attributes.transfers.map(({ price, value }) => ({ price, value }))).toEqual([
      { price: 3000, value: 1.5 * 3000 },
      { price: 0.999, value: 2.5 * 0.999 },
      { price: null, value: null },
    ]);
    expect(laterResource!.attributes.fee).toMatchObject({ price: 3100, value: 0 });
    expect(laterResource!.attributes.transfers.map(({ price, value }) => ({ price, value }))).toEqual([{ price: null, value: null }]);
  });

  test('without prices every price and value is null', () => {
    const resource = toTransactionResource(swap, 'https://api.test', noPrices, responseFungibles([]));
    expect([resource.attributes.fee, ...resource.attributes.transfers].map(({ price, value }) => ({ price, value }))).toEqual(
      Array.from({ length: 4 }, () => ({ price: null, value: null })),
    );
  });
});
