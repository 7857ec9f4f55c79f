import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

export function createOpenApiRegistryComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'The API key is the username; the password is empty.',
  });
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export function buildOpenApiDocument(registry: OpenAPIRegistry, publicUrl: string): OpenApiDocument {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Wallet data and transaction webhook API',
      version: '1.0.0',
      description: 'Wallet portfolio, positions, charts, PnL, transactions, NFTs, chains, dapps and transaction subscriptions.',
    },
    servers: [{ url: publicUrl.replace(/\/$/, '') }],
  });
}
