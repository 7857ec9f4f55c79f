import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { GasType } from '@wallet-api/core/proto/gas';
import { testLogger } from '@wallet-api/core/testing';
import { createBackends } from '../grpc/backends.js';
import { buildOpenApiDocument, createOpenApiRegistryComponents } from '../openapi/document.js';
import { gasPriceResourceSchema } from '../schemas/gas-price.js';
import { addDappRoutes } from './dapps.js';
import { createApiRoutes } from './define-route.js';
import { addGasPriceRoutes, toGasPriceResource } from './gas-prices.js';

const speed = (tip: number) => ({ priorityFee: String(tip), maxFee: String(200 + tip), estimationSeconds: 12 });

describe('toGasPriceResource', () => {
  test('eip1559: wei as integers, the chain as a relationship, the block in meta', () => {
    const resource = toGasPriceResource(
      {
        chainId: 'ethereum',
        gasType: GasType.GAS_TYPE_EIP1559,
        updatedAt: '1767225600000',
        blockNumber: '196',
        eip1559: { baseFee: '100', slow: speed(1), standard: speed(2), fast: speed(3), rapid: speed(4) },
      },
      'https://api.test',
    );
    expect(resource).toEqual({
      type: 'gas-prices',
      id: 'ethereum-eip1559',
      attributes: {
        updated_at: '2026-01-01T00:00:00.000Z',
        gas_type: 'eip1559',
        info: {
          base_fee: 100,
          slow: { priority_fee: 1, max_fee: 201, estimation_seconds: 12 },
          standard: { priority_fee: 2, max_fee: 202, estimation_seconds: 12 },
          fast: { priority_fee: 3, max_fee: 203, estimation_seconds: 12 },
          rapid: { priority_fee: 4, max_fee: 204, estimation_seconds: 12 },
        },
      },
      relationships: { chain: { links: { related: 'https://api.test/v1/chains/ethereum' }, data: { type: 'chains', id: 'ethereum' } } },
      meta: { block_number: 196 },
    });
    expect(gasPriceResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('classic: the four speeds', () => {
    const resource = toGasPriceResource(
      { chainId: 'old', gasType: GasType.GAS_TYPE_CLASSIC, updatedAt: '0', blockNumber: '7', classic: { slow: '1', standard: '2', fast: '3', rapid: '4' } },
      'https://api.test',
    );
    expect(resource.id).toBe('old-classic');
    expect(resource.attributes).toEqual({ updated_at: '1970-01-01T00:00:00.000Z', gas_type: 'classic', info: { slow: 1, standard: 2, fast: 3, rapid: 4 } });
    expect(gasPriceResourceSchema.safeParse(resource).success).toBe(true);
  });

  test('a gas type this gateway cannot describe is a 500, never a malformed resource', () => {
    expect(() => toGasPriceResource({ chainId: 'op', gasType: GasType.GAS_TYPE_OPTIMISTIC, updatedAt: '0', blockNumber: '1' }, 'https://api.test')).toThrow(
      'the request could not be completed',
    );
  });
});

describe('OpenAPI document: dapps and gas prices', () => {
  const registry = new OpenAPIRegistry();
  createOpenApiRegistryComponents(registry);
  // Clients connect only when called; declaring the routes calls nothing.
  const backends = createBackends({ referenceData: '127.0.0.1:1', indexer: '127.0.0.1:1', positions: '127.0.0.1:1' });
  const routes = createApiRoutes({ registry, publicUrl: 'https://api.test', logger: testLogger, checkResponses: false });
  addDappRoutes(routes, backends);
  addGasPriceRoutes(routes, backends);
  const document = buildOpenApiDocument(registry, 'https://api.test');
  const paths = document.paths as Record<string, Record<string, any>>;
  afterAll(() => backends.close());

  test('both endpoints with their parameters and components', () => {
    const names = (path: string) => paths[path]!.get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names('/v1/dapps')).toEqual(['page[size]', 'page[after]', 'filter[dapp_ids]']);
    expect(names('/v1/gas-prices/')).toEqual(['filter[chain_ids]', 'filter[gas_types]', 'X-Env']);
    const schemas = document.components!.schemas as Record<string, any>;
    expect(Object.keys(schemas.Dapp.properties.attributes.properties)).toEqual([
      'name',
      'description',
      'icon',
      'url',
      'manage_positions_url',
      'external_links',
    ]);
    expect(schemas.GasPrice).toBeDefined();
    expect(schemas.Eip1559GasInfo.required).toEqual(['base_fee', 'slow', 'standard', 'fast', 'rapid']);
  });
});
