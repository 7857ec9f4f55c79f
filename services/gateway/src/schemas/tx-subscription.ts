import { operationTypes } from '@wallet-api/core/transactions';
import { isBuiltInBurnAddress } from '@wallet-api/core/addresses';
import { z } from 'zod';
import { selfLinksSchema } from './common.js';
import { chainIdPattern, evmAddressPattern, isSolanaAddress } from './wallet-query.js';

// Request bodies are strict at every level: an unknown key is a 400 naming it (decisions.md,
// "Transaction subscriptions"), so a misspelt field never silently does nothing.

/** Spec 8 and decisions.md: wallets added or removed per PATCH, and given on create. */
export const maxWalletChangesPerRequest = 100;
/** PUT /wallets replaces the whole list with at most this many addresses. */
export const maxReplacedWallets = 10_000;
/** Entries of each `filters.exclude` list and of `chain_ids`. */
export const maxFilterValues = 100;
export const maxChainIds = 100;
export const maxCallbackUrlLength = 2048;

const required = (rule: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : rule);
const objectError = (rule: string) => (issue: { code?: string }) => (issue.code === 'invalid_type' ? rule : undefined);

export const isWalletAddress = (value: string) => evmAddressPattern.test(value) || isSolanaAddress(value);

const walletAddress = z
  .string({ error: 'is not an EVM or Solana address' })
  .refine(isWalletAddress, 'is not an EVM or Solana address')
  .meta({ description: 'EVM address (0x and 40 hexadecimal digits, any case) or Solana address (base58, 32 to 44 characters).' });

/** A wallet to watch: no burn address, which every burn of every token pays and no one signs for (the wallet endpoints refuse it too). */
const watchedAddress = walletAddress.refine((address) => !isBuiltInBurnAddress(address), 'is a burn address; its transactions are not tracked');

/**
 * A list of wallet addresses whose size rule names the limit and the count, e.g. `must hold at
 * most 100 addresses (got 101)`. `watched`: addresses to watch (not those to remove).
 */
function addressList(min: number, max: number, watched = true) {
  const rule = min > 0 ? `must be a list of ${min} to ${max} addresses` : `must be a list of at most ${max} addresses`;
  return z.array(watched ? watchedAddress : walletAddress, { error: required(rule) }).superRefine((list, context) => {
    if (list.length < min || list.length > max) context.addIssue({ code: 'custom', message: `${rule} (got ${list.length})`, abort: true });
  });
}

const callbackUrl = z
  .string({ error: required('must be an absolute URL') })
  .max(maxCallbackUrlLength, `must be at most ${maxCallbackUrlLength} characters`)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.host !== '' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  }, 'must be an absolute URL')
  .meta({ description: 'Where webhooks are posted: an https URL the service can reach (checked when set).' });

const chainIds = z
  .array(z.string({ error: 'must be a chain id' }).regex(chainIdPattern, 'must be a chain id'), { error: required('must be a list of chain ids') })
  .max(maxChainIds, `must hold at most ${maxChainIds} chain ids`)
  .meta({
    description: 'Chains to watch; each must report both supports_transactions and supports_positions. Empty: every chain that does (stored empty).',
  });

function valueList<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: `must be a list of ${what}` }).max(maxFilterValues, `must hold at most ${maxFilterValues} ${what}`);
}

export const excludeFiltersSchema = z
  .strictObject(
    {
      operation_types: valueList(z.enum(operationTypes, { error: `must be one of ${operationTypes.join(', ')}` }), 'operation types').optional(),
      trash: z.boolean({ error: 'must be true or false' }).optional().meta({ description: 'true: drop transactions flagged as trash for the wallet.' }),
      dapp_ids: valueList(
        z.string({ error: 'must be a dapp id' }).min(1, 'must be 1 to 32 characters').max(32, 'must be 1 to 32 characters'),
        'dapp ids',
      ).optional(),
      addresses: valueList(walletAddress, 'addresses').optional().meta({ description: 'Counterparty addresses.' }),
    },
    { error: objectError('must be an object') },
  )
  .meta({ id: 'TxSubscriptionExcludeFilters', description: 'Events matching any given criterion are dropped before delivery.' });

export const subscriptionFiltersSchema = z
  .strictObject({ exclude: excludeFiltersSchema.optional() }, { error: objectError('must be an object or null') })
  .meta({ id: 'TxSubscriptionFilters' });

export type SubscriptionFiltersBody = z.infer<typeof subscriptionFiltersSchema>;

const body = <S extends z.ZodRawShape>(shape: S) => z.strictObject(shape, { error: objectError('must be a JSON object') });

export const createSubscriptionBody = body({
  callback_url: callbackUrl,
  addresses: addressList(1, maxWalletChangesPerRequest),
  chain_ids: chainIds.optional(),
  filters: subscriptionFiltersSchema.nullable().optional(),
}).meta({ id: 'CreateTxSubscription' });

export const updateWalletsBody = body({
  add: addressList(0, maxWalletChangesPerRequest).optional(),
  remove: addressList(0, maxWalletChangesPerRequest, false).optional(),
})
  .refine((value) => value.add !== undefined || value.remove !== undefined, 'must contain add, remove or both')
  .meta({ id: 'UpdateTxSubscriptionWallets' });

export const replaceWalletsBody = body({ addresses: addressList(0, maxReplacedWallets) }).meta({ id: 'ReplaceTxSubscriptionWallets' });
export const callbackUrlBody = body({ callback_url: callbackUrl }).meta({ id: 'SetTxSubscriptionCallbackUrl' });
export const chainIdsBody = body({ chain_ids: chainIds }).meta({ id: 'SetTxSubscriptionChainIds' });
export const filtersBody = body({
  filters: subscriptionFiltersSchema
    .nullable()
    .optional()
    .meta({ description: 'Omitted: stored filters unchanged; null: cleared; an object: replaces them wholesale.' }),
}).meta({ id: 'SetTxSubscriptionFilters' });

