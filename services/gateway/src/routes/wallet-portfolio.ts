import { unary } from '@wallet-api/core/grpc';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { portfolioQuery, portfolioResponseSchema } from '../schemas/portfolio.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { emptyPortfolio, toPortfolioResource } from './portfolio-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { positionsDeadlineMs, positionsFilterFor } from './wallet-positions.js';
import { resolveWalletScope } from './wallet-scope.js';

export function addWalletPortfolioRoutes(routes: ApiRoutes, backends: Backends): void {
  const { positions } = backends;
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
      const scope = await resolveWalletScope(backends, { context, address: params.address, chainIds: undefined, capabilities: ['positions'] });
      const filter = positionsFilterFor(scope.family, query['filter[positions]']);
      const sync = query.sync === 'true';
      const portfolio =
        scope.chainIds.length === 0 || filter === undefined
          ? emptyPortfolio(scope.chainIds)
          : await unary(
              positions,
              positions.getPortfolio,
              { context, address: scope.address, chainIds: scope.chainIds, currency: query.currency, positions: filter, sync },
              { name: 'Positions/GetPortfolio', deadlineMs: positionsDeadlineMs(sync) },
            );
      return { links: { self: selfUrl }, data: toPortfolioResource(scope.address, portfolio) };
    },
  });
}
