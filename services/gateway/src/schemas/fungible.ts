import { z } from 'zod';
import { chartPeriods } from '@wallet-api/core/charts';
import { assetClasses, fungibleInfoSchema, marketDataSchema } from '@wallet-api/core/resources';
import { selfLinksSchema } from './common.js';
import { chainIdPattern, csvList, currencyParam, isEvmAddress, isSolanaAddress } from './wallet-query.js';
import { pageAfterParam } from './nft-query.js';

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const notEmpty = 'must not be empty';
/** Spec 4.11: an empty filter value gives 400. */
const filterText = () => z.string().trim().min(1, notEmpty);

/** decisions.md "Fungibles" sorts; market cap descending by default. */
export const fungibleSorts = [
  '-market_data.market_cap',
  'market_data.market_cap',
  '-market_data.price.last',
  'market_data.price.last',
  '-market_data.trading_volumes.volume_1d',
  'market_data.trading_volumes.volume_1d',
] as const;
export type FungibleSortParam = (typeof fungibleSorts)[number];

const pageSizeMessage = 'must be an integer from 1 to 100';

/** `<chain_id>:<address>` of `filter[fungible_implementations]`. */
const implementationItem = z.string().refine((value) => {
  const separator = value.indexOf(':');
  if (separator <= 0) return false;
  const address = value.slice(separator + 1);
  return chainIdPattern.test(value.slice(0, separator)) && (isEvmAddress(address) || isSolanaAddress(address));
}, 'each value must be <chain_id>:<address> with an EVM or Solana address');

/** Fungible ids: opaque, at most 44 characters (decisions.md "General"). */
const fungibleIdItem = z.string().max(44, 'each fungible id must be at most 44 characters');

/**
 * Spec 4.11 `GET /v1/fungibles/`. Unknown `filter[...]` keys are dropped by the object (the spec
 * says they are ignored); which combinations are allowed and which chain ids are listed is checked
 * by the route.
 */
export const fungiblesListQuery = z.object({
  currency: currencyParam,
  'filter[search_query]': filterText().max(128, 'must be at most 128 characters').optional().meta({
    description:
      'Name or symbol, prefix and case-insensitive: exact symbol first, then symbol prefix, name prefix, word or substring; verified before unverified; spam left out.',
  }),
  'filter[implementation_chain_id]': filterText()
    .regex(chainIdPattern, 'must be a chain id (1 to 64 letters, digits, dots, dashes or underscores)')
    .optional()
    .meta({ description: 'Fungibles with an implementation on this chain; a chain the network does not list gives 400.' }),
  'filter[implementation_address]': filterText()
    .min(32, 'must be at least 32 characters (an EVM or Solana address)')
    .refine((value) => isEvmAddress(value) || isSolanaAddress(value), 'address should be a valid EVM or Solana address')
    .optional()
    .meta({ description: 'Fungibles with an implementation at this address on any chain.' }),
  'filter[fungible_implementations]': filterText()
    .pipe(csvList(implementationItem, 100))
    .optional()
    .meta({ description: 'Comma-separated `<chain_id>:<address>`, at most 100.' }),
  'filter[fungible_ids]': filterText().pipe(csvList(fungibleIdItem, 100)).optional().meta({ description: 'Comma-separated fungible ids, at most 100.' }),
  'filter[asset_class]': filterText()
    .pipe(csvList(z.enum(assetClasses, { error: `each value ${oneOf(assetClasses)}` }), assetClasses.length))
    .optional()
    .meta({ description: 'Comma-separated asset classes; needs the classification add-on (else 403).' }),
  'filter[has_asset_class]': z
    .enum(['true'], { error: 'must be true (false is not supported)' })
    .optional()
    .meta({ description: 'Only `true`: classified fungibles; needs the classification add-on (else 403).' }),
  sort: z
    .enum(fungibleSorts, { error: oneOf(fungibleSorts) })
    .default('-market_data.market_cap')
    .meta({ description: 'Default `-market_data.market_cap`; `-` sorts descending; fungibles without the value come last.' }),
  'page[size]': z
    .string()
    .regex(/^\d{1,4}$/, pageSizeMessage)
    .transform(Number)
    .pipe(z.number().min(1, pageSizeMessage).max(100, pageSizeMessage))
    .default(100)
    .meta({ description: 'Items a page, 1 to 100; default 100.' }),
  'page[after]': pageAfterParam.optional(),
});

export const fungibleIdParam = z.object({
  fungible_id: z.string().min(1, notEmpty).max(44, 'must be at most 44 characters (a fungible id)'),
});

/** `<chain_id>:<address>`, or `<chain_id>` alone for the chain's native asset. */
export const byImplementationQuery = z.object({
  currency: currencyParam,
  implementation: z
    .string({ error: 'is required: <chain_id>:<address>, or <chain_id> alone for the native asset' })
    .trim()
    .min(1, notEmpty)
    .refine((value) => {
      const [chainId, address, ...rest] = value.split(':');
      return rest.length === 0 && chainIdPattern.test(chainId!) && (address === undefined || isEvmAddress(address) || isSolanaAddress(address));
    }, 'must be <chain_id>:<address> with an EVM or Solana address, or <chain_id> alone for the native asset'),
});

const chartLinkSchema = z.object({ links: z.object({ related: z.url() }) });

/** Spec 2.2 on the fungibles list: `address` '' for native assets; per implementation its own volume and creation time. */
export const listedFungibleAttributesSchema = fungibleInfoSchema.omit({ id: true, implementations: true }).extend({
  implementations: z.array(
    z.object({
      chain_id: z.string(),
      decimals: z.number().int(),
      address: z.string().meta({ description: "Empty string for a chain's native asset on this list." }),
      market_data: z.object({ trading_volumes: z.object({ volume_1d: z.number().nullable() }) }),
      deployment_date: z.string().nullable().meta({ description: "ISO 8601 block time of the contract's creation; null for native assets and where unknown." }),
    }),
  ),
  market_data: marketDataSchema,
});

export const fungibleResourceSchema = z
  .object({
    type: z.literal('fungibles'),
    id: z.string(),
    attributes: listedFungibleAttributesSchema,
    // Spec 4.11: each chart period of the fungible as a link to /v1/fungibles/{id}/charts/{period}.
    relationships: z.object(Object.fromEntries(chartPeriods.map((period) => [`chart_${period}`, chartLinkSchema]))),
    links: selfLinksSchema,
  })
  .meta({ id: 'Fungible' });

export type FungibleResource = z.infer<typeof fungibleResourceSchema>;

export const fungibleListResponseSchema = z.object({
  links: z.object({ self: z.url(), next: z.url().optional() }),
  data: z.array(fungibleResourceSchema),
});

export const fungibleResponseSchema = z.object({ links: selfLinksSchema, data: fungibleResourceSchema });
