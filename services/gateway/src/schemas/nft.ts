import { z } from 'zod';
import { iconSchema, quantitySchema } from '@wallet-api/core/resources';
import { relationshipSchema, selfLinksSchema } from './common.js';

/** Spec 2.1 ContentItem. */
export const contentItemSchema = z
  .object({ url: z.string(), content_type: z.string().meta({ description: 'Media type, e.g. image/png.' }) })
  .meta({ id: 'ContentItem' });

/** An NFT's media; null where the token's metadata names none (or is not read yet). */
export const nftContentSchema = z
  .object({
    preview: contentItemSchema.nullable(),
    detail: contentItemSchema.nullable(),
    audio: contentItemSchema.nullable(),
    video: contentItemSchema.nullable(),
  })
  .meta({ id: 'NftContent' });

/** decisions.md "NFTs": lowercase, everywhere an NFT appears. */
export const nftInterfaceSchema = z.enum(['erc721', 'erc1155']);

/** Spec 2.5 `nft_info` as the NFT endpoints write it: every content item present, null when absent. */
export const nftPositionInfoSchema = z
  .object({
    contract_address: z.string(),
    token_id: z.string(),
    name: z.string(),
    interface: nftInterfaceSchema,
    flags: z.object({ is_spam: z.boolean() }),
    content: nftContentSchema,
  })
  .meta({ id: 'NftPositionInfo' });

/** Spec 2.6 `collection_info`. */
export const collectionInfoSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    content: z.object({ icon: iconSchema.nullable(), banner: contentItemSchema.nullable() }),
  })
  .meta({ id: 'NftCollectionInfo' });

/** decisions.md "NFTs": collection ids are integers. */
const collectionRelationshipSchema = z.object({ data: z.object({ type: z.literal('nft_collections'), id: z.number().int() }) });

export const nftPositionResourceSchema = z
  .object({
    type: z.literal('nft_positions'),
    id: z.string(),
    attributes: z.object({
      changed_at: z.iso.datetime().meta({ description: 'When the amount held last changed.' }),
      amount: z.string().meta({ description: 'Tokens held, decimal (1 for an ERC-721).' }),
      price: z.number().nullable().meta({ description: "The collection's floor price; null without an active listing or price." }),
      value: z.number().nullable().meta({ description: 'amount times price; null without a price.' }),
      nft_info: nftPositionInfoSchema,
      collection_info: collectionInfoSchema,
    }),
    relationships: z.object({
      chain: relationshipSchema('chains'),
      nft_collection: collectionRelationshipSchema,
      nft: z.object({ data: z.object({ type: z.literal('nfts'), id: z.string() }) }),
    }),
  })
  .meta({ id: 'NftPosition' });

/** Spec 2.7. */
export const nftResourceSchema = z
  .object({
    type: z.literal('nfts'),
    id: z.string(),
    attributes: z.object({
      contract_address: z.string(),
      token_id: z.string(),
      interface: nftInterfaceSchema,
      metadata: z.object({
        name: z.string(),
        description: z.string(),
        tags: z.array(z.string()),
        content: nftContentSchema,
        attributes: z.array(z.object({ key: z.string(), value: z.string() })),
      }),
      market_data: z.object({
        prices: z.object({ floor: z.number().nullable().meta({ description: "The collection's floor; null without an active listing or price." }) }),
        last_sale: z
          .object({ price: z.number().nullable().meta({ description: 'null when the payment asset has no price.' }), quantity: quantitySchema })
          .nullable()
          .meta({ description: 'null when no sale is known.' }),
      }),
      external_links: z.array(z.object({ url: z.string(), type: z.string(), name: z.string() })),
      flags: z.object({ is_spam: z.boolean() }),
    }),
    relationships: z.object({
      chain: relationshipSchema('chains'),
      nft_collection: collectionRelationshipSchema,
    }),
  })
  .meta({ id: 'Nft' });

