import { z } from 'zod';

/** Spec 2.1 Icon. */
export const iconSchema = z.object({ url: z.string() }).meta({ id: 'Icon' });

/** Spec 2.1: `float` and `numeric` both equal `int / 10^decimals`. */
export const quantitySchema = z.object({ int: z.string(), decimals: z.number().int(), float: z.number(), numeric: z.string() }).meta({ id: 'Quantity' });

/** Spec 2.2 `asset_class` values. */
export const assetClasses = ['commodity', 'tokenized_stock', 'tokenized_treasury', 'stablecoin', 'other_financial', 'other_non_financial', 'unknown'] as const;
export type AssetClass = (typeof assetClasses)[number];

const known = z.number().nullable();

/** Spec 2.2 `market_data`, in the request's currency; null where the service knows no value. */
export const marketDataSchema = z
  .object({
    price: known.meta({ description: 'Latest price, from the indexed on-chain pools.' }),
    total_supply: known.meta({ description: 'totalSupply() of every implementation, summed in whole tokens; null for a native asset.' }),
    circulating_supply: known.meta({ description: 'Total supply less the balances of known non-circulating holders (treasuries, vesting).' }),
    fully_diluted_valuation: known.meta({ description: 'total_supply times price.' }),
    market_cap: known.meta({ description: 'circulating_supply times price.' }),
    changes: z.object({ percent_1d: known, percent_30d: known, percent_90d: known, percent_365d: known }).meta({
      description: 'Price change against 1, 30, 90 and 365 days ago, in percent; null without a price then.',
    }),
    trading_volumes: z.object({
      volume_1d: known.meta({ description: 'Value swapped in the indexed pools over the last 24 hours.' }),
    }),
  })
  .meta({ id: 'FungibleMarketData' });

/** Spec 2.2; `address` is null for a chain's native asset on wallet endpoints. */
export const fungibleInfoSchema = z
  .object({
    name: z.string(),
    symbol: z.string(),
    icon: iconSchema.nullable(),
    flags: z.object({ verified: z.boolean().meta({ description: 'On the curated list of verified tokens.' }) }),
    implementations: z
      .array(z.object({ chain_id: z.string(), decimals: z.number().int(), address: z.string().nullable() }))
      .meta({ description: "The asset on every chain it lives on (one fungible for the same asset across chains); address null for a chain's native asset." }),
    id: z.string(),
    asset_class: z.enum(assetClasses).optional().meta({ description: 'Only for organizations with the classification add-on; omitted when unclassified.' }),
    description: z.string(),
    market_data: marketDataSchema,
  })
  .meta({ id: 'FungibleInfo' });

export type FungibleInfo = z.infer<typeof fungibleInfoSchema>;
