import { z } from 'zod';
import { chainIdPattern, chainIdsFilter, csvList, currencyParam, evmAddressPattern, isSolanaAddress } from './wallet-query.js';

/**
 * The wallet of an NFT endpoint: EVM only (spec 4, common parameters). A Solana address is told
 * so apart from an address of no kind, so its caller knows the address itself is fine.
 */
export const evmWalletAddressParam = z.object({
  address: z
    .string()
    .superRefine((value, context) => {
      if (evmAddressPattern.test(value)) return;
      context.addIssue({
        code: 'custom',
        message: isSolanaAddress(value)
          ? 'NFT endpoints accept EVM addresses only (0x and 40 hex digits), not Solana addresses'
          : 'must be an EVM address (0x and 40 hex digits); NFT endpoints accept EVM addresses only',
      });
    })
    .meta({ description: 'An EVM address (0x and 40 hex digits): NFT endpoints are EVM only.' }),
});

/** `filter[chain_ids]` of the NFT endpoints; which chains qualify is checked against reference-data. */
const nftChainIdsFilter = chainIdsFilter
  .optional()
  .meta({ description: 'Comma-separated chain ids, at most 25, each reporting `supports_nft_positions`; omitted: every chain of the network that does.' });

/** The largest int64: collection ids are int64 in the nft service's contract. */
const maxCollectionId = 2n ** 63n - 1n;

/** decisions.md: collection ids are integers. Kept as decimal text, as the proto's int64 fields take them. */
const collectionId = z
  .string()
  .refine((value) => /^\d{1,19}$/.test(value) && BigInt(value) <= maxCollectionId, 'each collection id must be a non-negative integer (an nft_collections id)')
  .transform((value) => BigInt(value).toString());

/**
 * decisions.md `filter[collections_ids]`. The spec names no limit; 25, like every other id filter of
 * the wallet endpoints (section 8), which keeps a filtered URL well within the spec's 2000 characters.
 */
export const collectionIdsFilter = csvList(collectionId, 25);

const pageSizeMessage = 'must be an integer from 1 to 500';

/** Spec 4.6 and section 8: default 50, at most 500. */
export const nftPageSizeParam = z
  .string()
  .regex(/^\d{1,4}$/, pageSizeMessage)
  .transform(Number)
  .pipe(z.number().min(1, pageSizeMessage).max(500, pageSizeMessage))
  .default(50)
  .meta({ description: 'Items a page, 1 to 500; default 50.' });

/**
 * decisions.md: a cursor carried in `links.next`, opaque to the client and to the gateway alike;
 * the nft service refuses one it did not issue (INVALID_ARGUMENT, answered as 400).
 */
export const pageAfterParam = z
  .string()
  .min(1, 'must not be empty (follow links.next, which carries it)')
  .max(1024, 'is not a cursor this endpoint returned (follow links.next)')
  .meta({ description: 'Opaque cursor from `links.next`; a client only ever follows `links.next`.' });

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

/** Spec 4.6 `sort`: newest change first by default; `-` sorts descending. */
export const nftPositionsSorts = ['-created_at', 'created_at', '-floor_price', 'floor_price'] as const;
/** Spec 4.6 `include`. */
export const nftPositionsIncludes = ['nfts', 'nft_collections', 'wallet_nft_collections'] as const;

export const nftPositionsQuery = z.object({
  currency: currencyParam,
  'filter[chain_ids]': nftChainIdsFilter,
  'filter[collections_ids]': collectionIdsFilter
    .optional()
    .meta({ description: 'Keeps the positions of these collections (`nft_collections` ids, comma-separated); at most 25.' }),
  sort: z
    .enum(nftPositionsSorts, { error: oneOf(nftPositionsSorts) })
    .default('-created_at')
    .meta({ description: '`-created_at` (default): most recently changed first; `floor_price`: by the collection floor, lowest first.' }),
  include: csvList(z.enum(nftPositionsIncludes, { error: `each value ${oneOf(nftPositionsIncludes)}` }), nftPositionsIncludes.length)
    .optional()
    .meta({ description: 'Related resources to add in `included`: `nfts`, `nft_collections`, `wallet_nft_collections`.' }),
  'page[size]': nftPageSizeParam,
  'page[after]': pageAfterParam.optional(),
});

