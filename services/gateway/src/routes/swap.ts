import { unary } from '@wallet-api/core/grpc';
import { quantity, toFungibleInfo } from '@wallet-api/core/resources';
import type { SwapAmount, SwapQuote } from '@wallet-api/core/proto/swap';
import type { Backends } from '../grpc/backends.js';
import { ApiError, apiError } from '../http/api-error.js';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { networkHeaders } from '../schemas/common.js';
import { swapFungiblesQuery, swapFungiblesResponseSchema, swapQuotesQuery, swapQuotesResponseSchema, type SwapQuoteResource } from '../schemas/swap.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

const toQuantity = (amount: SwapAmount | undefined) => quantity(amount?.amount ?? '0', amount?.decimals ?? 0);

const relationship = <T extends 'fungibles' | 'chains'>(baseUrl: string, type: T, id: string) => ({
  links: { related: `${baseUrl}/v1/${type}/${encodeURIComponent(id)}` },
  data: { type, id },
});

/** Spec 4.11 / decisions.md "Swap": one quote as a `swap_quotes` resource. */
export function toSwapQuoteResource(
  quote: SwapQuote,
  request: { chainId: string; inputFungibleId: string; outputFungibleId: string; blockNumber: string },
  baseUrl: string,
  actionId: string | null = null,
): SwapQuoteResource {
  const source = quote.liquiditySource;
  return {
    type: 'swap_quotes',
    // The route read at one block with one amount: what tells two quotes apart.
    id: `${request.chainId}:${request.blockNumber}:${quote.route.join('-')}:${quote.inputAmount?.amount ?? ''}`,
    attributes: {
      input_amount: toQuantity(quote.inputAmount),
      output_amount: toQuantity(quote.outputAmount),
      output_amount_after_fees: toQuantity(quote.outputAmountAfterFees),
      output_amount_min: toQuantity(quote.outputAmountMin),
      price_impact_percent: quote.priceImpactPercent ?? null,
      slippage_percent: quote.slippagePercent,
      fee: { protocol_percent: quote.feeProtocolPercent, gas: { quantity: toQuantity(quote.gasQuantity), value: quote.gasValue ?? null } },
      liquidity_source: { id: source?.id ?? '', name: source?.name ?? '', icon: source?.iconUrl ? { url: source.iconUrl } : null },
      route: quote.route,
      asset_spender: quote.assetSpender === '' ? null : quote.assetSpender,
      preconditions_met: { enough_balance: quote.enoughBalance, enough_allowance: quote.enoughAllowance },
      transaction: quote.transaction
        ? {
            chain_id: quote.transaction.chainId,
            from: quote.transaction.from,
            to: quote.transaction.to,
            data: quote.transaction.data,
            value: quote.transaction.value,
            gas: quote.transaction.gas,
          }
        : null,
      estimated_seconds: quote.estimatedSeconds,
      action_id: actionId,
    },
    relationships: {
      input_fungible: relationship(baseUrl, 'fungibles', request.inputFungibleId),
      output_fungible: relationship(baseUrl, 'fungibles', request.outputFungibleId),
      input_chain: relationship(baseUrl, 'chains', request.chainId),
      output_chain: relationship(baseUrl, 'chains', request.chainId),
    },
  };
}

export function addSwapRoutes(routes: ApiRoutes, backends: Backends): void {
  /** The chain must be one the caller's network lists (X-Env: testnet for testnets). */
  async function checkChain(context: RequestContext, chainId: string, parameter: string): Promise<void> {
    const chains = await backends.chains.list(context);
    if (!chains.some((chain) => chain.id === chainId)) throw apiError(400, `parameter ${parameter}: chain ${chainId} is not supported on this network`);
  }

  routes.add({
    method: 'get',
    path: '/v1/swap/quotes/',
    summary: 'Quotes for swapping an amount of one fungible for another on one EVM chain, best first by output after fees',
    tag: 'swap',
    query: swapQuotesQuery,
    headers: networkHeaders,
    response: swapQuotesResponseSchema,
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const request = {
        chainId: query['input[chain_id]'],
        inputFungibleId: query['input[fungible_id]'],
        outputFungibleId: query['output[fungible_id]'],
      };
      const context = toRequestContext(organization, headers['X-Env']);
      await checkChain(context, request.chainId, 'input[chain_id]');
      const from = query.from.toLowerCase();
      const answer = await unary(
        backends.swap,
        backends.swap.getSwapQuotes,
        {
          context,
          ...request,
          inputAmount: query['input[amount]'],
          from,
          to: (query.to ?? query.from).toLowerCase(),
          slippagePercent: query.slippage_percent,
          currency: query.currency,
        },
        // Every route is quoted and estimated on the chain: more than a lookup's time.
        { name: 'Swap/GetSwapQuotes', deadlineMs: 30_000 },
      );
      // Spec 4.5: for the pending-orders role, the best executable quote becomes an unsigned action of `from`.
      const actionable = organization.roles.includes('pending-orders') ? answer.quotes.find((quote) => quote.transaction !== undefined) : undefined;
      const actionId = actionable
        ? (
            await unary(
              backends.actions,
              backends.actions.createSwapAction,
              {
                context,
                wallet: from,
                chainId: request.chainId,
                inputFungibleId: request.inputFungibleId,
                outputFungibleId: request.outputFungibleId,
                inputAmount: actionable.inputAmount?.amount ?? '0',
                outputAmountMin: actionable.outputAmountMin?.amount ?? '0',
                transaction: { ...actionable.transaction!, serialized: '' },
              },
              { name: 'Actions/CreateSwapAction' },
            )
          ).actionId
        : undefined;
      return {
        links: { self: selfUrl },
        data: answer.quotes.map((quote) =>
          toSwapQuoteResource(quote, { ...request, blockNumber: answer.blockNumber }, baseUrl, quote === actionable ? (actionId ?? null) : null),
        ),
        meta: { block_number: Number(answer.blockNumber) },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/swap/fungibles/',
    summary: 'Fungibles with a trusted pool route on the chain of input[chain_id] / output[chain_id]',
    tag: 'swap',
    query: swapFungiblesQuery,
    headers: networkHeaders,
    response: swapFungiblesResponseSchema,
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const chainId = (query['input[chain_id]'] ?? query['output[chain_id]'])!;
      await checkChain(context, chainId, query['input[chain_id]'] ? 'input[chain_id]' : 'output[chain_id]');
      const { fungibleIds } = await unary(backends.swap, backends.swap.listSwapFungibles, { context, chainId }, { name: 'Swap/ListSwapFungibles' });
      const { fungibles } =
        fungibleIds.length === 0
          ? { fungibles: [] }
          : await unary(
              backends.referenceData,
              backends.referenceData.getFungibles,
              { context, currency: query.currency, fungibleIds, implementations: [] },
              { name: 'ReferenceData/GetFungibles' },
            );
      const byId = new Map(fungibles.map((fungible) => [fungible.id, fungible]));
      return {
        links: { self: selfUrl },
        data: fungibleIds.flatMap((id) => {
          const fungible = byId.get(id);
          return fungible
            ? [{ type: 'fungibles' as const, id, attributes: toFungibleInfo(fungible), links: { self: `${baseUrl}/v1/fungibles/${encodeURIComponent(id)}` } }]
            : [];
        }),
      };
    },
  });

  // Spec 9.4: permanently disabled; kept out of the OpenAPI document, answered so a client learns why.
  routes.router.get('/swap/offers/', () => {
    throw new ApiError(410, 'Gone', 'GET /v1/swap/offers/ is deprecated and permanently disabled; use GET /v1/swap/quotes/');
  });
}
