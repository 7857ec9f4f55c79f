import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express, { type Express, type Router } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from '@wallet-api/core/logger';
import { authenticate, type OrganizationLookup } from './auth/authenticate.js';
import { createFungibleDirectory } from '@wallet-api/core/resources';
import { createPriceQuotes } from '@wallet-api/core/reference-data';
import type { ChangeVersions } from '@wallet-api/core/cache';
import type { ListWalletTransactionsResponse } from '@wallet-api/core/proto/indexer';
import type { PositionRows } from './cache/position-rows.js';
import type { ResponseCache, VersionedCache } from './cache/response-cache.js';
import type { Backends } from './grpc/backends.js';
import { refuseOversizedBodies } from './http/body-limit.js';
import { declaredPathMatcher } from './http/declared-paths.js';
import { errorHandler, notFoundHandler } from './http/error-handler.js';
import { requestContext } from './http/request-context.js';
import { requestMetrics } from './http/request-metrics.js';
import { buildOpenApiDocument, createOpenApiRegistryComponents, type OpenApiDocument } from './openapi/document.js';
import { docsPage } from './docs/docs-page.js';
import { rateLimit, type RateLimitDefaults } from './rate-limit/rate-limit.js';
import type { FacilitatorClient } from '@x402/core/server';
import { payPerRequest, unlessPaid } from './payments/pay-per-request.js';
import type { PaymentConfig } from './payments/payment-config.js';
import { addChainRoutes } from './routes/chains.js';
import { addFungibleRoutes } from './routes/fungibles.js';
import { addFungibleChartRoutes } from './routes/fungible-charts.js';
import { addDappRoutes } from './routes/dapps.js';
import { addGasPriceRoutes } from './routes/gas-prices.js';
import { addNftRoutes } from './routes/nfts.js';
import { addSwapRoutes } from './routes/swap.js';
import { addTransactionActionRoutes } from './routes/transaction-actions.js';
import { addTxSubscriptionRoutes } from './routes/tx-subscriptions.js';
import { registerWebhookCertificatePath, webhookCertificate, webhookCertificatePath } from './routes/webhook-certificate.js';
import { createApiRoutes } from './routes/define-route.js';
import { addWalletChartRoutes } from './routes/wallet-charts.js';
import { addWalletNftRoutes } from './routes/wallet-nfts.js';
import { addWalletPnlRoutes } from './routes/wallet-pnl.js';
import { addWalletPortfolioRoutes } from './routes/wallet-portfolio.js';
import { addWalletSetRoutes } from './routes/wallet-sets.js';
import { addWalletPositionRoutes, createWalletPositionsReader } from './routes/wallet-positions.js';
import { addWalletTransactionRoutes } from './routes/wallet-transactions.js';

export interface GatewayDependencies {
  lookupOrganization: OrganizationLookup;
  redis: Redis;
  backends: Backends;
  publicUrl: string;
  rateLimits: RateLimitDefaults;
  logger: Logger;
  /** Validate every response against its schema (on outside production). */
  checkResponses: boolean;
  /** How long market data (a fungible's GetFungibles answer, a token's price now and a day ago) is reused; absent or 0: asked for every response. */
  fungiblesTtlMs?: number;
  /** Wallet answers kept until the wallet's data or prices change; absent: every answer is computed. */
  responseCache?: ResponseCache;
  /** What wallets hold, kept until their holdings change (prices aside); absent: the positions service is asked for every computed answer. */
  positionRows?: PositionRows;
  /** The indexer's pages of transactions, kept until the wallet's data changes (prices aside); absent: read for every computed answer. */
  transactionPages?: VersionedCache<ListWalletTransactionsResponse>;
  /** The change tokens: market data reused for fungiblesTtlMs is asked again as soon as prices move. */
  changes?: ChangeVersions;
  /** PEM file served at /v1/webhooks/certificate.pem; absent: that endpoint answers 404. */
  webhookCertificateFile?: string;
  /** Pay per request (x402) and the facilitators verifying and settling it (one per chain family); absent: keyless requests are 401. */
  payments?: { config: PaymentConfig; facilitator: FacilitatorClient | FacilitatorClient[] };
}

