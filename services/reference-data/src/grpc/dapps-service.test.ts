import { GrpcError } from '@wallet-api/core/grpc';
import type { DappConfig } from '../registry/registry-config.js';
import { dappCursor, dappPage } from './dapps-service.js';

const dapp = (id: string): DappConfig => ({
  id,
  name: `Dapp ${id}`,
  description: '',
  icon_url: '',
  url: '',
  manage_positions_url: '',
  contracts: {},
  external_links: [{ url: `https://${id}.example/docs`, type: 'docs', name: 'Docs' }],
});

// Out of order on purpose: pages follow id order whatever the files' order.
const dapps = ['delta', 'alpha', 'echo', 'charlie', 'bravo'].map(dapp);

function walk(pageSize: number, dappIds: string[] = []): string[][] {
  const pages: string[][] = [];
  let pageAfter = '';
  do {
    const page = dappPage(dapps, { dappIds, pageSize, pageAfter });
    pages.push(page.dapps.map((entry) => entry.id));
    pageAfter = page.nextCursor;
  } while (pageAfter !== '');
  return pages;
}

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof GrpcError) return error.message;
  }
  throw new Error('expected a refusal');
};

describe('dappPage', () => {
  test.each([
    [1, [['alpha'], ['bravo'], ['charlie'], ['delta'], ['echo']]],
    [2, [['alpha', 'bravo'], ['charlie', 'delta'], ['echo']]],
    [5, [['alpha', 'bravo', 'charlie', 'delta', 'echo']]],
    [100, [['alpha', 'bravo', 'charlie', 'delta', 'echo']]],
  ])('page size %i walks every dapp once in id order; no cursor after the last', (pageSize, pages) => {
    expect(walk(pageSize)).toEqual(pages);
  });

  test('page size 0 (not sent) is the default 100', () => {
    expect(dappPage(dapps, { dappIds: [], pageSize: 0, pageAfter: '' }).dapps).toHaveLength(5);
  });

  test('dapp ids keep the named ones only; unknown ids are absent', () => {
    expect(walk(1, ['echo', 'alpha', 'unknown'])).toEqual([['alpha'], ['echo']]);
  });

  test('serves every field with external links', () => {
    expect(dappPage(dapps, { dappIds: ['alpha'], pageSize: 1, pageAfter: '' }).dapps[0]).toEqual({
      id: 'alpha',
      name: 'Dapp alpha',
      description: '',
      iconUrl: '',
      url: '',
      managePositionsUrl: '',
      externalLinks: [{ url: 'https://alpha.example/docs', type: 'docs', name: 'Docs' }],
    });
  });

  test('a cursor past a removed dapp still continues after it', () => {
    expect(dappPage(dapps, { dappIds: [], pageSize: 2, pageAfter: dappCursor('bz') }).dapps.map((entry) => entry.id)).toEqual(['charlie', 'delta']);
  });

  test.each([
    [{ pageSize: 101, pageAfter: '' }, 'parameter page[size]: must be an integer from 1 to 100'],
    [{ pageSize: 10, pageAfter: 'not a cursor' }, 'parameter page[after]: is not a cursor this endpoint returned (follow links.next)'],
    [
      { pageSize: 10, pageAfter: Buffer.from('other:alpha').toString('base64url') },
      'parameter page[after]: is not a cursor this endpoint returned (follow links.next)',
    ],
  ])('refuses %j', (request, detail) => {
    expect(refusal(() => dappPage(dapps, { dappIds: [], ...request }))).toBe(detail);
  });
});
