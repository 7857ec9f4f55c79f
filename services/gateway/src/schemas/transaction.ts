import { z } from 'zod';
import { transactionResourceSchema } from '@wallet-api/core/resources';
import { operationTypes } from '@wallet-api/core/transactions';
import { selfLinksSchema } from './common.js';
import { booleanParam, chainIdsFilter, csvList, currencyParam, trashFilterParam } from './wallet-query.js';

const milliseconds = z
  .string()
  .regex(/^\d{1,13}$/, 'must be a unix timestamp in milliseconds (up to 13 digits)')
  .transform((value) => BigInt(value));

export const transactionsQuery = z
  .object({
    currency: currencyParam,
    'filter[chain_ids]': chainIdsFilter.optional(),
    'filter[operation_types]': csvList(
      z.enum(operationTypes, { error: `each value must be one of ${operationTypes.join(', ')}` }),
      operationTypes.length,
    ).optional(),
    'filter[trash]': trashFilterParam,
    'filter[min_mined_at]': milliseconds.optional(),
    'filter[max_mined_at]': milliseconds.optional(),
    'filter[asset_types]': csvList(z.enum(['fungible', 'nft'], { error: 'each value must be fungible or nft' }), 2).optional(),
    'filter[search_query]': z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    'filter[include_pending]': booleanParam,
    'page[lastId]': z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}:\d{1,20}:\d{1,10}$/, 'is not an id this endpoint returned')
      .optional(),
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

export const transactionListResponseSchema = z
  .object({
    links: selfLinksSchema.extend({ next: z.url().optional() }),
    data: z.array(transactionResourceSchema),
    meta: z.object({ pending: z.array(transactionResourceSchema), unsigned: z.array(transactionResourceSchema) }).optional(),
  })
  .meta({ id: 'TransactionList' });

export type TransactionsQuery = z.infer<typeof transactionsQuery>;
