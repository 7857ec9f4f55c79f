import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { positionListResponseSchema } from '../schemas/position.js';
import { transactionListResponseSchema } from '../schemas/transaction.js';
import { buildOpenApiDocument } from './document.js';

describe('OpenAPI document', () => {
  const registry = new OpenAPIRegistry();
  for (const [path, schema] of [['/positions', positionListResponseSchema], ['/transactions', transactionListResponseSchema]] as const) {
    registry.registerPath({ method: 'get', path, responses: { 200: { description: 'Success', content: { 'application/json': { schema } } } } });
  }
  const { components } = buildOpenApiDocument(registry, 'https://api.test');
  const schemas = components!.schemas as Record<string, any>;

  test('fungible_info (spec 2.2) is one component with implementations, description, market data and the optional asset_class', () => {
    const info = schemas.FungibleInfo;
    expect(Object.keys(info.properties)).toEqual(['name', 'symbol', 'icon', 'flags', 'implementations', 'id', 'asset_class', 'description', 'market_data']);
    expect(info.required).not.toContain('asset_class');
    expect(info.properties.asset_class.enum).toEqual(['commodity', 'tokenized_stock', 'tokenized_treasury', 'stablecoin', 'other_financial', 'other_non_financial', 'unknown']);
    expect(info.properties.market_data).toEqual({ $ref: '#/components/schemas/FungibleMarketData' });
  });

  test('market data: nullable numbers, the four changes and the 24-hour volume', () => {
    const market = schemas.FungibleMarketData;
    expect(Object.keys(market.properties)).toEqual(['price', 'total_supply', 'circulating_supply', 'fully_diluted_valuation', 'market_cap', 'changes', 'trading_volumes']);
    expect(market.required).toEqual(Object.keys(market.properties));
    expect(market.properties.price.type).toEqual(['number', 'null']);
    expect(Object.keys(market.properties.changes.properties)).toEqual(['percent_1d', 'percent_30d', 'percent_90d', 'percent_365d']);
    expect(market.properties.trading_volumes.properties.volume_1d.type).toEqual(['number', 'null']);
  });
});
