import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { testLogger } from '@wallet-api/core/testing';
import { createBackends } from '../grpc/backends.js';
import { createApiRoutes } from '../routes/define-route.js';
import { addNftRoutes } from '../routes/nfts.js';
import { addWalletNftRoutes } from '../routes/wallet-nfts.js';
import { addTxSubscriptionRoutes } from '../routes/tx-subscriptions.js';
import { registerWebhookCertificatePath } from '../routes/webhook-certificate.js';
import { positionListResponseSchema } from '../schemas/position.js';
import { transactionListResponseSchema } from '../schemas/transaction.js';
import { buildOpenApiDocument, createOpenApiRegistryComponents } from './document.js';

describe('OpenAPI document', () => {
  const registry = new OpenAPIRegistry();
  for (const [path, schema] of [
    ['/positions', positionListResponseSchema],
    ['/transactions', transactionListResponseSchema],
  ] as const) {
    registry.registerPath({ method: 'get', path, responses: { 200: { description: 'Success', content: { 'application/json': { schema } } } } });
  }
  const { components } = buildOpenApiDocument(registry, 'https://api.test');
  const schemas = components!.schemas as Record<string, any>;

  test('fungible_info (spec 2.2) is one component with implementations, description, market data and the optional asset_class', () => {
    const info = schemas.FungibleInfo;
    expect(Object.keys(info.properties)).toEqual(['name', 'symbol', 'icon', 'flags', 'implementations', 'id', 'asset_class', 'description', 'market_data']);
    expect(info.required).not.toContain('asset_class');
    expect(info.properties.asset_class.enum).toEqual([
      'commodity',
      'tokenized_stock',
      'tokenized_treasury',
      'stablecoin',
      'other_financial',
      'other_non_financial',
      'unknown',
    ]);
    expect(info.properties.market_data).toEqual({ $ref: '#/components/schemas/FungibleMarketData' });
  });

  test('market data: nullable numbers, the four changes and the 24-hour volume', () => {
    const market = schemas.FungibleMarketData;
    expect(Object.keys(market.properties)).toEqual([
      'price',
      'total_supply',
      'circulating_supply',
      'fully_diluted_valuation',
      'market_cap',
      'changes',
      'trading_volumes',
    ]);
    expect(market.required).toEqual(Object.keys(market.properties));
    expect(market.properties.price.type).toEqual(['number', 'null']);
    expect(Object.keys(market.properties.changes.properties)).toEqual(['percent_1d', 'percent_30d', 'percent_90d', 'percent_365d']);
    expect(market.properties.trading_volumes.properties.volume_1d.type).toEqual(['number', 'null']);
  });
});

describe('OpenAPI document: transaction subscriptions and the webhook certificate', () => {
  const registry = new OpenAPIRegistry();
  createOpenApiRegistryComponents(registry);
  // Clients connect only when called; declaring the routes calls nothing.
  const backends = createBackends({ referenceData: '127.0.0.1:1', indexer: '127.0.0.1:1', positions: '127.0.0.1:1', subscription: '127.0.0.1:1' });
  addTxSubscriptionRoutes(createApiRoutes({ registry, publicUrl: 'https://api.test', logger: testLogger, checkResponses: false }), backends);
  registerWebhookCertificatePath(registry);
  const document = buildOpenApiDocument(registry, 'https://api.test');
  const paths = document.paths as Record<string, Record<string, any>>;
  afterAll(() => backends.close());

  const operations = (path: string) => Object.keys(paths[path] ?? {}).sort();

  test('every endpoint of decisions.md is declared with its method', () => {
    const base = '/v1/tx-subscriptions';
    const id = `${base}/{subscription_id}`;
    expect(operations(`${base}/`)).toEqual(['get', 'post']);
    expect(operations(id)).toEqual(['delete', 'get']);
    expect(operations(`${id}/wallets`)).toEqual(['get', 'patch', 'put']);
    expect(operations(`${id}/wallets/count`)).toEqual(['get']);
    for (const setting of ['callback_url', 'chain_ids', 'filters', 'enable', 'disable']) expect(operations(`${id}/${setting}`)).toEqual(['patch']);
    expect(operations(`${id}/signing-secret/rotate`)).toEqual(['post']);
    expect(operations(`${id}/deliveries`)).toEqual(['get']);
    expect(operations(`${id}/deliveries/{delivery_id}/retry`)).toEqual(['post']);
    expect(operations('/v1/webhooks/certificate.pem')).toEqual(['get']);
  });

  test("success statuses, bodies, 204 without content, 404 for a subscription that is not the caller's", () => {
    const create = paths['/v1/tx-subscriptions/']!.post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '429']));
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateTxSubscription' });
    const disable = paths['/v1/tx-subscriptions/{subscription_id}/disable']!.patch;
    expect(disable.responses['204']).toEqual({ description: 'No Content' });
    expect(disable.requestBody).toBeUndefined();
    expect(disable.responses['404']).toBeDefined();
    expect(paths['/v1/tx-subscriptions/{subscription_id}/filters']!.patch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SetTxSubscriptionFilters',
    });
    expect(Object.keys(paths['/v1/tx-subscriptions/{subscription_id}/deliveries/{delivery_id}/retry']!.post.responses)).toContain('202');
    expect(paths['/v1/tx-subscriptions/{subscription_id}/chain_ids']!.patch.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'X-Env' })]),
    );
  });

  test('filters: exclude with its four keys and no others', () => {
    const schemas = document.components!.schemas as Record<string, any>;
    expect(schemas.TxSubscriptionFilters.additionalProperties).toBe(false);
    expect(Object.keys(schemas.TxSubscriptionExcludeFilters.properties)).toEqual(['operation_types', 'trash', 'dapp_ids', 'addresses']);
    expect(schemas.TxSubscriptionExcludeFilters.additionalProperties).toBe(false);
    expect(Object.keys(schemas.TxSubscription.properties.attributes.properties)).toEqual([
      'callback_url',
      'chain_ids',
      'enabled',
      'filters',
      'wallets_count',
      'created_at',
      'updated_at',
    ]);
  });

  test('the certificate needs no key and is PEM', () => {
    const certificate = paths['/v1/webhooks/certificate.pem']!.get;
    expect(certificate.security).toEqual([]);
    expect(Object.keys(certificate.responses['200'].content)).toEqual(['application/x-pem-file']);
    expect(certificate.responses['404']).toBeDefined();
  });
});