// Path and query parameters.

const opaqueId = (name: string) => z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, `must be a ${name} this API returned`);

export const subscriptionIdParam = z.object({ subscription_id: opaqueId('subscription id') });
export const deliveryIdParams = z.object({ subscription_id: opaqueId('subscription id'), delivery_id: opaqueId('delivery id') });

function pageSize(max: number) {
  const rule = `must be an integer from 1 to ${max}`;
  return z
    .string()
    .regex(/^\d{1,6}$/, rule)
    .transform(Number)
    .pipe(z.number().min(1, rule).max(max, rule))
    .default(100);
}

const pageAfter = z
  .string({ error: 'must be the cursor links.next gave' })
  .regex(/^[\x21-\x7e]{1,1024}$/, 'must be the cursor links.next gave')
  .optional()
  .meta({ description: 'Opaque cursor; follow links.next rather than building it.' });

export const subscriptionsPageQuery = z.object({ 'page[size]': pageSize(100), 'page[after]': pageAfter });
/** Spec 8: the subscription wallet list pages by up to 2000 (default 100). */
export const walletsPageQuery = z.object({ 'page[size]': pageSize(2000), 'page[after]': pageAfter });
export const deliveriesPageQuery = z.object({ 'page[size]': pageSize(100), 'page[after]': pageAfter });

// Responses.

const pageLinksSchema = selfLinksSchema.extend({ next: z.url().optional() });

export const subscriptionResourceSchema = z
  .object({
    type: z.literal('tx_subscriptions'),
    id: z.string(),
    attributes: z.object({
      callback_url: z.string(),
      chain_ids: z.array(z.string()).meta({ description: 'As stored; empty means every eligible chain.' }),
      enabled: z.boolean(),
      filters: subscriptionFiltersSchema.nullable(),
      wallets_count: z.number().int().min(0),
      created_at: z.iso.datetime({ offset: true }),
      updated_at: z.iso.datetime({ offset: true }),
    }),
    links: selfLinksSchema,
  })
  .meta({ id: 'TxSubscription' });

export const createdSubscriptionResponseSchema = z
  .object({
    links: selfLinksSchema,
    data: subscriptionResourceSchema,
    meta: z.object({ signing_secret: z.string().meta({ description: '`whsec_...`; answered here only.' }) }),
  })
  .meta({ id: 'CreatedTxSubscription' });

export const subscriptionResponseSchema = z.object({ links: selfLinksSchema, data: subscriptionResourceSchema }).meta({ id: 'TxSubscriptionResponse' });
export const subscriptionListResponseSchema = z
  .object({ links: pageLinksSchema, data: z.array(subscriptionResourceSchema) })
  .meta({ id: 'TxSubscriptionList' });

export const subscriptionWalletSchema = z
  .object({ type: z.literal('tx_subscription_wallets'), id: z.string(), attributes: z.object({ address: z.string() }) })
  .meta({ id: 'TxSubscriptionWallet' });
export const walletListResponseSchema = z.object({ links: pageLinksSchema, data: z.array(subscriptionWalletSchema) }).meta({ id: 'TxSubscriptionWalletList' });
export const walletCountResponseSchema = z
  .object({
    links: selfLinksSchema,
    data: z.object({ type: z.literal('tx_subscription_wallets_count'), id: z.string(), attributes: z.object({ count: z.number().int().min(0) }) }),
  })
  .meta({ id: 'TxSubscriptionWalletCount' });

export const signingSecretResponseSchema = z
  .object({
    links: selfLinksSchema,
    data: z.object({
      type: z.literal('tx_subscription_signing_secrets'),
      id: z.string(),
      attributes: z.object({
        signing_secret: z.string(),
        previous_expires_at: z.iso.datetime({ offset: true }).meta({ description: 'Until then the previous secret keeps signing alongside the new one.' }),
      }),
    }),
  })
  .meta({ id: 'TxSubscriptionSigningSecret' });

export const deliveryResourceSchema = z
  .object({
    type: z.literal('webhook_deliveries'),
    id: z.string().meta({ description: 'The webhook-id header and data.id of the webhook body.' }),
    attributes: z.object({
      address: z.string(),
      chain_id: z.string(),
      transaction_hash: z.string(),
      block_number: z.number().int().min(0),
      deleted: z.boolean().meta({ description: 'A rollback notification.' }),
      status: z.string().meta({ description: '`pending`, `delivered` or `failed`; clients tolerate other values.' }),
      attempt_count: z.number().int().min(0),
      created_at: z.iso.datetime({ offset: true }),
      next_attempt_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'null unless pending.' }),
      delivered_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'null unless delivered.' }),
      attempts: z.array(
        z.object({
          number: z.number().int().min(1),
          started_at: z.iso.datetime({ offset: true }),
          status_code: z.number().int().nullable().meta({ description: 'null when no HTTP answer came.' }),
          latency_ms: z.number().int().min(0),
          error: z.string().nullable(),
        }),
      ),
    }),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListResponseSchema = z.object({ links: pageLinksSchema, data: z.array(deliveryResourceSchema) }).meta({ id: 'WebhookDeliveryList' });
export const deliveryResponseSchema = z.object({ links: selfLinksSchema, data: deliveryResourceSchema }).meta({ id: 'WebhookDeliveryResponse' });

export type SubscriptionResource = z.infer<typeof subscriptionResourceSchema>;
export type DeliveryResource = z.infer<typeof deliveryResourceSchema>;
