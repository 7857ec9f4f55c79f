import { SwapQuote } from '@wallet-api/core/proto/swap';
import { swapQuoteResourceSchema } from '../schemas/swap.js';
import { toSwapQuoteResource } from './swap.js';

const request = { chainId: 'ethereum', inputFungibleId: 'eth', outputFungibleId: 'usdc', blockNumber: '42' };
const quote = SwapQuote.fromPartial({
  inputAmount: { amount: '1500000000000000000', decimals: 18 },
  outputAmount: { amount: '4500000000', decimals: 6 },
  outputAmountAfterFees: { amount: '4499000000', decimals: 6 },
  outputAmountMin: { amount: '4410000000', decimals: 6 },
  slippagePercent: 2,
  feeProtocolPercent: 0.3,
  gasQuantity: { amount: '1000000000000000', decimals: 18 },
  liquiditySource: { id: 'uniswap-v3', name: 'Uniswap V3', iconUrl: '' },
  route: ['0x00000000000000000000000000000000000000aa'],
  assetSpender: '',
  enoughBalance: false,
  enoughAllowance: true,
  estimatedSeconds: 15,
});

describe('toSwapQuoteResource', () => {
  test('quantities from base units; absent prices, spender and transaction are null', () => {
    const resource = toSwapQuoteResource(quote, request, 'https://api.test');
    expect(swapQuoteResourceSchema.parse(resource)).toEqual(resource);
    expect(resource.attributes.input_amount).toEqual({ int: '1500000000000000000', decimals: 18, float: 1.5, numeric: '1.5' });
    expect(resource.attributes.output_amount_min.numeric).toBe('4410');
    expect(resource.attributes).toMatchObject({
      price_impact_percent: null,
      asset_spender: null,
      transaction: null,
      fee: { protocol_percent: 0.3, gas: { value: null } },
    });
    expect(resource.attributes.liquidity_source).toEqual({ id: 'uniswap-v3', name: 'Uniswap V3', icon: null });
    expect(resource.relationships.output_chain.data).toEqual({ type: 'chains', id: 'ethereum' });
    expect(resource.relationships.output_fungible.links.related).toBe('https://api.test/v1/fungibles/usdc');
  });

  test('a quote ready to send carries its transaction and spender', () => {
    const ready = SwapQuote.fromPartial({
      ...quote,
      assetSpender: '0x00000000000000000000000000000000000000bb',
      priceImpactPercent: 0.4,
      gasValue: 3.1,
      transaction: { chainId: 'ethereum', from: '0x01', to: '0x00000000000000000000000000000000000000bb', data: '0x1234', value: '0', gas: '150000' },
    });
    const resource = toSwapQuoteResource(ready, request, 'https://api.test');
    expect(resource.attributes).toMatchObject({
      asset_spender: '0x00000000000000000000000000000000000000bb',
      price_impact_percent: 0.4,
      fee: { gas: { value: 3.1 } },
    });
    expect(resource.attributes.transaction).toEqual({
      chain_id: 'ethereum',
      from: '0x01',
      to: '0x00000000000000000000000000000000000000bb',
      data: '0x1234',
      value: '0',
      gas: '150000',
    });
  });
});
