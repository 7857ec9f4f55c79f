import { z } from 'zod';
import { iconSchema } from './common.js';

/** Spec 2.1: `float` and `numeric` both equal `int / 10^decimals`. */
export const quantitySchema = z
  .object({ int: z.string(), decimals: z.number().int(), float: z.number(), numeric: z.string() })
  .meta({ id: 'Quantity' });

/** Spec 2.2; `address` is null for a chain's native asset on wallet endpoints. */
export const fungibleInfoSchema = z
  .object({
    name: z.string(),
    symbol: z.string(),
    icon: iconSchema.nullable(),
    flags: z.object({ verified: z.boolean() }),
    implementations: z.array(z.object({ chain_id: z.string(), decimals: z.number().int(), address: z.string().nullable() })),
    id: z.string(),
  })
  .meta({ id: 'FungibleInfo' });
