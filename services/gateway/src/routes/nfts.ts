import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { GetNftsResponse, NftRef } from '@wallet-api/core/proto/nft';
import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';
import type { Backends } from '../grpc/backends.js';
import { apiError } from '../http/api-error.js';
import { networkHeaders } from '../schemas/common.js';
import { nftListResponseSchema, nftResponseSchema } from '../schemas/nft.js';
import { nftIdParam, nftQuery, nftsQuery, parseNftReference, type NftReference } from '../schemas/nft-query.js';
import type { ApiRoutes } from './define-route.js';
import { toNftCollectionResource, toNftResource } from './nft-resource.js';
import { toRequestContext } from './request-context.js';
import { chainSupports } from './wallet-scope.js';

const referenceText = (reference: NftReference) => `${reference.chainId}:${reference.contractAddress}:${reference.tokenId}`;

/**
 * Why the chain of a reference cannot be asked about on this network, or undefined when it can:
 * listed for the network, of the EVM family and reporting `supports_nft_positions` (the chains
 * the nft service follows; the wallet endpoints' wording).
 */
export function referenceChainProblem(chains: ReadonlyMap<string, Chain>, reference: NftReference): string | undefined {
  const chain = chains.get(reference.chainId);
  if (!chain) return `chain ${reference.chainId} is not supported`;
  if (chain.family !== ChainFamily.CHAIN_FAMILY_EVM || !chainSupports(chain, 'nft_positions'))
    return `chain ${reference.chainId} does not support NFT positions`;
  return undefined;
}

/**
 * The references to ask the nft service for, each checked against the network's chains (a 400
 * naming the first bad one), kept once each in the order given: the service answers one NFT per
 * reference, so a repeated reference would repeat its NFT.
 */
export function checkReferences(chains: readonly Chain[], references: readonly NftReference[]): NftRef[] {
  const byId = new Map(chains.map((chain) => [chain.id, chain]));
  const refs = new Map<string, NftRef>();
  for (const reference of references) {
    const problem = referenceChainProblem(byId, reference);
    if (problem) throw apiError(400, `parameter filter[references]: ${problem} (got "${referenceText(reference)}")`);
    refs.set(referenceText(reference), { chainId: reference.chainId, contractAddress: reference.contractAddress, tokenId: reference.tokenId });
  }
  return [...refs.values()];
}

/** `included` when `include=nft_collections` was sent. */
const includedCollections = (response: GetNftsResponse, include: readonly string[] | undefined) =>
  include?.includes('nft_collections') ? { included: response.collections.map(toNftCollectionResource) } : {};

export function addNftRoutes(routes: ApiRoutes, backends: Backends): void {
  const { nft } = backends;
  const getNfts = (context: RequestContext, refs: NftRef[], currency: string) => unary(nft, nft.getNfts, { context, refs, currency }, { name: 'Nft/GetNfts' });

  routes.add({
    method: 'get',
    path: '/v1/nfts/',
    summary: 'NFTs (ERC-721 and ERC-1155) by reference, in the order asked; references to no existing token are left out',
    tag: 'nfts',
    query: nftsQuery,
    headers: networkHeaders,
    response: nftListResponseSchema,
    async handle({ query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      const refs = checkReferences(await backends.chains.list(context), query['filter[references]']);
      const response = await getNfts(context, refs, query.currency);
      return { links: { self: selfUrl }, data: response.nfts.map((token) => toNftResource(token, baseUrl)), ...includedCollections(response, query.include) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/nfts/{nft_id}',
    summary: 'One NFT by its id; 404 for an id that names no NFT',
    tag: 'nfts',
    params: nftIdParam,
    query: nftQuery,
    headers: networkHeaders,
    response: nftResponseSchema,
    errors: [404],
    async handle({ params, query, headers }, { organization, selfUrl, baseUrl }) {
      const context = toRequestContext(organization, headers['X-Env']);
      // The id is opaque to clients, not to the gateway: it is the NFT's reference (NftToken.id).
      // Whatever does not read as one, or names a chain without NFTs, names no NFT.
      const notFound = () => apiError(404, `no NFT with id ${params.nft_id}`);
      const reference = parseNftReference(params.nft_id);
      if (typeof reference === 'string') throw notFound();
      const chains = new Map((await backends.chains.list(context)).map((chain) => [chain.id, chain]));
      if (referenceChainProblem(chains, reference)) throw notFound();
      const response = await getNfts(context, [reference], query.currency);
      const token = response.nfts[0];
      if (!token) throw notFound();
      return { links: { self: selfUrl }, data: toNftResource(token, baseUrl), ...includedCollections(response, query.include) };
    },
  });
}
