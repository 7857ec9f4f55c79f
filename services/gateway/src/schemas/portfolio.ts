import { z } from 'zod';
import { selfLinksSchema } from './common.js';
import { booleanParam, currencyParam, positionsFilterParam } from './wallet-query.js';

/** Spec 4.3. Unknown parameters are ignored. */
export const portfolioQuery = z.object({
  'filter[positions]': positionsFilterParam,
  currency: currencyParam,
  sync: booleanParam.meta({ description: '`true` re-reads protocol positions from the chains first, waiting up to 30 seconds.' }),
});

/** decisions.md, "Portfolio": the five position groups are always present. */
export const portfolioTypes = ['wallet', 'deposited', 'borrowed', 'locked', 'staked'] as const;

export const portfolioResourceSchema = z
  .object({
    type: z.literal('portfolio'),
    id: z.string(),
    attributes: z.object({
      positions_distribution_by_type: z.object({ wallet: z.number(), deposited: z.number(), borrowed: z.number(), locked: z.number(), staked: z.number() }),
      positions_distribution_by_chain: z.record(z.string(), z.number()),
      total: z.object({ positions: z.number() }),
      changes: z.object({ absolute_1d: z.number(), percent_1d: z.number() }),
    }),
  })
  .meta({ id: 'Portfolio' });

export const portfolioResponseSchema = z.object({ links: selfLinksSchema, data: portfolioResourceSchema }).meta({ id: 'PortfolioResponse' });

export type PortfolioResource = z.infer<typeof portfolioResourceSchema>;
