import { canonicalWallet } from '@wallet-api/core/addresses';
import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { PnlFigures, WalletPnl } from '@wallet-api/core/proto/pnl';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import { pnlQuery, pnlResponseSchema, walletSetPnlQuery, type PnlQuery, type PnlResource } from '../schemas/pnl.js';
import { walletAddressParam } from '../schemas/wallet-query.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';
import { checkRequestUrlLength } from './request-url.js';
import { resolveWalletScope, resolveWalletSetScopes, type ChainCapability } from './wallet-scope.js';

/** Spec 4.2: PnL replays a chain's history and values its holdings, so each chain must report both. */
const pnlCapabilities: readonly ChainCapability[] = ['transactions', 'positions'];

function figures(message: PnlFigures | undefined) {
  const value = message ?? ({} as Partial<PnlFigures>);
  return {
    total_gain: value.totalGain ?? 0,
    realized_gain: value.realizedGain ?? 0,
    unrealized_gain: value.unrealizedGain ?? 0,
    relative_total_gain_percentage: value.relativeTotalGainPercentage ?? 0,
    relative_realized_gain_percentage: value.relativeRealizedGainPercentage ?? 0,
    relative_unrealized_gain_percentage: value.relativeUnrealizedGainPercentage ?? 0,
    total_fee: value.totalFee ?? 0,
    total_invested: value.totalInvested ?? 0,
    realized_cost_basis: value.realizedCostBasis ?? 0,
    net_invested: value.netInvested ?? 0,
    received_external: value.receivedExternal ?? 0,
    sent_external: value.sentExternal ?? 0,
    sent_for_nfts: value.sentForNfts ?? 0,
    received_for_nfts: value.receivedForNfts ?? 0,
  };
}

function toPnlResource(id: string, pnl: WalletPnl): PnlResource {
  const entries = Object.fromEntries(
    Object.entries(pnl.breakdown).map(([key, entry]) => [
      key,
      { ...figures(entry), average_buy_price: entry.averageBuyPrice, average_sell_price: entry.averageSellPrice },
    ]),
  );
  const breakdown = pnl.breakdownBy === 'id' ? { by_id: entries } : pnl.breakdownBy === 'implementation' ? { by_implementation: entries } : undefined;
  return { type: 'pnl', id, attributes: { ...figures(pnl.figures), ...(breakdown ? { breakdown } : {}) } };
}

/** The checks that need no backend: the URL's length, then `since` against `till`. */
function checkPnlRequest(selfUrl: string, query: PnlQuery): void {
  checkRequestUrlLength(selfUrl);
  if (query.since !== undefined && query.till !== undefined && query.since > query.till) throw apiError(400, 'parameter since: must not be after till');
}

function readPnl(backends: Backends, request: { context: RequestContext; addresses: string[]; chainIds: string[]; query: PnlQuery }): Promise<WalletPnl> {
  const { context, addresses, chainIds, query } = request;
  return unary(
    backends.pnl,
    backends.pnl.getWalletPnl,
    {
      context,
      addresses,
      chainIds,
      currency: query.currency,
      fungibleIds: query['filter[fungible_ids]'] ?? [],
      // `<chain_id>:<address>`: EVM addresses compare lowercase, Solana mints are base58 (case-sensitive).
      fungibleImplementations: (query['filter[fungible_implementations]'] ?? []).map((value) => {
        const split = value.indexOf(':');
        return `${value.slice(0, split)}:${canonicalWallet(value.slice(split + 1))}`;
      }),
      ...(query.since === undefined ? {} : { sinceMs: query.since.toString() }),
      ...(query.till === undefined ? {} : { tillMs: query.till.toString() }),
    },
    // A wallet's first computation is waited for up to the service's own bound, then answered 503.
    { name: 'Pnl/GetWalletPnl', deadlineMs: 15_000 },
  );
}

const meta = (pnl: WalletPnl) => ({ excluded_fungible_ids: pnl.excludedFungibleIds, excluded_fungible_implementations: pnl.excludedFungibleImplementations });

export function addWalletPnlRoutes(routes: ApiRoutes, backends: Backends): void {
  routes.add({
    method: 'get',
    path: '/v1/wallets/{address}/pnl',
    summary: "A wallet's profit and loss on a FIFO basis over every chain of the network that indexes transactions and positions",
    tag: 'wallets',
    params: walletAddressParam,
    query: pnlQuery,
    headers: networkHeaders,
    response: pnlResponseSchema,
    errors: [422, 503],
    cachedFor: ({ params }) => ({ wallet: params.address, data: ['history'] }),
    async handle({ params, query, headers }, { organization, selfUrl }) {
      checkPnlRequest(selfUrl, query);
      const context = toRequestContext(organization, headers['X-Env']);
      const scope = await resolveWalletScope(backends, {
        context,
        address: params.address,
        chainIds: query['filter[chain_ids]'],
        capabilities: pnlCapabilities,
      });
      const pnl = await readPnl(backends, { context, addresses: [scope.address], chainIds: scope.chainIds, query });
      return { links: { self: selfUrl }, data: toPnlResource(scope.address, pnl), meta: meta(pnl) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/wallet-sets/pnl',
    summary: 'The profit and loss of up to one EVM and one Solana wallet together, their histories replayed as one',
    tag: 'wallet-sets',
    query: walletSetPnlQuery,
    headers: networkHeaders,
    response: pnlResponseSchema,
    errors: [422, 503],
    async handle({ query, headers }, { organization, selfUrl }) {
      checkPnlRequest(selfUrl, query);
      const context = toRequestContext(organization, headers['X-Env']);
      const scopes = await resolveWalletSetScopes(backends, {
        context,
        addresses: query.addresses,
        chainIds: query['filter[chain_ids]'],
        capabilities: pnlCapabilities,
      });
      const addresses = scopes.map((scope) => scope.address);
      const pnl = await readPnl(backends, { context, addresses, chainIds: [...new Set(scopes.flatMap((scope) => scope.chainIds))], query });
      return { links: { self: selfUrl }, data: toPnlResource(addresses.join(','), pnl), meta: meta(pnl) };
    },
  });
}
