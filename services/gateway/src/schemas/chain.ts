import { z } from 'zod';
import { iconSchema } from '@wallet-api/core/resources';
import { relationshipSchema, selfLinksSchema } from './common.js';

export const chainIdParam = z.object({
  chain_id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
});

export const chainResourceSchema = z
  .object({
    type: z.literal('chains'),
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      external_id: z.string(),
      icon: iconSchema,
      explorer: z.object({
        name: z.string(),
        token_url_format: z.string(),
        tx_url_format: z.string(),
        home_url: z.string(),
      }),
      rpc: z.object({
        internal_server_url_format: z.string(),
        public_servers_url: z.array(z.string()),
      }),
      flags: z.object({
        supports_trading: z.boolean(),
        supports_sending: z.boolean(),
        supports_bridge: z.boolean(),
        supports_transactions: z.boolean(),
        supports_positions: z.boolean(),
        supports_nft_positions: z.boolean(),
      }),
    }),
    relationships: z.object({
      native_fungible: relationshipSchema('fungibles'),
      wrapped_native_fungible: relationshipSchema('fungibles').optional(),
    }),
    links: selfLinksSchema,
  })
  .meta({ id: 'Chain' });

export const chainListResponseSchema = z.object({ links: selfLinksSchema, data: z.array(chainResourceSchema) }).meta({ id: 'ChainList' });
export const chainResponseSchema = z.object({ links: selfLinksSchema, data: chainResourceSchema }).meta({ id: 'ChainResponse' });

export type ChainResource = z.infer<typeof chainResourceSchema>;
