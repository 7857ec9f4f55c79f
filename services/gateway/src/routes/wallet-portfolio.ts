import { unary } from '@wallet-api/core/grpc';
import type { z } from 'zod';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { Portfolio } from '@wallet-api/core/proto/positions';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { portfolioQuery, portfolioResponseSchema } from '../schemas/portfolio.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { emptyPortfolio, toPortfolioResource } from './portfolio-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { positionsDeadlineMs, positionsFilterFor } from './wallet-positions.js';
import { resolveWalletScope, type WalletScope } from './wallet-scope.js';

type PortfolioQuery = z.infer<typeof portfolioQuery>;

/** What the portfolio endpoints read: every chain of the network that indexes positions. */
export const portfolioCapabilities = ['positions'] as const;

/**
 * One wallet's portfolio on its scope's chains: the wallet endpoint's answer, and each wallet's
 * share of a wallet set's. Zeros without asking when nothing qualifies (no chain, or protocol
 * positions only for a Solana wallet).
 */
export async function readWalletPortfolio(
  backends: Pick<Backends, 'positions'>,
  request: { context: RequestContext; scope: WalletScope; query: PortfolioQuery },
): Promise<Portfolio> {
  const { positions } = backends;
  const { context, scope, query } = request;
  const filter = positionsFilterFor(scope.family, query['filter[positions]']);
  const sync = query.sync === 'true';
  if (scope.chainIds.length === 0 || filter === undefined) return emptyPortfolio(scope.chainIds);
  return unary(
    positions,
    positions.getPortfolio,
    { context, address: scope.address, chainIds: scope.chainIds, currency: query.currency, positions: filter, sync },
    { name: 'Positions/GetPortfolio', deadlineMs: positionsDeadlineMs(sync) },
  );
}

export function addWalletPortfolioRoutes(routes: ApiRoutes, backends: Backends): void {
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/portfolio',
    summary: "A wallet's total value by position type and by chain, with its 1-day change, over every chain of the network that indexes positions",
    tag: 'wallets',
    params: walletAddressParam,
    query: portfolioQuery,
    headers: networkHeaders,
    response: portfolioResponseSchema,
    cachedFor: ({ params, query }) => (query.sync === 'true' ? undefined : { wallet: params.address, data: ['holdings'] }),
    async handle({ params, query, headers }, { organization, selfUrl }) {
      checkRequestUrlLength(selfUrl);
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await resolveWalletScope(backends, { context, address: params.address, chainIds: undefined, capabilities: portfolioCapabilities });
      const portfolio = await readWalletPortfolio(backends, { context, scope, query });
      return { links: { self: selfUrl }, data: toPortfolioResource(scope.address, portfolio) };
    },
  });
}