/** What the /v1 routes read; authentication and rate limits are createApp's. */
export type ApiDependencies = Omit<GatewayDependencies, 'lookupOrganization' | 'redis' | 'rateLimits' | 'payments'>;

/**
 * Declares every /v1 route on a router, and the OpenAPI document from the same declarations.
 * Declaring calls no backend (only handlers do, and gRPC channels connect on their first call), so
 * `wallet-api openapi` builds the document without a running stack.
 */
export function declareApi(deps: ApiDependencies): { router: Router; openApiDocument: OpenApiDocument } {
  const registry = new OpenAPIRegistry();
  createOpenApiRegistryComponents(registry);
  const routes = createApiRoutes({
    registry,
    publicUrl: deps.publicUrl,
    logger: deps.logger,
    checkResponses: deps.checkResponses,
    ...(deps.responseCache ? { responseCache: deps.responseCache } : {}),
  });
  addChainRoutes(routes, deps.backends);
  addFungibleRoutes(routes, deps.backends);
  addDappRoutes(routes, deps.backends);
  addGasPriceRoutes(routes, deps.backends);
  addFungibleChartRoutes(routes, deps.backends);
  const { changes } = deps;
  const fungibles = createFungibleDirectory(deps.backends.referenceData, {
    ttlMs: deps.fungiblesTtlMs ?? 0,
    ...(changes ? { generation: () => changes.everything() } : {}),
  });
  addWalletTransactionRoutes(routes, deps.backends, fungibles, {
    ...(deps.transactionPages ? { pages: deps.transactionPages } : {}),
    ...(changes ? { priceVersions: changes } : {}),
  });
  const positions = createWalletPositionsReader(deps.backends, fungibles, {
    rows: deps.positionRows,
    quotes: createPriceQuotes(deps.backends.referenceData, deps.logger, { ttlMs: deps.fungiblesTtlMs ?? 0 }),
  });
  addWalletPositionRoutes(routes, deps.backends, positions);
  addWalletPortfolioRoutes(routes, deps.backends, positions);
  addWalletSetRoutes(routes, deps.backends, fungibles, positions, {
    ...(deps.transactionPages ? { pages: deps.transactionPages } : {}),
    ...(changes ? { priceVersions: changes } : {}),
  });
  addWalletChartRoutes(routes, deps.backends);
  addWalletPnlRoutes(routes, deps.backends);
  addWalletNftRoutes(routes, deps.backends);
  addNftRoutes(routes, deps.backends);
  addTxSubscriptionRoutes(routes, deps.backends);
  addSwapRoutes(routes, deps.backends);
  addTransactionActionRoutes(routes, deps.backends);
  registerWebhookCertificatePath(registry);
  const openApiDocument = buildOpenApiDocument(registry, deps.publicUrl);
  return { router: routes.router, openApiDocument };
}

export function createApp(deps: GatewayDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestMetrics);
  app.use(requestContext);
  app.use(refuseOversizedBodies);
  // Request bodies are parsed by the routes that declare one (define-route), after authentication.
  const { router, openApiDocument } = declareApi(deps);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  // The interactive reference of that document; like it, served without a key.
  app.use('/docs', docsPage());
  app.get(webhookCertificatePath, webhookCertificate(deps.webhookCertificateFile, deps.logger));
  // A paid request (x402) is served without a key and without rate limits; every other goes through both.
  const payments = deps.payments ? [payPerRequest(deps.payments.config, deps.payments.facilitator, deps.logger, deps.publicUrl)] : [];
  // Every route the router has, the OpenAPI document's and the retired ones' (410) alike.
  const declared = declaredPathMatcher('/v1', router);
  app.use(
    '/v1',
    (req, res, next) => (declared(`${req.baseUrl}${req.path}`) ? next() : notFoundHandler(req, res, next)),
    ...payments,
    unlessPaid(authenticate(deps.lookupOrganization)),
    unlessPaid(rateLimit(deps.redis, deps.rateLimits)),
    router,
  );
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
