import { Position } from '@wallet-api/core/proto/positions';
import { Fungible, TokenInterface, type TokenInfo } from '@wallet-api/core/proto/reference_data';
import { positionResourceSchema } from '../schemas/position.js';
import { responseFungibles } from '@wallet-api/core/resources';
import { positionTokens, toPositionResource } from './position-resource.js';

const baseUrl = 'https://api.wallet.test';
const token = (fields: Partial<TokenInfo>): TokenInfo => ({
  chainId: 'ethereum',
  address: '',
  interface: TokenInterface.TOKEN_INTERFACE_ERC20,
  name: '',
  symbol: '',
  decimals: 18,
  fungibleId: '',
  iconUrl: '',
  verified: false,
  isSpam: false,
  ...fields,
});
const ether = token({
  interface: TokenInterface.TOKEN_INTERFACE_NATIVE,
  name: 'Ether',
  symbol: 'ETH',
  fungibleId: 'eth',
  verified: true,
  iconUrl: 'https://icons.test/eth.png',
});
const usdc = token({
  address: '0x00000000000000000000000000000000000000c0',
  name: 'USD Coin',
  symbol: 'USDC',
  decimals: 6,
  fungibleId: 'usdc',
  verified: true,
});
const lpToken = token({ address: '0x00000000000000000000000000000000000000aa', name: 'Uniswap V2', symbol: 'UNI-V2', fungibleId: 'univ2-eth-usdc' });
const dex = { id: 'uniswap', name: 'Uniswap', description: '', iconUrl: 'https://icons.test/uni.png', url: 'https://uniswap.test', managePositionsUrl: '' };

const walletEther = Position.fromPartial({
  id: 'p-eth',
  chainId: 'ethereum',
  name: 'Ether',
  positionType: 'wallet',
  amount: '1500000000000000000',
  token: ether,
  price: 2000,
  value: 3000,
  changeAbsolute1d: -30,
  changePercent1d: -0.99,
  displayable: true,
  updatedAt: '1700000000',
  updatedAtBlock: '1234',
});
const lpUsdc = Position.fromPartial({
  id: 'p-lp-usdc',
  chainId: 'ethereum',
  name: 'USDC/ETH',
  positionType: 'deposit',
  amount: '2500000',
  token: usdc,
  protocol: 'Uniswap V2',
  protocolModule: 'liquidity_pool',
  poolAddress: lpToken.address,
  groupId: 'g-1',
  dapp: dex,
  fungibleReceipt: { token: lpToken, amount: '1000000000000000000' },
  displayable: true,
  updatedAt: '1700000100',
  updatedAtBlock: '1300',
});
// GetFungibles knows Ether on two chains; the LP token is unknown to it and falls back to its metadata.
const fungibles = responseFungibles([
  Fungible.fromPartial({
    id: 'eth',
    name: 'Ether',
    symbol: 'ETH',
    iconUrl: 'https://icons.test/eth.png',
    verified: true,
    implementations: [
      { chainId: 'ethereum', address: '', decimals: 18 },
      { chainId: 'base', address: '', decimals: 18 },
    ],
    marketData: { price: 2000, changes: { percent1d: -0.99 } },
  }),
]);
const unknownMarket = {
  price: null,
  total_supply: null,
  circulating_supply: null,
  fully_diluted_valuation: null,
  market_cap: null,
  changes: { percent_1d: null, percent_30d: null, percent_90d: null, percent_365d: null },
  trading_volumes: { volume_1d: null },
};
const walletLp = Position.fromPartial({
  id: 'p-lp-wallet',
  chainId: 'ethereum',
  name: 'Uniswap V2',
  positionType: 'wallet',
  amount: '1000000000000000000',
  token: lpToken,
  updatedAt: '1700000000',
});

