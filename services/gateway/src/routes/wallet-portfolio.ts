import { sharedVersion, type WalletChangeTokens } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { Portfolio } from '@wallet-api/core/proto/positions';
import { portfolioOf } from '@wallet-api/core/resources';
import type { z } from 'zod';
import type { Backends } from '../grpc/backends.js';
import { networkHeaders } from '../schemas/common.js';
import { portfolioQuery, portfolioResponseSchema } from '../schemas/portfolio.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { toPortfolioResource } from './portfolio-resource.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import type { PositionsSelection, WalletPositionsReader } from './wallet-positions.js';
import { resolveWalletScope, type WalletScope } from './wallet-scope.js';

type PortfolioQuery = z.infer<typeof portfolioQuery>;

/** What the portfolio endpoints read: every chain of the network that indexes positions. */
export const portfolioCapabilities = ['positions'] as const;

/**
 * One wallet's portfolio on its scope's chains: the wallet endpoint's answer, and each wallet's
 * share of a wallet set's. The totals of its positions (trash left out) as the reader values them
 * now: a price move costs a multiplication, not a call to the positions service. Zeros when
 * nothing qualifies (no chain, or protocol positions only for a Solana wallet).
 */
export async function readWalletPortfolio(
  reader: WalletPositionsReader,
  request: {
    context: RequestContext;
    scope: WalletScope;
    query: PortfolioQuery;
    generation?: string | undefined;
    walletTokens?: WalletChangeTokens | undefined;
  },
): Promise<Portfolio> {
  const { context, scope, query, generation, walletTokens } = request;
  const selection: PositionsSelection = {
    currency: query.currency,
    positions: query['filter[positions]'],
    positionTypes: [],
    fungibleIds: [],
    dappIds: [],
    trash: 'only_non_trash',
    ascending: false,
    sync: query.sync === 'true',
  };
  return portfolioOf(await reader.read({ context, scope, selection, withFungibles: false, generation, walletTokens }), scope.chainIds);
}

export function addWalletPortfolioRoutes(routes: ApiRoutes, backends: Backends, reader: WalletPositionsReader): void {
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
    async handle({ params, query, headers }, { organization, selfUrl, changeTokens }) {
      checkRequestUrlLength(selfUrl);
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await resolveWalletScope(backends, { context, address: params.address, chainIds: undefined, capabilities: portfolioCapabilities });
      const generation = changeTokens ? sharedVersion(changeTokens) : undefined;
      const portfolio = await readWalletPortfolio(reader, { context, scope, query, generation, walletTokens: changeTokens });
      return { links: { self: selfUrl }, data: toPortfolioResource(scope.address, portfolio) };
    },
  });
}
