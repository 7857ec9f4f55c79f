import { z } from 'zod';
import { fungibleInfoSchema, iconSchema, quantitySchema } from './asset-schema.js';

const contentItemSchema = z.object({ url: z.string(), content_type: z.string() });

export const nftInfoSchema = z
  .object({
    contract_address: z.string(),
    token_id: z.string(),
    name: z.string(),
    // decisions.md "NFTs": lowercase, as the incumbent writes them.
    interface: z.enum(['erc721', 'erc1155']),
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
      mined_at_block: z.number().int().nullable().meta({ description: 'null on pending and unsigned actions (meta.pending, meta.unsigned).' }),
      mined_at: z.string().meta({ description: 'Pending and unsigned actions: when first seen in the pool or created.' }),
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
      // Spec 2.5: only the resources of meta.pending and meta.unsigned carry these.
      available_at: z.string().nullable().optional().meta({ description: 'Pending and unsigned actions only: when the action became available.' }),
      expires_at: z.string().nullable().optional().meta({ description: 'Pending and unsigned actions only: when the action expires; null when it does not.' }),
    }),
    relationships: z.object({
      chain: z.object({ links: z.object({ related: z.url() }), data: z.object({ type: z.literal('chains'), id: z.string() }) }),
      dapp: z.object({ data: z.object({ type: z.literal('dapps'), id: z.string() }) }).optional(),
    }),
  })
  .meta({ id: 'Transaction' });

export type TransactionResource = z.infer<typeof transactionResourceSchema>;
