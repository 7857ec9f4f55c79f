import { z } from 'zod';
import { fungibleInfoSchema, quantitySchema } from '@wallet-api/core/resources';
import { iconSchema } from '@wallet-api/core/resources';
import { relationshipSchema, selfLinksSchema } from './common.js';
import { booleanParam, chainIdsFilter, csvList, currencyParam, positionsFilterParam, trashFilterParam } from './wallet-query.js';

/** Spec 2.3 `position_type`. */
export const positionTypes = ['deposit', 'loan', 'locked', 'staked', 'reward', 'wallet', 'investment'] as const;

/** Spec 4.4 and its limits (section 8). Unknown parameters, `page[size]` among them, are ignored. */
export const positionsQuery = z.object({
  'filter[positions]': positionsFilterParam,
  currency: currencyParam,
  'filter[position_types]': csvList(z.enum(positionTypes, { error: `each value must be one of ${positionTypes.join(', ')}` }), 8).optional(),
  'filter[chain_ids]': chainIdsFilter.optional(),
  'filter[fungible_ids]': csvList(z.string().max(44, 'each fungible id must be at most 44 characters'), 25).optional(),
  'filter[dapp_ids]': csvList(z.string().max(32, 'each dapp id must be 1 to 32 characters'), 25).optional(),
  'filter[trash]': trashFilterParam,
  sort: z
    .enum(['value', '-value'], { error: 'must be value (largest value first) or -value (smallest first)' })
    .default('value')
    .meta({ description: '`value` (default): largest value first; `-value`: smallest first.' }),
  sync: booleanParam.meta({ description: '`true` re-reads protocol positions from the chains first, waiting up to 30 seconds.' }),
});

const changesSchema = z.object({ absolute_1d: z.number().nullable(), percent_1d: z.number().nullable() });

const receiptSchema = z.union([
  z.object({ fungible_info: fungibleInfoSchema, quantity: quantitySchema.optional() }),
  z.object({
    nft_info: z.object({
      chain_id: z.string(),
      contract_address: z.string(),
      token_id: z.string(),
      // decisions.md "NFTs": every NFT on the wire names its lowercase interface, receipts too.
      interface: z.enum(['erc721', 'erc1155']),
    }),
  }),
]);

export const positionResourceSchema = z
  .object({
    type: z.literal('positions'),
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      quantity: quantitySchema,
      parent: z.string().nullable(),
      protocol: z.string().nullable(),
      protocol_module: z.string().nullable(),
      pool_address: z.string().nullable(),
      group_id: z.string().nullable(),
      position_type: z.enum(positionTypes),
      value: z.number().nullable(),
      price: z.number().nullable(),
      changes: changesSchema.nullable(),
      fungible_info: fungibleInfoSchema,
      flags: z.object({ displayable: z.boolean(), is_trash: z.boolean() }),
      updated_at: z.iso.datetime(),
      updated_at_block: z.number().int(),
      application_metadata: z.object({ name: z.string(), icon: iconSchema.nullable(), url: z.string() }).optional(),
      receipt: receiptSchema.optional(),
    }),
    relationships: z.object({
      chain: relationshipSchema('chains'),
      fungible: relationshipSchema('fungibles').optional(),
      dapp: z.object({ data: z.object({ type: z.literal('dapps'), id: z.string() }) }).optional(),
    }),
  })
  .meta({ id: 'Position' });

export const positionListResponseSchema = z.object({ links: selfLinksSchema, data: z.array(positionResourceSchema) }).meta({ id: 'PositionList' });

export type PositionResource = z.infer<typeof positionResourceSchema>;
export type PositionsQuery = z.infer<typeof positionsQuery>;
