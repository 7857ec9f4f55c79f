import { z } from 'zod';
import { iconSchema } from '@wallet-api/core/resources';
import { selfLinksSchema } from './common.js';
import { pageAfterParam } from './nft-query.js';
import { csvList } from './wallet-query.js';

const pageSizeRule = 'must be an integer from 1 to 100';

/** decisions.md "Dapps and NFT positions" and spec 8: `page[size]` 1 to 100, default 100; `filter[dapp_ids]` as the positions filter. */
export const dappsQuery = z.object({
  'page[size]': z
    .string()
    .regex(/^\d{1,4}$/, pageSizeRule)
    .transform(Number)
    .pipe(z.number().min(1, pageSizeRule).max(100, pageSizeRule))
    .default(100)
    .meta({ description: 'Dapps a page, 1 to 100; default 100.' }),
  'page[after]': pageAfterParam.optional(),
  'filter[dapp_ids]': csvList(z.string().max(32, 'each dapp id must be 1 to 32 characters'), 25)
    .optional()
    .meta({ description: 'At most 25 dapp ids, each 1 to 32 characters; unknown ids match nothing.' }),
});

/** Spec 2.1 ExternalLink. */
export const externalLinkSchema = z.object({ url: z.string(), type: z.string(), name: z.string() }).meta({ id: 'ExternalLink' });

/** Spec 2.9. */
export const dappResourceSchema = z
  .object({
    type: z.literal('dapps'),
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      description: z.string(),
      icon: iconSchema,
      url: z.string(),
      manage_positions_url: z.string(),
      external_links: z.array(externalLinkSchema),
    }),
  })
  .meta({ id: 'Dapp' });

export const dappListResponseSchema = z
  .object({ links: selfLinksSchema.extend({ next: z.url().optional() }), data: z.array(dappResourceSchema) })
  .meta({ id: 'DappList' });

export type DappResource = z.infer<typeof dappResourceSchema>;