describe('OpenAPI document: NFT endpoints', () => {
  const registry = new OpenAPIRegistry();
  createOpenApiRegistryComponents(registry);
  // No nft address, as test gateways build them: the client defaults to NFT_GRPC_ADDRESS and connects only when called.
  const backends = createBackends({ referenceData: '127.0.0.1:1', indexer: '127.0.0.1:1', positions: '127.0.0.1:1' });
  const routes = createApiRoutes({ registry, publicUrl: 'https://api.test', logger: testLogger, checkResponses: false });
  addWalletNftRoutes(routes, backends);
  addNftRoutes(routes, backends);
  const document = buildOpenApiDocument(registry, 'https://api.test');
  const paths = document.paths as Record<string, Record<string, any>>;
  const schemas = document.components!.schemas as Record<string, any>;
  afterAll(() => backends.close());

  const queryNames = (path: string) =>
    (paths[path]!.get.parameters as { in: string; name: string }[]).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);

  test('wallet NFT endpoints: their parameters, and 202 with the body of the 200', () => {
    expect(queryNames('/v1/wallets/{address}/nft-positions/')).toEqual([
      'currency',
      'filter[chain_ids]',
      'filter[collections_ids]',
      'sort',
      'include',
      'page[size]',
      'page[after]',
    ]);
    expect(queryNames('/v1/wallets/{address}/nft-collections/')).toEqual([
      'currency',
      'filter[chain_ids]',
      'filter[collections_ids]',
      'sort',
      'include',
      'page[size]',
      'page[after]',
    ]);
    expect(queryNames('/v1/wallets/{address}/nft-portfolio')).toEqual(['currency', 'filter[chain_ids]']);
    for (const path of ['/v1/wallets/{address}/nft-positions/', '/v1/wallets/{address}/nft-collections/', '/v1/wallets/{address}/nft-portfolio']) {
      const { responses, tags } = paths[path]!.get;
      expect(tags).toEqual(['wallets']);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '429']));
      expect(responses['202'].content).toEqual(responses['200'].content);
    }
    expect(paths['/v1/wallets/{address}/nft-positions/']!.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NftPositionList',
    });
  });

  test('NFTs by reference and by id, the latter with its 404', () => {
    expect(queryNames('/v1/nfts/')).toEqual(['filter[references]', 'currency', 'include']);
    const references = (paths['/v1/nfts/']!.get.parameters as { name: string; required?: boolean }[]).find(
      (parameter) => parameter.name === 'filter[references]',
    );
    expect(references?.required).toBe(true);
    expect(paths['/v1/nfts/']!.get.tags).toEqual(['nfts']);
    expect(Object.keys(paths['/v1/nfts/{nft_id}']!.get.responses)).toEqual(expect.arrayContaining(['200', '404']));
  });

  test('resources: spec 2.6 to 2.8 and the wallet_nft_ ones, with lowercase interfaces and integer collection ids', () => {
    expect(Object.keys(schemas.NftPosition.properties.attributes.properties)).toEqual([
      'changed_at',
      'amount',
      'price',
      'value',
      'nft_info',
      'collection_info',
    ]);
    expect(Object.keys(schemas.NftPosition.properties.relationships.properties)).toEqual(['chain', 'nft_collection', 'nft']);
    expect(Object.keys(schemas.Nft.properties.attributes.properties)).toEqual([
      'contract_address',
      'token_id',
      'interface',
      'metadata',
      'market_data',
      'external_links',
      'flags',
    ]);
    expect(schemas.Nft.properties.attributes.properties.interface.enum).toEqual(['erc721', 'erc1155']);
    expect(schemas.NftCollection.properties.id.type).toBe('integer');
    expect(Object.keys(schemas.WalletNftCollection.properties.attributes.properties)).toEqual([
      'min_changed_at',
      'max_changed_at',
      'nfts_count',
      'total_floor_price',
      'collection_info',
    ]);
    expect(Object.keys(schemas.WalletNftPortfolio.properties.attributes.properties)).toEqual(['positions_distribution_by_chain']);
  });
});
