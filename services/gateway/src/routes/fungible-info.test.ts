import { AssetKind } from '@wallet-api/core/proto/events';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { Position } from '@wallet-api/core/proto/positions';
import { Fungible, TokenInfo, TokenInterface } from '@wallet-api/core/proto/reference_data';
import { fungibleInfoSchema } from '@wallet-api/core/resources';
import { responseFungibles, toFungibleInfo, tokenFungibleInfo } from '@wallet-api/core/resources';
import { toPositionResource } from './position-resource.js';
import { noPrices, toTransactionResource } from '@wallet-api/core/resources';

const usdcAddress = '0x00000000000000000000000000000000000000c0';
const usdcOnBase = '0x00000000000000000000000000000000000000c1';
const usdc = Fungible.fromPartial({
  id: 'usdc',
  name: 'USD Coin',
  symbol: 'USDC',
  iconUrl: 'https://icons.test/usdc.png',
  verified: true,
  implementations: [
    { chainId: 'ethereum', address: usdcAddress, decimals: 6 },
    { chainId: 'base', address: usdcOnBase, decimals: 6 },
  ],
  marketData: {
    price: 0.999,
    totalSupply: 2_000_000,
    circulatingSupply: 1_500_000,
    fullyDilutedValuation: 1_998_000,
    marketCap: 1_498_500,
    changes: { percent1d: 0.1, percent30d: -0.2, percent90d: 0, percent365d: 1.5 },
    volume1d: 12_345.5,
  },
  assetClass: 'stablecoin',
  description: 'A dollar stablecoin.',
});
const nullMarket = {
  price: null,
  total_supply: null,
  circulating_supply: null,
  fully_diluted_valuation: null,
  market_cap: null,
  changes: { percent_1d: null, percent_30d: null, percent_90d: null, percent_365d: null },
  trading_volumes: { volume_1d: null },
};

describe('toFungibleInfo', () => {
  test('every spec 2.2 field from GetFungibles: implementations on each chain, market data, asset class', () => {
    const info = toFungibleInfo(usdc);
    expect(info).toEqual({
      name: 'USD Coin',
      symbol: 'USDC',
      icon: { url: 'https://icons.test/usdc.png' },
      flags: { verified: true },
      implementations: [
        { chain_id: 'ethereum', decimals: 6, address: usdcAddress },
        { chain_id: 'base', decimals: 6, address: usdcOnBase },
      ],
      id: 'usdc',
      asset_class: 'stablecoin',
      description: 'A dollar stablecoin.',
      market_data: {
        price: 0.999,
        total_supply: 2_000_000,
        circulating_supply: 1_500_000,
        fully_diluted_valuation: 1_998_000,
        market_cap: 1_498_500,
        changes: { percent_1d: 0.1, percent_30d: -0.2, percent_90d: 0, percent_365d: 1.5 },
        trading_volumes: { volume_1d: 12_345.5 },
      },
    });
    expect(fungibleInfoSchema.parse(info)).toEqual(info);
  });

  test.each([
    ['unclassified (or the organization lacks the add-on)', ''],
    ['a value outside the spec', 'meme'],
  ])('asset_class is left out, not null, when %s', (_, assetClass) => {
    const info = toFungibleInfo({ ...usdc, assetClass });
    expect('asset_class' in info).toBe(false);
    expect(JSON.parse(JSON.stringify(info))).not.toHaveProperty('asset_class');
  });

  test.each([
    ['no market data at all', undefined, nullMarket],
    [
      'a native asset: price and changes, no supply or volume',
      { price: 3000, changes: { percent1d: 2, percent365d: -40 } },
      {
        ...nullMarket,
        price: 3000,
        changes: { ...nullMarket.changes, percent_1d: 2, percent_365d: -40 },
      },
    ],
    [
      'an unpriced token: supply only',
      { totalSupply: 10, circulatingSupply: 10, changes: undefined, volume1d: 0 },
      {
        ...nullMarket,
        total_supply: 10,
        circulating_supply: 10,
        trading_volumes: { volume_1d: 0 },
      },
    ],
  ])('what GetFungibles does not know is null: %s', (_, marketData, expected) => {
    const info = toFungibleInfo(
      Fungible.fromPartial({ id: 'x', implementations: [{ chainId: 'ethereum', address: '', decimals: 18 }], ...(marketData ? { marketData } : {}) }),
    );
    expect(info.market_data).toEqual(expected);
    expect(info.implementations).toEqual([{ chain_id: 'ethereum', decimals: 18, address: null }]);
    expect(info.icon).toBeNull();
    expect(fungibleInfoSchema.safeParse(info).success).toBe(true);
  });
});

