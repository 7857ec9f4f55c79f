import { z } from 'zod';
import { fungibleInfoSchema, quantitySchema } from './asset.js';
import { iconSchema, selfLinksSchema } from './common.js';
import { booleanParam, chainIdsFilter, csvList, currencyParam, trashFilterParam } from './wallet-query.js';

/** decisions.md, "Transaction types". */
export const operationTypes = [
  'approve', 'bid', 'burn', 'claim', 'delegate', 'deploy', 'deposit', 'execute', 'mint', 'receive', 'revoke',
  'revoke_delegation', 'send', 'trade', 'withdraw',
] as const;

const milliseconds = z
  .string()
  .regex(/^\d{1,13}$/, 'must be a unix timestamp in milliseconds (up to 13 digits)')
  .transform((value) => BigInt(value));

export const transactionsQuery = z
  .object({
    currency: currencyParam,
    'filter[chain_ids]': chainIdsFilter.optional(),
    'filter[operation_types]': csvList(z.enum(operationTypes, { error: `each value must be one of ${operationTypes.join(', ')}` }), operationTypes.length).optional(),
    'filter[trash]': trashFilterParam,
    'filter[min_mined_at]': milliseconds.optional(),
    'filter[max_mined_at]': milliseconds.optional(),
    'filter[asset_types]': csvList(z.enum(['fungible', 'nft'], { error: 'each value must be fungible or nft' }), 2).optional(),
    'filter[search_query]': z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    'filter[include_pending]': booleanParam,
    'page[lastId]': z.string().regex(/^[A-Za-z0-9_.-]{1,64}:\d{1,20}:\d{1,10}$/, 'is not an id this endpoint returned').optional(),
    'page[lastTimestamp]': milliseconds.optional(),
    'page[size]': z
      .string()
      .regex(/^\d{1,4}$/, 'must be an integer from 1 to 100')
      .transform(Number)
      .pipe(z.number().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100'))
      .default(100),
  })
  .superRefine((query, context) => {
    const min = query['filter[min_mined_at]'];
    const max = query['filter[max_mined_at]'];
    if (min !== undefined && max !== undefined && min > max) {
      context.addIssue({ code: 'custom', path: ['filter[min_mined_at]'], message: 'must not be later than filter[max_mined_at]' });
    }
    if ((query['page[lastId]'] === undefined) !== (query['page[lastTimestamp]'] === undefined)) {
      context.addIssue({ code: 'custom', path: ['page[lastId]'], message: 'page[lastId] and page[lastTimestamp] go together, as links.next gives them' });
    }
  });

const contentItemSchema = z.object({ url: z.string(), content_type: z.string() });

export const nftInfoSchema = z
  .object({
    contract_address: z.string(),
    token_id: z.string(),
    name: z.string(),
    interface: z.string(),
    flags: z.object({ is_spam: z.boolean() }),
    content: z.object({
      preview: contentItemSchema.optional(),
      detail: contentItemSchema.optional(),
      audio: contentItemSchema.optional(),
      video: contentItemSchema.optional(),
    }),
  })
  .meta({ id: 'NftInfo' });

const applicationMetadataSchema = z.object({
  contract_address: z.string(),
  name: z.string().nullable(),
  icon: iconSchema.nullable(),
  method: z.object({ id: z.string(), name: z.string() }).nullable(),
});

export const transactionResourceSchema = z
  .object({
    type: z.literal('transactions'),
    id: z.string(),
    attributes: z.object({
      operation_type: z.string(),
      hash: z.string(),
      mined_at_block: z.number().int(),
      mined_at: z.string(),
      sent_from: z.string(),
      sent_to: z.string(),
      status: z.string(),
      nonce: z.number().int(),
      fee: z.object({ fungible_info: fungibleInfoSchema.nullable(), quantity: quantitySchema, price: z.number().nullable(), value: z.number().nullable() }),
      transfers: z.array(
        z.object({
          direction: z.enum(['in', 'out', 'self']),
          quantity: quantitySchema,
          value: z.number().nullable(),
          price: z.number().nullable(),
          sender: z.string(),
          recipient: z.string(),
          act_id: z.string(),
          fungible_info: fungibleInfoSchema.nullable(),
          nft_info: nftInfoSchema.nullable(),
        }),
      ),
      approvals: z.array(
        z.object({
          quantity: quantitySchema,
          sender: z.string(),
          spender: z.string(),
          act_id: z.string(),
          fungible_info: fungibleInfoSchema.nullable(),
          nft_info: nftInfoSchema.nullable(),
        }),
      ),
      address: z.string(),
      collection_approvals: z.array(
        z.object({
          cancelled: z.boolean(),
          spender: z.string(),
          act_id: z.string(),
          collection_info: z.object({ id: z.string(), name: z.string(), icon_url: z.string().nullable() }),
        }),
      ),
      delegations: z.array(z.object({ address: z.string(), act_id: z.string(), chain_id: z.string() })),
      application_metadata: applicationMetadataSchema.nullable(),
      flags: z.object({ is_trash: z.boolean() }),
      acts: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          fee_kind: z.enum(['ui', 'tip']).optional(),
          sent_from: z.string(),
          application_metadata: applicationMetadataSchema.omit({ method: true }).optional(),
        }),
      ),
      paymaster: z.string().nullable(),
    }),
    relationships: z.object({
      chain: z.object({ links: z.object({ related: z.url() }), data: z.object({ type: z.literal('chains'), id: z.string() }) }),
      dapp: z.object({ data: z.object({ type: z.literal('dapps'), id: z.string() }) }).optional(),
    }),
  })
  .meta({ id: 'Transaction' });

export const transactionListResponseSchema = z
  .object({
    links: selfLinksSchema.extend({ next: z.url().optional() }),
    data: z.array(transactionResourceSchema),
    meta: z.object({ pending: z.array(transactionResourceSchema), unsigned: z.array(transactionResourceSchema) }).optional(),
  })
  .meta({ id: 'TransactionList' });

export type TransactionResource = z.infer<typeof transactionResourceSchema>;
export type TransactionsQuery = z.infer<typeof transactionsQuery>;
