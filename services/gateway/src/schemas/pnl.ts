import { z } from 'zod';
import { selfLinksSchema } from './common.js';
import { walletSetAddressesParam } from './chart.js';
import { chainIdPattern, chainIdsFilter, csvList, currencyParam, evmAddressPattern, isSolanaAddress } from './wallet-query.js';

/** Spec 4.2 `since`/`till`: unix milliseconds written with exactly 13 digits. */
const millisecondsParam = z
  .string()
  .regex(/^[0-9]{13}$/, 'must be a unix timestamp in milliseconds of exactly 13 digits')
  .transform((value) => BigInt(value));

/** `<chain_id>:<address>`: an EVM or Solana token address on a chain. */
const implementationValue = z.string().superRefine((value, context) => {
  const colon = value.indexOf(':');
  const chainId = colon === -1 ? '' : value.slice(0, colon);
  const address = colon === -1 ? '' : value.slice(colon + 1);
  if (!chainIdPattern.test(chainId) || !(evmAddressPattern.test(address) || isSolanaAddress(address))) {
    context.addIssue({ code: 'custom', message: 'each implementation must be <chain_id>:<address> (an EVM or Solana token address)' });
  }
});

/** Spec 4.2 and its limits (section 8); unknown parameters are ignored. */
export const pnlQuery = z.object({
  currency: currencyParam,
  'filter[chain_ids]': chainIdsFilter.optional(),
  'filter[fungible_ids]': csvList(z.string().max(44, 'each fungible id must be at most 44 characters'), 100).optional(),
  'filter[fungible_implementations]': csvList(implementationValue, 100).optional(),
  since: millisecondsParam.optional().meta({ description: 'Unix milliseconds (13 digits): only flows (sales, fees, transfers) from then on count.' }),
  till: millisecondsParam.optional().meta({ description: 'Unix milliseconds (13 digits): later transactions are left out.' }),
});

export const walletSetPnlQuery = pnlQuery.extend({ addresses: walletSetAddressesParam });

export type PnlQuery = z.infer<typeof pnlQuery>;

const figureFields = {
  total_gain: z.number(),
  realized_gain: z.number(),
  unrealized_gain: z.number(),
  relative_total_gain_percentage: z.number(),
  relative_realized_gain_percentage: z.number(),
  relative_unrealized_gain_percentage: z.number(),
  total_fee: z.number(),
  total_invested: z.number(),
  realized_cost_basis: z.number(),
  net_invested: z.number(),
  received_external: z.number(),
  sent_external: z.number(),
  sent_for_nfts: z.number(),
  received_for_nfts: z.number(),
};

const breakdownEntry = z.object({ ...figureFields, average_buy_price: z.number(), average_sell_price: z.number() });

/** decisions.md "PnL". */
export const pnlResourceSchema = z
  .object({
    type: z.literal('pnl'),
    id: z.string(),
    attributes: z.object({
      ...figureFields,
      breakdown: z
        .union([z.object({ by_id: z.record(z.string(), breakdownEntry) }), z.object({ by_implementation: z.record(z.string(), breakdownEntry) })])
        .optional()
        .meta({ description: 'With a fungible filter: the same figures per fungible id or per `<chain_id>:<address>`, with average buy and sell prices.' }),
    }),
  })
  .meta({ id: 'Pnl' });

export const pnlResponseSchema = z
  .object({
    links: selfLinksSchema,
    data: pnlResourceSchema,
    meta: z.object({ excluded_fungible_ids: z.array(z.string()), excluded_fungible_implementations: z.array(z.string()) }),
  })
  .meta({ id: 'PnlResponse' });

export type PnlResource = z.infer<typeof pnlResourceSchema>;