describe('responseFungibles', () => {
  const spam = TokenInfo.fromPartial({
    chainId: 'ethereum',
    address: '0x00000000000000000000000000000000000000dd',
    interface: TokenInterface.TOKEN_INTERFACE_UNKNOWN,
    name: 'Claim rewards',
    symbol: 'CLAIM',
    decimals: 9,
    fungibleId: 'f1d2',
    isSpam: true,
  });
  const fungibles = responseFungibles([usdc]);

  test('a fungible answers for each of its implementations, whatever the address case', () => {
    const onEthereum = fungibles.fungibleInfo('ethereum', usdcAddress, undefined);
    expect(onEthereum).toEqual(toFungibleInfo(usdc));
    expect(fungibles.fungibleInfo('base', usdcOnBase.toUpperCase().replace('0X', '0x'), undefined)).toBe(onEthereum);
  });

  test('a token GetFungibles does not know: its metadata on its one chain, no market data, no asset class', () => {
    expect(fungibles.fungibleInfo('ethereum', spam.address, spam)).toEqual({
      name: 'Claim rewards',
      symbol: 'CLAIM',
      icon: null,
      flags: { verified: false },
      implementations: [{ chain_id: 'ethereum', decimals: 9, address: spam.address }],
      id: 'f1d2',
      description: '',
      market_data: nullMarket,
    });
    // The same address on a chain the fungible does not live on is another token.
    expect(fungibles.fungibleInfo('optimism', usdcAddress, undefined)).toEqual(tokenFungibleInfo(undefined, 'optimism', usdcAddress));
    expect(fungibleInfoSchema.safeParse(tokenFungibleInfo(undefined, 'ethereum', '')).success).toBe(true);
  });

  test('positions and transactions show one token with the same fungible_info', () => {
    const info = TokenInfo.fromPartial({
      chainId: 'ethereum',
      address: usdcAddress,
      interface: TokenInterface.TOKEN_INTERFACE_ERC20,
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      fungibleId: 'usdc',
      verified: true,
    });
    const position = Position.fromPartial({ id: 'p', chainId: 'ethereum', positionType: 'wallet', amount: '1', token: info, updatedAt: '1700000000' });
    const view = { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdcAddress, tokenId: '' }, info };
    const record = TransactionRecord.fromPartial({
      cursor: { chainId: 'ethereum', blockNumber: '1', transactionIndex: 0, minedAtMs: '1700000000000' },
      chainId: 'ethereum',
      minedAt: '1700000000',
      transfers: [{ actId: 1, direction: 'in', token: view, amount: '1' }],
      approvals: [{ actId: 2, token: view, amount: '1' }],
    });
    const transaction = toTransactionResource(record, 'https://api.test', noPrices, fungibles).attributes;
    const positionInfo = toPositionResource(position, 'https://api.test', fungibles).attributes.fungible_info;
    expect(positionInfo).toEqual(toFungibleInfo(usdc));
    expect(transaction.transfers[0]!.fungible_info).toEqual(positionInfo);
    expect(transaction.approvals[0]!.fungible_info).toEqual(positionInfo);
  });
});
