import { unary } from '@wallet-api/core/grpc';
import type { Dapp } from '@wallet-api/core/proto/reference_data';
import type { Backends } from '../grpc/backends.js';
import { dappListResponseSchema, dappsQuery, type DappResource } from '../schemas/dapp.js';
import type { ApiRoutes } from './define-route.js';
import { nextPageLink } from './nft-resource.js';
import { toRequestContext } from './request-context.js';

export function toDappResource(dapp: Dapp): DappResource {
  return {
    type: 'dapps',
    id: dapp.id,
    attributes: {
      name: dapp.name,
      description: dapp.description,
      icon: { url: dapp.iconUrl },
      url: dapp.url,
      manage_positions_url: dapp.managePositionsUrl,
      external_links: dapp.externalLinks.map((link) => ({ url: link.url, type: link.type, name: link.name })),
    },
  };
}

/** Spec 4.8: the registry's dapps in id order, `links.next` while more remain. */
export function addDappRoutes(routes: ApiRoutes, backends: Backends): void {
  const { dapps } = backends;
  routes.add({
    method: 'get',
    path: '/v1/dapps',
    summary: 'List dapps (paginated; follow links.next)',
    tag: 'dapps',
    query: dappsQuery,
    response: dappListResponseSchema,
    async handle({ query }, { organization, selfUrl }) {
      const page = await unary(
        dapps,
        dapps.listDapps,
        {
          context: toRequestContext(organization, undefined),
          dappIds: query['filter[dapp_ids]'] ?? [],
          pageSize: query['page[size]'],
          pageAfter: query['page[after]'] ?? '',
        },
        { name: 'Dapps/ListDapps' },
      );
      const next = nextPageLink(selfUrl, page.nextCursor);
      return { links: { self: selfUrl, ...(next ? { next } : {}) }, data: page.dapps.map(toDappResource) };
    },
  });
}