/** decisions.md "NFTs" `wallet_nft_collections` sorts: most valuable first by default. */
export const walletNftCollectionsSorts = ['-total_floor_price', 'total_floor_price', '-max_changed_at', 'max_changed_at'] as const;
export const nftCollectionsIncludes = ['nft_collections'] as const;
const includeCollections = csvList(z.enum(nftCollectionsIncludes, { error: `each value ${oneOf(nftCollectionsIncludes)}` }), nftCollectionsIncludes.length)
  .optional()
  .meta({ description: '`nft_collections`: the collections, in `included`.' });

export const walletNftCollectionsQuery = z.object({
  currency: currencyParam,
  'filter[chain_ids]': nftChainIdsFilter,
  'filter[collections_ids]': collectionIdsFilter
    .optional()
    .meta({ description: 'Keeps these collections (`nft_collections` ids, comma-separated); at most 25.' }),
  sort: z.enum(walletNftCollectionsSorts, { error: oneOf(walletNftCollectionsSorts) }).default('-total_floor_price'),
  include: includeCollections,
  'page[size]': nftPageSizeParam,
  'page[after]': pageAfterParam.optional(),
});

export const walletNftPortfolioQuery = z.object({
  currency: currencyParam,
  'filter[chain_ids]': nftChainIdsFilter,
});

/** One NFT: its chain, its contract (lowercased, as the nft service keys it) and its token id (decimal, without leading zeros). */
export interface NftReference {
  chainId: string;
  contractAddress: string;
  tokenId: string;
}

const maxTokenId = 2n ** 256n;

/** `<chain_id>:<contract_address>:<token_id>` as a reference; the reason it is not one otherwise. */
export function parseNftReference(value: string): NftReference | string {
  const parts = value.split(':');
  if (parts.length !== 3) return 'each reference must be <chain_id>:<contract_address>:<token_id>';
  const [chainId, contractAddress, tokenId] = parts as [string, string, string];
  if (!chainIdPattern.test(chainId)) return 'each reference must start with a chain id (letters, digits, dots, dashes or underscores)';
  if (!evmAddressPattern.test(contractAddress)) return "each reference's contract address must be an EVM address (0x and 40 hex digits)";
  if (!/^\d{1,78}$/.test(tokenId) || BigInt(tokenId) >= maxTokenId) return "each reference's token id must be a decimal integer below 2^256";
  return { chainId, contractAddress: contractAddress.toLowerCase(), tokenId: BigInt(tokenId).toString() };
}

const nftReference = z.string().transform((value, context) => {
  const parsed = parseNftReference(value);
  if (typeof parsed === 'string') {
    context.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/**
 * References one request may name. The spec names no limit; 100 is the largest batch of the other
 * per-item filters (PnL's fungible ids, spec 8) and the most one GetNfts call reads from the chains
 * in time for a response. 100 references are about 6000 characters: /v1/nfts/ does not hold its
 * URL to the 2000 characters the spec asks of filtered wallet requests.
 */
export const maxNftReferences = 100;

export const nftsQuery = z.object({
  'filter[references]': z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a comma-separated list') })
    .pipe(csvList(nftReference, maxNftReferences))
    .meta({ description: `Required: comma-separated \`<chain_id>:<contract_address>:<token_id>\` (decimal token id), at most ${maxNftReferences}.` }),
  currency: currencyParam,
  include: includeCollections,
});

export const nftQuery = z.object({
  currency: currencyParam,
  include: includeCollections,
});

/**
 * decisions.md: an NFT's id is opaque to clients; the gateway reads the reference it is made of.
 * Any text is taken: an id that names no NFT, malformed or not, is a 404 like an unknown one.
 */
export const nftIdParam = z.object({ nft_id: z.string().meta({ description: 'The `id` of an `nfts` resource.' }) });

export type NftPositionsQuery = z.infer<typeof nftPositionsQuery>;
export type WalletNftCollectionsQuery = z.infer<typeof walletNftCollectionsQuery>;
export type NftsQuery = z.infer<typeof nftsQuery>;