/** Spec 2.8. */
export const nftCollectionResourceSchema = z
  .object({
    type: z.literal('nft_collections'),
    id: z.number().int(),
    attributes: z.object({
      metadata: z.object({
        name: z.string(),
        description: z.string(),
        content: z.object({ icon: iconSchema.nullable(), banner: contentItemSchema.nullable() }),
        payment_token_symbol: z.string().meta({ description: "Symbol of what the collection's market prices are paid in." }),
      }),
      implementations: z.array(z.object({ chain_id: z.string(), address: z.string() })),
    }),
  })
  .meta({ id: 'NftCollection' });

/** decisions.md "NFTs" `wallet_nft_collections`: a wallet's holding of one collection. */
export const walletNftCollectionResourceSchema = z
  .object({
    type: z.literal('wallet_nft_collections'),
    id: z.string(),
    attributes: z.object({
      min_changed_at: z.iso.datetime(),
      max_changed_at: z.iso.datetime(),
      nfts_count: z.string().meta({ description: 'Tokens held of the collection, decimal.' }),
      total_floor_price: z.number().meta({ description: 'Floor price times amount over its positions; 0 without a floor.' }),
      collection_info: collectionInfoSchema,
    }),
    relationships: z.object({
      chains: z.object({ data: z.array(z.object({ type: z.literal('chains'), id: z.string() })) }),
      nft_collection: collectionRelationshipSchema,
    }),
  })
  .meta({ id: 'WalletNftCollection' });

/** decisions.md "NFTs" `wallet_nft_portfolio`. */
export const walletNftPortfolioResourceSchema = z
  .object({
    type: z.literal('wallet_nft_portfolio'),
    id: z.string(),
    attributes: z.object({
      positions_distribution_by_chain: z
        .record(z.string(), z.number())
        .meta({ description: 'Chain id to the value of the NFTs held there; empty while the wallet is first indexed (202).' }),
    }),
  })
  .meta({ id: 'WalletNftPortfolio' });

const nextLinksSchema = selfLinksSchema.extend({ next: z.url().optional().meta({ description: 'The next page; absent on the last.' }) });

const includedSchema = z.discriminatedUnion('type', [nftResourceSchema, nftCollectionResourceSchema, walletNftCollectionResourceSchema]);

export const nftPositionListResponseSchema = z
  .object({ links: nextLinksSchema, data: z.array(nftPositionResourceSchema), included: z.array(includedSchema).optional() })
  .meta({ id: 'NftPositionList' });

export const walletNftCollectionListResponseSchema = z
  .object({ links: nextLinksSchema, data: z.array(walletNftCollectionResourceSchema), included: z.array(nftCollectionResourceSchema).optional() })
  .meta({ id: 'WalletNftCollectionList' });

export const walletNftPortfolioResponseSchema = z
  .object({ links: selfLinksSchema, data: walletNftPortfolioResourceSchema })
  .meta({ id: 'WalletNftPortfolioResponse' });

export const nftListResponseSchema = z
  .object({ links: selfLinksSchema, data: z.array(nftResourceSchema), included: z.array(nftCollectionResourceSchema).optional() })
  .meta({ id: 'NftList' });

export const nftResponseSchema = z
  .object({ links: selfLinksSchema, data: nftResourceSchema, included: z.array(nftCollectionResourceSchema).optional() })
  .meta({ id: 'NftResponse' });

export type NftPositionResource = z.infer<typeof nftPositionResourceSchema>;
export type NftResource = z.infer<typeof nftResourceSchema>;
export type NftCollectionResource = z.infer<typeof nftCollectionResourceSchema>;
export type WalletNftCollectionResource = z.infer<typeof walletNftCollectionResourceSchema>;
export type WalletNftPortfolioResource = z.infer<typeof walletNftPortfolioResourceSchema>;
export type NftPositionIncluded = z.infer<typeof includedSchema>;
