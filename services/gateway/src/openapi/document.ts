import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

export function createOpenApiRegistryComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'The API key is the username; the password is empty.',
  });
  // x402 v2 clients send PAYMENT-SIGNATURE, v1 clients X-PAYMENT; both carry the same base64 payload.
  registry.registerComponent('securitySchemes', 'x402Payment', {
    type: 'apiKey',
    in: 'header',
    name: 'PAYMENT-SIGNATURE',
    description:
      'Pay per request instead of a key (x402, scheme exact: a USDC EIP-3009 transferWithAuthorization). A request without a key answers 402 with the requirements in the PAYMENT-REQUIRED header and the body; send the signed payment as PAYMENT-SIGNATURE (or X-PAYMENT). A served request carries the settlement receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE; paid requests have no rate limit.',
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
