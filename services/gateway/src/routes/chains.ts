import { unary } from '@wallet-api/core/grpc';
import type { Chain } from '@wallet-api/core/proto/reference_data';
import type { Backends } from '../grpc/backends.js';
import { chainIdParam, chainListResponseSchema, chainResponseSchema, type ChainResource } from '../schemas/chain.js';
import { networkHeaders } from '../schemas/common.js';
import type { ApiRoutes } from './define-route.js';
import { toRequestContext } from './request-context.js';

function fungibleRelationship(baseUrl: string, id: string) {
  return { links: { related: `${baseUrl}/v1/fungibles/${encodeURIComponent(id)}` }, data: { type: 'fungibles' as const, id } };
}

export function toChainResource(chain: Chain, baseUrl: string): ChainResource {
  const flags = chain.flags;
  return {
    type: 'chains',
    id: chain.id,
    attributes: {
      name: chain.name,
      external_id: chain.externalId,
      icon: { url: chain.iconUrl },
      explorer: {
        name: chain.explorer?.name ?? '',
        token_url_format: chain.explorer?.tokenUrlFormat ?? '',
        tx_url_format: chain.explorer?.txUrlFormat ?? '',
        home_url: chain.explorer?.homeUrl ?? '',
      },
      rpc: {
        internal_server_url_format: chain.rpc?.internalServerUrlFormat ?? '',
        public_servers_url: chain.rpc?.publicServersUrl ?? [],
      },
      flags: {
        supports_trading: flags?.supportsTrading ?? false,
        supports_sending: flags?.supportsSending ?? false,
        supports_bridge: flags?.supportsBridge ?? false,
        supports_transactions: flags?.supportsTransactions ?? false,
        supports_positions: flags?.supportsPositions ?? false,
        supports_nft_positions: flags?.supportsNftPositions ?? false,
      },
    },
    relationships: {
      native_fungible: fungibleRelationship(baseUrl, chain.nativeFungibleId),
      ...(chain.wrappedNativeFungibleId ? { wrapped_native_fungible: fungibleRelationship(baseUrl, chain.wrappedNativeFungibleId) } : {}),
    },
    links: { self: `${baseUrl}/v1/chains/${encodeURIComponent(chain.id)}` },
  };
}

export function addChainRoutes(routes: ApiRoutes, backends: Backends): void {
  const { referenceData } = backends;
  routes.add({
    method: 'get',
    path: '/v1/chains/',
    summary: 'List supported chains (testnets with X-Env: testnet)',
    tag: 'chains',
    headers: networkHeaders,
    response: chainListResponseSchema,
    async handle({ headers }, { organization, selfUrl, baseUrl }) {
      const chains = await backends.chains.list(toRequestContext(organization, headers['X-Env']));
      return { links: { self: selfUrl }, data: chains.map((chain) => toChainResource(chain, baseUrl)) };
    },
  });
  routes.add({
    method: 'get',
    path: '/v1/chains/{chain_id}',
    summary: 'Get one supported chain; 404 for any chain the list does not contain',
    tag: 'chains',
    params: chainIdParam,
    headers: networkHeaders,
    response: chainResponseSchema,
    errors: [404],
    async handle({ params, headers }, { organization, selfUrl, baseUrl }) {
      const chain = await unary(
        referenceData,
        referenceData.getChain,
        {
          context: toRequestContext(organization, headers['X-Env']),
          chainId: params.chain_id,
        },
        { name: 'ReferenceData/GetChain' },
      );
      return { links: { self: selfUrl }, data: toChainResource(chain, baseUrl) };
    },
  });
}
