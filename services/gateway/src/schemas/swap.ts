import { z } from 'zod';
import { fungibleInfoSchema, quantitySchema } from '@wallet-api/core/resources';
import { relationshipSchema, selfLinksSchema } from './common.js';
import { chainIdPattern, currencyParam, evmAddressPattern } from './wallet-query.js';

const chainIdValue = z.string().regex(chainIdPattern, 'must be 1 to 64 letters, digits, dots, dashes or underscores');
const fungibleIdValue = z.string().min(1, 'must not be empty').max(44, 'must be at most 44 characters');
const evmAddressValue = z.string().regex(evmAddressPattern, 'must be an EVM address (0x and 40 hexadecimal digits)');

/**
 * Spec 4.11 swap parameters. `input[amount]` is a decimal display amount of the input asset
 * (`1.5`), checked against the asset's decimals by reference-data; `output[chain_id]`, when
 * given, must be the input chain (no cross-chain quotes); `to` defaults to `from`.
 */
export const swapQuotesQuery = z
  .object({
    'input[chain_id]': chainIdValue,
    'input[fungible_id]': fungibleIdValue,
    'input[amount]': z.string().regex(/^\d{1,78}(\.\d{1,78})?$/, 'must be a positive decimal amount of the input asset, such as 1.5'),
    'output[chain_id]': chainIdValue.optional(),
    'output[fungible_id]': fungibleIdValue,
    from: evmAddressValue,
    to: evmAddressValue.optional(),
    // Decimal digits only: a number as JavaScript reads it would take 0x10 for 16 and 1e1 for 10.
    slippage_percent: z
      .string()
      .regex(/^\d{1,3}(\.\d{1,9})?$/, 'must be a decimal number greater than 0 and at most 50, such as 0.5')
      .transform(Number)
      .pipe(z.number().gt(0, 'must be greater than 0 and at most 50').max(50, 'must be greater than 0 and at most 50'))
      .default(2)
      .meta({ description: 'The slippage allowed, in percent: a decimal number greater than 0 and at most 50 (digits and one point only).' }),
    currency: currencyParam,
  })
  .refine((query) => query['output[chain_id]'] === undefined || query['output[chain_id]'] === query['input[chain_id]'], {
    message: 'must equal input[chain_id]: cross-chain quotes are not served',
    path: ['output[chain_id]'],
  })
  .refine((query) => query['input[fungible_id]'] !== query['output[fungible_id]'], {
    message: 'must be another fungible than input[fungible_id]',
    path: ['output[fungible_id]'],
  });

/** `GET /v1/swap/fungibles/`: the chain of either side; both given must be the same chain. */
export const swapFungiblesQuery = z
  .object({
    'input[chain_id]': chainIdValue.optional(),
    'output[chain_id]': chainIdValue.optional(),
    currency: currencyParam,
  })
  .refine((query) => query['input[chain_id]'] !== undefined || query['output[chain_id]'] !== undefined, {
    message: 'input[chain_id] or output[chain_id] is required',
    path: ['input[chain_id]'],
  })
  .refine(
    (query) => query['input[chain_id]'] === undefined || query['output[chain_id]'] === undefined || query['input[chain_id]'] === query['output[chain_id]'],
    {
      message: 'must equal input[chain_id]: cross-chain swaps are not served',
      path: ['output[chain_id]'],
    },
  );

const transactionSchema = z.object({
  chain_id: z.string(),
  from: z.string(),
  to: z.string().meta({ description: 'The router.' }),
  data: z.string(),
  value: z.string().meta({ description: 'Wei, decimal: the amount in for native input, else 0.' }),
  gas: z.string().meta({ description: "Gas limit, decimal: the node's estimate plus 25%." }),
});

export const swapQuoteResourceSchema = z
  .object({
    type: z.literal('swap_quotes'),
    id: z.string(),
    attributes: z.object({
      input_amount: quantitySchema,
      output_amount: quantitySchema.meta({ description: "What the route's quoter (V3 QuoterV2) or router (V2 getAmountsOut) returns at the head block." }),
      output_amount_after_fees: quantitySchema.meta({
        description: 'output_amount less the gas fee priced in the output asset at the one price (equal to output_amount without prices).',
      }),
      output_amount_min: quantitySchema.meta({ description: 'output_amount x (1 - slippage_percent / 100), rounded down: the transaction reverts below it.' }),
      price_impact_percent: z
        .number()
        .nullable()
        .meta({ description: 'How much less the output is worth than the input at the one price, in percent; null without prices.' }),
      slippage_percent: z.number(),
      fee: z.object({
        protocol_percent: z.number().meta({ description: 'Share of the input the pools keep: their fee tiers compounded along the route.' }),
        gas: z.object({ quantity: quantitySchema, value: z.number().nullable() }),
      }),
      liquidity_source: z.object({ id: z.string(), name: z.string(), icon: z.object({ url: z.string() }).nullable() }),
      route: z.array(z.string()).meta({ description: 'Pool addresses in swap order.' }),
      asset_spender: z.string().nullable().meta({ description: 'The router to approve for the input token; null for the native asset.' }),
      preconditions_met: z.object({ enough_balance: z.boolean(), enough_allowance: z.boolean() }),
      transaction: transactionSchema.nullable(),
      estimated_seconds: z.number().int(),
      action_id: z.string().nullable().meta({
        description:
          "For organizations with the pending-orders role, on the best quote with a transaction: the unsigned action recorded for the wallet `from` (listed in its transactions' meta.unsigned, built through POST /v1/transactions/build-action/); null on the others.",
      }),
    }),
    relationships: z.object({
      input_fungible: relationshipSchema('fungibles'),
      output_fungible: relationshipSchema('fungibles'),
      input_chain: relationshipSchema('chains'),
      output_chain: relationshipSchema('chains'),
    }),
  })
  .meta({ id: 'SwapQuote' });

export const swapQuotesResponseSchema = z
  .object({
    links: selfLinksSchema,
    data: z.array(swapQuoteResourceSchema),
    meta: z.object({ block_number: z.number().int().meta({ description: 'The head block every quote was read at.' }) }),
  })
  .meta({ id: 'SwapQuoteList' });

export const swapFungibleResourceSchema = z
  .object({ type: z.literal('fungibles'), id: z.string(), attributes: fungibleInfoSchema, links: selfLinksSchema })
  .meta({ id: 'SwapFungible' });

export const swapFungiblesResponseSchema = z.object({ links: selfLinksSchema, data: z.array(swapFungibleResourceSchema) }).meta({ id: 'SwapFungibleList' });

export type SwapQuoteResource = z.infer<typeof swapQuoteResourceSchema>;
