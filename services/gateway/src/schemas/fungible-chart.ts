import { z } from 'zod';
import { chartPeriods } from '@wallet-api/core/charts';
import { relationshipSchema, selfLinksSchema } from './common.js';
import { chainIdPattern, currencyParam, evmAddressPattern, isSolanaAddress } from './wallet-query.js';

/** Spec 4.1 path parameter `chart_period`, the periods the wallet charts have. */
const chartPeriodParam = z.enum(chartPeriods, { error: `must be one of ${chartPeriods.join(', ')}` });

/** decisions.md: fungible ids are at most 44 characters. */
export const fungibleChartParams = z.object({
  fungible_id: z.string().min(1, 'must not be empty').max(44, 'must be at most 44 characters'),
  chart_period: chartPeriodParam,
});

export const byImplementationChartParams = z.object({ chart_period: chartPeriodParam });

export const fungibleChartQuery = z.object({ currency: currencyParam });

const implementationForm = '<chain_id>:<address>, or <chain_id> alone for the native asset';

/** A fungible's implementation as spec 4.11 writes it. */
export interface ImplementationRef {
  chainId: string;
  /** '' for the chain's native asset. */
  address: string;
}

/** Why `value` is not spec 4.11's implementation form; undefined when it is. */
export function implementationProblem(value: string): string | undefined {
  const colon = value.indexOf(':');
  const chainId = colon === -1 ? value : value.slice(0, colon);
  const address = colon === -1 ? undefined : value.slice(colon + 1);
  if (!chainIdPattern.test(chainId)) return `must be ${implementationForm} (chain id of letters, digits, "_", "." or "-")`;
  if (address !== undefined && !evmAddressPattern.test(address) && !isSolanaAddress(address))
    return `address must be an EVM address (0x and 40 hex digits) or a Solana address (${implementationForm})`;
  return undefined;
}

export const implementationParam = z
  .string({ error: `is required: ${implementationForm}` })
  .transform((value, context): ImplementationRef => {
    const problem = implementationProblem(value);
    if (problem) {
      context.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    const colon = value.indexOf(':');
    return colon === -1 ? { chainId: value, address: '' } : { chainId: value.slice(0, colon), address: value.slice(colon + 1) };
  })
  .meta({ description: `The implementation: ${implementationForm}.` });

export const byImplementationChartQuery = fungibleChartQuery.extend({ implementation: implementationParam });

const statsSchema = z
  .object({
    first: z.number().nullable(),
    min: z.number().nullable(),
    avg: z.number().nullable(),
    max: z.number().nullable(),
    last: z.number().nullable(),
  })
  .meta({ description: 'Over the points served; all null when there are none.' });

/** decisions.md "Fungibles": type `fungible_charts`, id `<fungible_id>-<chart_period>`. */
export const fungibleChartResourceSchema = z
  .object({
    type: z.literal('fungible_charts'),
    id: z.string(),
    attributes: z.object({
      begin_at: z.iso.datetime(),
      end_at: z.iso.datetime(),
      stats: statsSchema,
      points: z.array(z.tuple([z.number().int(), z.number()])).meta({
        description: '`[unix_time_seconds, price]` pairs, oldest first; a point of the window without a price at its time (before the first one) is left out.',
      }),
    }),
    relationships: z.object({ fungible: relationshipSchema('fungibles') }),
  })
  .meta({ id: 'FungibleChart' });

export const fungibleChartResponseSchema = z.object({ links: selfLinksSchema, data: fungibleChartResourceSchema }).meta({ id: 'FungibleChartResponse' });

export type FungibleChartResource = z.infer<typeof fungibleChartResourceSchema>;
export type FungibleChartStats = z.infer<typeof statsSchema>;
