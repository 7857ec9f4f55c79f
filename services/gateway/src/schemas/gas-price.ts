import { z } from 'zod';
import { relationshipSchema } from './common.js';
import { chainIdsFilter, csvList } from './wallet-query.js';

/** decisions.md "Gas prices" `gas_type`. */
export const gasTypes = ['classic', 'eip1559', 'optimistic'] as const;
export type GasTypeName = (typeof gasTypes)[number];

export const gasPricesQuery = z.object({
  'filter[chain_ids]': chainIdsFilter
    .optional()
    .meta({ description: 'At most 25 chains of the network (X-Env); default every EVM chain. A chain without gas prices (Solana) named here is a 400.' }),
  'filter[gas_types]': csvList(z.enum(gasTypes, { error: `each value must be one of ${gasTypes.join(', ')}` }), gasTypes.length)
    .optional()
    .meta({ description: '`classic`, `eip1559`, `optimistic`; default all.' }),
});

// Wei as JSON integers, as the incumbent serves them (exact up to 2^53 wei, 9 million gwei).
const wei = z.number().int().nonnegative();

const classicInfoSchema = z.object({ slow: wei, standard: wei, fast: wei, rapid: wei }).meta({ id: 'ClassicGasInfo' });

const eip1559SpeedSchema = z.object({ priority_fee: wei, max_fee: wei, estimation_seconds: z.number().nonnegative() }).meta({ id: 'Eip1559GasSpeed' });

const eip1559InfoSchema = z
  .object({ base_fee: wei, slow: eip1559SpeedSchema, standard: eip1559SpeedSchema, fast: eip1559SpeedSchema, rapid: eip1559SpeedSchema })
  .meta({ id: 'Eip1559GasInfo' });

const attributes = <T extends GasTypeName, I extends z.ZodType>(gasType: T, info: I) =>
  z.object({ updated_at: z.iso.datetime(), gas_type: z.literal(gasType), info });

export const gasPriceResourceSchema = z
  .object({
    type: z.literal('gas-prices'),
    /** `<chain id>-<gas type>`. */
    id: z.string(),
    attributes: z.union([attributes('classic', classicInfoSchema), attributes('eip1559', eip1559InfoSchema)]),
    relationships: z.object({ chain: relationshipSchema('chains') }),
    meta: z.object({ block_number: z.number().int().nonnegative().meta({ description: 'The newest block the prices were computed from.' }) }),
  })
  .meta({ id: 'GasPrice' });

export const gasPriceListResponseSchema = z.object({ links: z.object({ self: z.url() }), data: z.array(gasPriceResourceSchema) }).meta({ id: 'GasPriceList' });

export type GasPriceResource = z.infer<typeof gasPriceResourceSchema>;
