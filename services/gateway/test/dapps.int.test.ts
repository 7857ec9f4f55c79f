import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dappsService } from '../../reference-data/src/grpc/dapps-service.js';
import { loadRegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { publicUrl, startReferenceGateway, type ReferenceGateway } from './setup-reference-gateway.js';

// Response bodies are checked field by field below, so they are read untyped.
const json = (response: Response): Promise<any> => response.json();

const shippedFile = new URL('../../reference-data/config/registry.json', import.meta.url).pathname;

interface RawDapp {
  id: string;
  name: string;
  description?: string;
  icon_url?: string;
  url?: string;
  manage_positions_url?: string;
  external_links?: { url: string; type: string; name: string }[];
}

// A deployment's file merged over the shipped one, with more dapps than a default page holds.
const extraDapps: RawDapp[] = Array.from({ length: 130 }, (_, index) => ({
  id: `test-dapp-${String(index).padStart(3, '0')}`,
  name: `Test dapp ${index}`,
  description: `Dapp number ${index}`,
  icon_url: `https://icons.example/${index}.png`,
  url: `https://dapp${index}.example`,
  manage_positions_url: index % 2 === 0 ? `https://dapp${index}.example/positions` : '',
  ...(index % 3 === 0 ? { external_links: [{ url: `https://docs.dapp${index}.example`, type: 'docs', name: 'Docs' }] } : {}),
}));

describe('GET /v1/dapps end to end through gRPC', () => {
  let dir: string;
  let gateway: ReferenceGateway;
  let declared: Map<string, RawDapp>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dapps-test-'));
    const extraFile = join(dir, 'registry.json');
    await writeFile(extraFile, JSON.stringify({ dapps: extraDapps }));
    const shipped = JSON.parse(await readFile(shippedFile, 'utf8')).dapps as RawDapp[];
    declared = new Map([...shipped, ...extraDapps].map((dapp) => [dapp.id, dapp]));
    const registry = await loadRegistryConfig([shippedFile, extraFile]);
    gateway = await startReferenceGateway([dappsService(registry.dapps)]);
  });

  afterAll(async () => {
    await gateway.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Follows links.next from `path`, checking each page's links; the pages' ids in order. */
  async function walk(path: string): Promise<{ pages: string[][]; dapps: any[] }> {
    const pages: string[][] = [];
    const dapps: any[] = [];
    let url: string | undefined = `${publicUrl}${path}`;
    while (url) {
      const response = await gateway.get(url.slice(publicUrl.length));
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.links.self).toBe(url);
      pages.push(body.data.map((dapp: { id: string }) => dapp.id));
      dapps.push(...body.data);
      url = body.links.next;
      expect(pages.length).toBeLessThan(200);
    }
    return { pages, dapps };
  }

  const expectedResource = (dapp: RawDapp) => ({
    type: 'dapps',
    id: dapp.id,
    attributes: {
      name: dapp.name,
      description: dapp.description ?? '',
      icon: { url: dapp.icon_url ?? '' },
      url: dapp.url ?? '',
      manage_positions_url: dapp.manage_positions_url ?? '',
      external_links: dapp.external_links ?? [],
    },
  });

  test('default pages of 100 serve every registry dapp once, with every field as the files declare it', async () => {
    const { pages, dapps } = await walk('/v1/dapps');
    expect(pages.map((page) => page.length)).toEqual([100, declared.size - 100]);
    const ids = pages.flat();
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...declared.keys()].sort());
    for (const dapp of dapps) expect(dapp).toEqual(expectedResource(declared.get(dapp.id)!));
    // The shipped dapps carry their external links.
    expect(dapps.find((dapp) => dapp.id === 'uniswap-v3').attributes.external_links.length).toBeGreaterThan(0);
  });

  test.each([1, 7, 100])(
    'pages of %i walk without repeats or gaps',
    async (size) => {
      const { pages } = await walk(`/v1/dapps?page[size]=${size}`);
      expect(pages.length).toBe(Math.ceil(declared.size / size));
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(size);
      const ids = pages.flat();
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...declared.keys()].sort());
    },
    60_000,
  );

  test('filter[dapp_ids] keeps the named dapps; unknown ids match nothing', async () => {
    const { pages, dapps } = await walk('/v1/dapps?filter[dapp_ids]=weth,uniswap-v3,not-a-dapp&page[size]=1');
    expect(pages).toEqual([['uniswap-v3'], ['weth']]);
    for (const dapp of dapps) expect(dapp).toEqual(expectedResource(declared.get(dapp.id)!));
    const none = await json(await gateway.get('/v1/dapps?filter[dapp_ids]=not-a-dapp'));
    expect(none).toEqual({ links: { self: `${publicUrl}/v1/dapps?filter[dapp_ids]=not-a-dapp` }, data: [] });
  });

  test.each([
    ['page[size]=0', 'parameter page[size]: must be an integer from 1 to 100'],
    ['page[size]=101', 'parameter page[size]: must be an integer from 1 to 100'],
    ['page[size]=ten', 'parameter page[size]: must be an integer from 1 to 100'],
    ['page[after]=bm90LWEtY3Vyc29y', 'parameter page[after]: is not a cursor this endpoint returned (follow links.next)'],
    ['page[after]=', 'parameter page[after]: must not be empty (follow links.next, which carries it)'],
    [`filter[dapp_ids]=${Array.from({ length: 26 }, (_, index) => `d${index}`).join(',')}`, 'parameter filter[dapp_ids]: must name at most 25 values (got 26)'],
    [`filter[dapp_ids]=${'d'.repeat(33)}`, `parameter filter[dapp_ids]: each dapp id must be 1 to 32 characters (got "${'d'.repeat(33)}")`],
    ['filter[dapp_ids]=weth,,uniswap-v3', 'parameter filter[dapp_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
  ])('%s is a 400 naming the parameter', async (query, detail) => {
    const response = await gateway.get(`/v1/dapps?${query}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ errors: [{ title: 'Parameter is malformed', detail }] });
  });
});