describe('toPositionResource', () => {
  test('a plain native balance: exact quantity, the fungible on every chain with null addresses, no dapp fields, spec 2.3 layout', () => {
    const resource = toPositionResource(walletEther, baseUrl, fungibles);
    expect(resource).toEqual({
      type: 'positions',
      id: 'p-eth',
      attributes: {
        name: 'Ether',
        quantity: { int: '1500000000000000000', decimals: 18, float: 1.5, numeric: '1.5' },
        parent: null,
        protocol: null,
        protocol_module: null,
        pool_address: null,
        group_id: null,
        position_type: 'wallet',
        value: 3000,
        price: 2000,
        changes: { absolute_1d: -30, percent_1d: -0.99 },
        fungible_info: {
          name: 'Ether',
          symbol: 'ETH',
          icon: { url: 'https://icons.test/eth.png' },
          flags: { verified: true },
          implementations: [
            { chain_id: 'ethereum', decimals: 18, address: null },
            { chain_id: 'base', decimals: 18, address: null },
          ],
          id: 'eth',
          description: '',
          market_data: { ...unknownMarket, price: 2000, changes: { ...unknownMarket.changes, percent_1d: -0.99 } },
        },
        flags: { displayable: true, is_trash: false },
        updated_at: '2023-11-14T22:13:20.000Z',
        updated_at_block: 1234,
      },
      relationships: {
        chain: { links: { related: `${baseUrl}/v1/chains/ethereum` }, data: { type: 'chains', id: 'ethereum' } },
        fungible: { links: { related: `${baseUrl}/v1/fungibles/eth` }, data: { type: 'fungibles', id: 'eth' } },
      },
    });
    expect(positionResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('a liquidity position: protocol fields, application_metadata, fungible receipt with its quantity, dapp relationship', () => {
    const resource = toPositionResource(lpUsdc, baseUrl, fungibles);
    expect(resource.attributes).toEqual(
      expect.objectContaining({
        quantity: { int: '2500000', decimals: 6, float: 2.5, numeric: '2.5' },
        protocol: 'Uniswap V2',
        protocol_module: 'liquidity_pool',
        pool_address: lpToken.address,
        group_id: 'g-1',
        position_type: 'deposit',
        value: null,
        price: null,
        changes: null,
        application_metadata: { name: 'Uniswap', icon: { url: 'https://icons.test/uni.png' }, url: 'https://uniswap.test' },
        receipt: {
          fungible_info: {
            name: 'Uniswap V2',
            symbol: 'UNI-V2',
            icon: null,
            flags: { verified: false },
            implementations: [{ chain_id: 'ethereum', decimals: 18, address: lpToken.address }],
            id: 'univ2-eth-usdc',
            description: '',
            market_data: unknownMarket,
          },
          quantity: { int: '1000000000000000000', decimals: 18, float: 1, numeric: '1' },
        },
      }),
    );
    expect(resource.relationships.dapp).toEqual({ data: { type: 'dapps', id: 'uniswap' } });
    expect(positionResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('receipt quantity omitted when unknown or zero; NFT receipts carry chain, contract, token id and the erc721 interface', () => {
    for (const amount of ['', '0']) {
      const resource = toPositionResource({ ...lpUsdc, fungibleReceipt: { token: lpToken, amount } }, baseUrl, fungibles);
      expect(resource.attributes.receipt).toEqual({ fungible_info: expect.objectContaining({ id: 'univ2-eth-usdc' }) });
    }
    const v3 = toPositionResource(
      {
        ...lpUsdc,
        fungibleReceipt: undefined,
        nftReceipt: { chainId: 'ethereum', contractAddress: '0xc36442b4a4522e871399cd717abdd847ab11fe88', tokenId: '77' },
      },
      baseUrl,
      fungibles,
    );
    expect(v3.attributes.receipt).toEqual({
      nft_info: { chain_id: 'ethereum', contract_address: '0xc36442b4a4522e871399cd717abdd847ab11fe88', token_id: '77', interface: 'erc721' },
    });
    expect(positionResourceSchema.safeParse(v3).success).toBe(true);
  });

  test('a one-sided change keeps the other null; an asset without a fungible id has no fungible relationship', () => {
    const resource = toPositionResource({ ...walletLp, token: { ...lpToken, fungibleId: '' }, changePercent1d: 2 }, baseUrl, fungibles);
    expect(resource.attributes.changes).toEqual({ absolute_1d: null, percent_1d: 2 });
    expect(resource.relationships.fungible).toBeUndefined();
    expect(resource.attributes.application_metadata).toBeUndefined();
    expect(resource.attributes.receipt).toBeUndefined();
  });

  test('GetFungibles is asked for every position token and every fungible receipt', () => {
    const v3 = {
      ...lpUsdc,
      fungibleReceipt: undefined,
      nftReceipt: { chainId: 'base', contractAddress: '0xc36442b4a4522e871399cd717abdd847ab11fe88', tokenId: '77' },
    };
    expect(positionTokens([walletEther, lpUsdc, { ...v3, chainId: 'base' }])).toEqual([
      { chainId: 'ethereum', address: '' },
      { chainId: 'ethereum', address: usdc.address },
      { chainId: 'ethereum', address: lpToken.address },
      { chainId: 'base', address: usdc.address },
    ]);
  });

  test('quantities of tokens with few or many decimals stay exact in numeric', () => {
    const wbtc = token({ address: '0x00000000000000000000000000000000000000b7', decimals: 8 });
    expect(toPositionResource({ ...walletEther, token: wbtc, amount: '123456789' }, baseUrl, fungibles).attributes.quantity).toEqual({
      int: '123456789',
      decimals: 8,
      float: 1.23456789,
      numeric: '1.23456789',
    });
    expect(toPositionResource({ ...walletEther, amount: '123456789012345678901234567890' }, baseUrl, fungibles).attributes.quantity).toEqual({
      int: '123456789012345678901234567890',
      decimals: 18,
      float: Number('123456789012.34567890123456789'),
      numeric: '123456789012.34567890123456789',
    });
  });
});
