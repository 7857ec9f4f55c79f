import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { DappsService, type DappsServer, type ListDappsRequest, type ListDappsResponse } from '@wallet-api/core/proto/dapps';
import type { DappConfig } from '../registry/registry-config.js';
import { toDapp } from '../registry/registry.js';

/** decisions.md "Dapps and NFT positions": `page[size]` 1 to 100, default 100. */
export const maxDappPageSize = 100;

const cursorPrefix = 'dapp:';

/**
 * The cursor names the last dapp served: the next page starts after that id in id order, so a
 * dapp added to the registry between two pages is neither repeated nor skips others. Base64url so
 * that it travels in a query string unescaped; opaque to clients all the same.
 */
export function dappCursor(lastId: string): string {
  return Buffer.from(`${cursorPrefix}${lastId}`, 'utf8').toString('base64url');
}

function cursorId(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = decoded.startsWith(cursorPrefix) ? decoded.slice(cursorPrefix.length) : '';
  if (!/^[a-z0-9-]{1,32}$/.test(id)) throw invalidArgument('parameter page[after]: is not a cursor this endpoint returned (follow links.next)');
  return id;
}

/** One page of `dapps` (in id order) after the request's cursor, among the requested ids if any. */
export function dappPage(dapps: readonly DappConfig[], request: Pick<ListDappsRequest, 'dappIds' | 'pageSize' | 'pageAfter'>): ListDappsResponse {
  const pageSize = request.pageSize === 0 ? maxDappPageSize : request.pageSize;
  if (pageSize < 1 || pageSize > maxDappPageSize) throw invalidArgument(`parameter page[size]: must be an integer from 1 to ${maxDappPageSize}`);
  const after = request.pageAfter === '' ? undefined : cursorId(request.pageAfter);
  const wanted = request.dappIds.length > 0 ? new Set(request.dappIds) : undefined;
  const matching = dapps
    .filter((dapp) => (wanted ? wanted.has(dapp.id) : true) && (after === undefined || dapp.id > after))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = matching.slice(0, pageSize);
  return {
    dapps: page.map(toDapp),
    nextCursor: matching.length > pageSize ? dappCursor(page[page.length - 1]!.id) : '',
  };
}

/** ListDapps over the merged registry's dapps, which do not change while the process runs. */
export function dappsService(dapps: readonly DappConfig[]): ServiceRegistration {
  return registration<DappsServer>('walletapi.dapps.Dapps', DappsService, {
    async listDapps(request) {
      return dappPage(dapps, request);
    },
  });
}
