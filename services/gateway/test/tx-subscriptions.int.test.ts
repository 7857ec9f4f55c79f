import { createOutboxStore } from '../../subscription/src/store/outbox-store.js';
import {
  certificatePem,
  publicUrl,
  startSubscriptionService,
  startTxSubscriptionGateway,
  type RunningSubscriptionService,
  type TxSubscriptionGateway,
} from './setup-tx-subscriptions-gateway.js';

// Response bodies are checked field by field below, so they are read untyped.
const json = (response: Response): Promise<any> => response.json();

// Never the zero address (a burn address, which subscriptions refuse), in the order of n.
const evm = (n: number) => `0x1${n.toString(16).padStart(39, '0')}`;
/** The same EVM address with its hex digits in upper case. */
const shouting = (address: string) => `0x${address.slice(2).toUpperCase()}`;
const solana = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';
const callbackUrl = 'https://127.0.0.1:9/hooks';
const someId = 'sub_0123456789abcdef0123456789abcdef';
const malformed = (detail: string) => ({ errors: [{ title: 'Parameter is malformed', detail }] });

/** The status and body of a 400, for one comparison. */
async function refusal(response: Response): Promise<[number, unknown]> {
  return [response.status, await json(response)];
}

describe('/v1/tx-subscriptions: what the gateway refuses before asking the subscription service', () => {
  let gateway: TxSubscriptionGateway;

  // Nothing listens here: each request below must be answered by the gateway alone.
  beforeAll(async () => {
    gateway = await startTxSubscriptionGateway({ subscriptionAddress: '127.0.0.1:1' });
  });
  afterAll(async () => {
    await gateway.stop();
  });

  const create = (body: unknown, headers: Record<string, string> = {}) => gateway.request('POST', '/v1/tx-subscriptions/', { json: body, headers });

  test('401 without a key, before the body is looked at', async () => {
    const response = await gateway.request('POST', '/v1/tx-subscriptions/', { raw: '{not json', key: null });
    expect(response.status).toBe(401);
    expect((await json(response)).errors[0].title).toBe('Unauthorized Error');
  });

  test('addresses: each EVM or Solana, 1 to 100, named by index', async () => {
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(0), solana, evm(2), '0x12345'] }))).toEqual([
      400,
      malformed('parameter addresses[3]: is not an EVM or Solana address'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: Array.from({ length: 101 }, (_, i) => evm(i)) }))).toEqual([
      400,
      malformed('parameter addresses: must be a list of 1 to 100 addresses (got 101)'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [] }))).toEqual([
      400,
      malformed('parameter addresses: must be a list of 1 to 100 addresses (got 0)'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl }))).toEqual([400, malformed('parameter addresses: is required')]);
    // Burn addresses are watched by no subscription, as no wallet endpoint serves them; removing one stays possible.
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1), '0x0000000000000000000000000000000000000000'] }))).toEqual([
      400,
      malformed('parameter addresses[1]: is a burn address; its transactions are not tracked'),
    ]);
    const wallets = (method: string, body: unknown) => gateway.request(method, `/v1/tx-subscriptions/${someId}/wallets`, { json: body });
    expect(await refusal(await wallets('PATCH', { add: ['0x000000000000000000000000000000000000dEaD'] }))).toEqual([
      400,
      malformed('parameter add[0]: is a burn address; its transactions are not tracked'),
    ]);
    expect(await refusal(await wallets('PUT', { addresses: [evm(1), '0xdead000000000000000000000000000000000000'] }))).toEqual([
      400,
      malformed('parameter addresses[1]: is a burn address; its transactions are not tracked'),
    ]);
    expect((await wallets('PATCH', { remove: ['0x0000000000000000000000000000000000000000'] })).status).not.toBe(400);
  });

  test('addresses: each of a family some named chain carries', async () => {
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1), solana], chain_ids: ['base'] }))).toEqual([
      400,
      malformed('parameter addresses[1]: is a Solana address, and chain_ids names no chain of its family (base)'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [solana, evm(1)], chain_ids: ['solana'] }))).toEqual([
      400,
      malformed('parameter addresses[1]: is an EVM address, and chain_ids names no chain of its family (solana)'),
    ]);
  });

  test('callback_url must be an absolute URL', async () => {
    expect(await refusal(await create({ callback_url: '/hooks', addresses: [evm(1)] }))).toEqual([
      400,
      malformed('parameter callback_url: must be an absolute URL'),
    ]);
    expect(await refusal(await create({ addresses: [evm(1)] }))).toEqual([400, malformed('parameter callback_url: is required')]);
  });

  test('chain gate: a chain lacking supports_positions, an unknown chain, or one of the other network', async () => {
    for (const chain of ['legacy', 'no-such-chain', 'sepolia']) {
      expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1)], chain_ids: ['ethereum', chain] }))).toEqual([
        400,
        malformed(`chain ${chain} does not support transactions`),
      ]);
    }
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1)], chain_ids: ['ethereum'] }, { 'X-Env': 'testnet' }))).toEqual([
      400,
      malformed('chain ethereum does not support transactions'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1)], chain_ids: ['bad chain!'] }))).toEqual([
      400,
      malformed('parameter chain_ids[0]: must be a chain id'),
    ]);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1)] }, { 'X-Env': 'mainnet' }))).toEqual([
      400,
      malformed('header X-Env: must be "testnet" when present'),
    ]);
  });

  test('filters: unknown keys at any level, and values outside the rules', async () => {
    const withFilters = (filters: unknown) => create({ callback_url: callbackUrl, addresses: [evm(1)], filters });
    expect(await refusal(await withFilters({ exclude: { spam: true } }))).toEqual([400, malformed('parameter filters.exclude.spam: is not a known key')]);
    expect(await refusal(await withFilters({ include: {} }))).toEqual([400, malformed('parameter filters.include: is not a known key')]);
    expect(await refusal(await withFilters({ exclude: { trash: 'yes' } }))).toEqual([400, malformed('parameter filters.exclude.trash: must be true or false')]);
    const operationType = await json(await withFilters({ exclude: { operation_types: ['fee'] } }));
    expect(operationType.errors[0].detail).toMatch(/^parameter filters\.exclude\.operation_types\[0\]: must be one of approve, /);
    expect(await refusal(await create({ callback_url: callbackUrl, addresses: [evm(1)], wallets: [] }))).toEqual([
      400,
      malformed('parameter wallets: is not a known key'),
    ]);
  });

  test('a body that is not JSON, not an object, or of another content type', async () => {
    expect(await refusal(await gateway.request('POST', '/v1/tx-subscriptions/', { raw: '{"callback_url": ' }))).toEqual([
      400,
      malformed('request body is not valid JSON'),
    ]);
    for (const raw of ['[]', '"text"', 'null']) {
      expect(await refusal(await gateway.request('POST', '/v1/tx-subscriptions/', { raw }))).toEqual([400, malformed('request body: must be a JSON object')]);
    }
    expect(
      await refusal(await gateway.request('POST', '/v1/tx-subscriptions/', { raw: 'callback_url=x', contentType: 'application/x-www-form-urlencoded' })),
    ).toEqual([400, malformed('request body: Content-Type must be application/json')]);
    expect(
      await refusal(await gateway.request('POST', '/v1/tx-subscriptions/', { raw: JSON.stringify({ callback_url: callbackUrl }), contentType: 'text/plain' })),
    ).toEqual([400, malformed('request body: Content-Type must be application/json')]);
    // No body at all reads as {}.
    expect(await refusal(await gateway.request('POST', '/v1/tx-subscriptions/'))).toEqual([400, malformed('parameter callback_url: is required')]);
  });

  test('wallet changes: at most 100 each way, at least one of add and remove; replacement at most 10,000', async () => {
    const patch = (body: unknown) => gateway.request('PATCH', `/v1/tx-subscriptions/${someId}/wallets`, { json: body });
    const many = (count: number) => Array.from({ length: count }, (_, i) => evm(i));
    expect(await refusal(await patch({ add: many(101) }))).toEqual([400, malformed('parameter add: must be a list of at most 100 addresses (got 101)')]);
    expect(await refusal(await patch({ add: many(1), remove: many(101) }))).toEqual([
      400,
      malformed('parameter remove: must be a list of at most 100 addresses (got 101)'),
    ]);
    expect(await refusal(await patch({}))).toEqual([400, malformed('request body: must contain add, remove or both')]);
    expect(await refusal(await patch({ remove: ['nope'] }))).toEqual([400, malformed('parameter remove[0]: is not an EVM or Solana address')]);
    const replace = await gateway.request('PUT', `/v1/tx-subscriptions/${someId}/wallets`, { json: { addresses: many(10_001) } });
    expect(await refusal(replace)).toEqual([400, malformed('parameter addresses: must be a list of at most 10000 addresses (got 10001)')]);
  });

  test('settings bodies: chain gate on chain_ids, filters keys, callback_url', async () => {
    const patch = (setting: string, body: unknown, headers: Record<string, string> = {}) =>
      gateway.request('PATCH', `/v1/tx-subscriptions/${someId}/${setting}`, { json: body, headers });
    expect(await refusal(await patch('chain_ids', { chain_ids: ['legacy'] }))).toEqual([400, malformed('chain legacy does not support transactions')]);
    expect(await refusal(await patch('chain_ids', { chain_ids: ['sepolia'] }))).toEqual([400, malformed('chain sepolia does not support transactions')]);
    expect(await refusal(await patch('chain_ids', {}))).toEqual([400, malformed('parameter chain_ids: is required')]);
    expect(await refusal(await patch('filters', { filters: { exclude: { dapps: [] } } }))).toEqual([
      400,
      malformed('parameter filters.exclude.dapps: is not a known key'),
    ]);
    expect(await refusal(await patch('filters', { filters: 'none' }))).toEqual([400, malformed('parameter filters: must be an object or null')]);
    expect(await refusal(await patch('callback_url', { callback_url: 'hooks.example.com' }))).toEqual([
      400,
      malformed('parameter callback_url: must be an absolute URL'),
    ]);
  });

  test('page parameters and ids', async () => {
    expect(await refusal(await gateway.request('GET', '/v1/tx-subscriptions/?page[size]=101'))).toEqual([
      400,
      malformed('parameter page[size]: must be an integer from 1 to 100'),
    ]);
    expect(await refusal(await gateway.request('GET', `/v1/tx-subscriptions/${someId}/wallets?page[size]=2001`))).toEqual([
      400,
      malformed('parameter page[size]: must be an integer from 1 to 2000'),
    ]);
    expect(await refusal(await gateway.request('GET', `/v1/tx-subscriptions/${someId}/deliveries?page[size]=0`))).toEqual([
      400,
      malformed('parameter page[size]: must be an integer from 1 to 100'),
    ]);
    expect(await refusal(await gateway.request('GET', '/v1/tx-subscriptions/bad$id'))).toEqual([
      400,
      malformed('path parameter subscription_id: must be a subscription id this API returned'),
    ]);
  });

  test('the webhook certificate is served without a key, as PEM; 404 in the error shape when none is configured', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/webhooks/certificate.pem`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-pem-file/);
    expect(await response.text()).toBe(certificatePem);

    const bare = await gateway.startVariant({ webhookCertificateFile: undefined });
    try {
      const missing = await fetch(`${bare.baseUrl}/v1/webhooks/certificate.pem`);
      expect(await refusal(missing)).toEqual([404, { errors: [{ title: 'Not Found', detail: 'no webhook certificate is configured' }] }]);
    } finally {
      await bare.stop();
    }
  });

  test('the OpenAPI document lists the subscription endpoints and the certificate', async () => {
    const document = await json(await fetch(`${gateway.baseUrl}/v1/openapi.json`));
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/tx-subscriptions/',
        '/v1/tx-subscriptions/{subscription_id}',
        '/v1/tx-subscriptions/{subscription_id}/wallets',
        '/v1/tx-subscriptions/{subscription_id}/deliveries/{delivery_id}/retry',
        '/v1/webhooks/certificate.pem',
      ]),
    );
    expect(document.servers).toEqual([{ url: publicUrl }]);
  });
});

describe('/v1/tx-subscriptions end to end through the subscription service', () => {
  let service: RunningSubscriptionService;
  let gateway: TxSubscriptionGateway;

  beforeAll(async () => {
    service = await startSubscriptionService();
    gateway = await startTxSubscriptionGateway({ subscriptionAddress: service.address });
  });
  afterAll(async () => {
    await gateway.stop();
    await service.stop();
  });

  const base = '/v1/tx-subscriptions';
  const create = async (body: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}) => {
    const response = await gateway.request('POST', `${base}/`, { json: { callback_url: callbackUrl, addresses: [evm(1)], ...body }, ...options });
    expect(response.status).toBe(201);
    return json(response);
  };
  const get = async (id: string, key?: string) => gateway.request('GET', `${base}/${id}`, key ? { key } : {});
  const attributes = async (id: string) => {
    const response = await get(id);
    expect(response.status).toBe(200);
    return (await json(response)).data.attributes;
  };
  /** A links.next as a path on the test gateway (links carry the public URL). */
  const local = (link: string) => {
    const url = new URL(link);
    expect(url.origin).toBe(publicUrl);
    return `${url.pathname}${url.search}`;
  };
  /** Every page from `path` on, following links.next. */
  async function allPages(path: string, key?: string): Promise<{ pages: number; data: any[] }> {
    const data: any[] = [];
    let pages = 0;
    let next: string | undefined = path;
    while (next) {
      const response = await gateway.request('GET', next, key ? { key } : {});
      expect(response.status).toBe(200);
      const body = await json(response);
      pages += 1;
      data.push(...body.data);
      next = body.links.next ? local(body.links.next) : undefined;
    }
    return { pages, data };
  }

  test('create: 201 with the resource, links.self and the signing secret once; GET and list never show it', async () => {
    const response = await gateway.request('POST', `${base}/`, {
      json: {
        callback_url: callbackUrl,
        addresses: [shouting(evm(0xab)), evm(0xab), solana],
        chain_ids: ['ethereum', 'base', 'solana'],
        filters: { exclude: { operation_types: ['trade'], trash: true, addresses: ['0x00000000000000000000000000000000000000CD'] } },
      },
    });
    expect(response.status).toBe(201);
    const body = await json(response);
    const id: string = body.data.id;
    expect(body).toEqual({
      links: { self: `${publicUrl}${base}/${id}` },
      data: {
        type: 'tx_subscriptions',
        id,
        attributes: {
          callback_url: callbackUrl,
          chain_ids: ['ethereum', 'base', 'solana'],
          enabled: true,
          filters: { exclude: { operation_types: ['trade'], trash: true, addresses: ['0x00000000000000000000000000000000000000cd'] } },
          // The same EVM wallet in two cases is one wallet.
          wallets_count: 2,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        links: { self: `${publicUrl}${base}/${id}` },
      },
      meta: { signing_secret: expect.stringMatching(/^whsec_/) },
    });
    const secret: string = body.meta.signing_secret;

    const fetched = await get(id);
    expect(fetched.status).toBe(200);
    const text = await fetched.text();
    expect(text).not.toContain(secret);
    const again = JSON.parse(text);
    expect(again).toEqual({ links: { self: `${publicUrl}${base}/${id}` }, data: body.data });
    expect(again.meta).toBeUndefined();
    expect(await (await gateway.request('GET', `${base}/`)).text()).not.toContain(secret);
  });

  test('create: X-Env testnet gates chains against the testnet set', async () => {
    const body = await create({ chain_ids: ['sepolia'] }, { headers: { 'X-Env': 'testnet' } });
    expect(body.data.attributes.chain_ids).toEqual(['sepolia']);
    const everyChain = await create({ chain_ids: [] });
    expect(everyChain.data.attributes.chain_ids).toEqual([]);
    expect(everyChain.data.attributes.filters).toBeNull();
  });

  test("create: the service's callback_url refusal comes back as a 400 with its detail", async () => {
    const response = await gateway.request('POST', `${base}/`, { json: { callback_url: 'https://10.1.2.3/hooks', addresses: [evm(1)] } });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body).toEqual({ errors: [{ title: 'Parameter is malformed', detail: expect.stringMatching(/^callback_url host is .*10\.1\.2\.3/) }] });
  });

  test('list: oldest first, page[size] pages, links.next until the last page', async () => {
    const key = await gateway.createKey();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await create({}, { key })).data.id);
    const first = await json(await gateway.request('GET', `${base}/?page[size]=2`, { key }));
    expect(first.links.self).toBe(`${publicUrl}${base}/?page[size]=2`);
    expect(first.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    expect(first.data[0].type).toBe('tx_subscriptions');
    const all = await allPages(`${base}/?page[size]=2`, key);
    expect(all.pages).toBe(3);
    expect(all.data.map((item) => item.id)).toEqual(ids);
    const whole = await json(await gateway.request('GET', `${base}/`, { key }));
    expect(whole.links).toEqual({ self: `${publicUrl}${base}/` });
    expect(whole.data).toHaveLength(5);

    const forged = await gateway.request('GET', `${base}/?page[after]=not-a-cursor`, { key });
    expect(await refusal(forged)).toEqual([400, malformed('page[after] is not a cursor this endpoint returned')]);
  });

  test('delete: 204, then 404 in the error shape for every read and a second delete', async () => {
    const { data } = await create({});
    const deleted = await gateway.request('DELETE', `${base}/${data.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const notFound = { errors: [{ title: 'Not Found', detail: `subscription ${data.id} not found` }] };
    expect(await refusal(await get(data.id))).toEqual([404, notFound]);
    expect(await refusal(await gateway.request('DELETE', `${base}/${data.id}`))).toEqual([404, notFound]);
    expect((await gateway.request('GET', `${base}/${data.id}/wallets`)).status).toBe(404);
    expect(await refusal(await get('sub_ffffffffffffffffffffffffffffffff'))).toEqual([
      404,
      { errors: [{ title: 'Not Found', detail: 'subscription sub_ffffffffffffffffffffffffffffffff not found' }] },
    ]);
  });

  test("another organization's key gets 404 on every endpoint and changes nothing", async () => {
    const { data } = await create({ chain_ids: ['ethereum'] });
    const id: string = data.id;
    const before = await attributes(id);
    const requests: [string, string, unknown?][] = [
      ['GET', `${base}/${id}`],
      ['DELETE', `${base}/${id}`],
      ['GET', `${base}/${id}/wallets`],
      ['GET', `${base}/${id}/wallets/count`],
      ['PATCH', `${base}/${id}/wallets`, { add: [evm(9)] }],
      ['PUT', `${base}/${id}/wallets`, { addresses: [evm(9)] }],
      ['PATCH', `${base}/${id}/callback_url`, { callback_url: 'https://127.0.0.1:9/other' }],
      ['PATCH', `${base}/${id}/chain_ids`, { chain_ids: ['base'] }],
      ['PATCH', `${base}/${id}/filters`, { filters: null }],
      ['PATCH', `${base}/${id}/filters`, {}],
      ['PATCH', `${base}/${id}/enable`],
      ['PATCH', `${base}/${id}/disable`],
      ['POST', `${base}/${id}/signing-secret/rotate`],
      ['GET', `${base}/${id}/deliveries`],
      ['POST', `${base}/${id}/deliveries/msg_0123/retry`],
    ];
    for (const [method, path, body] of requests) {
      const response = await gateway.request(method, path, { key: gateway.otherKey, ...(body === undefined ? {} : { json: body }) });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(await json(response)).toEqual({ errors: [{ title: 'Not Found', detail: `subscription ${id} not found` }] });
    }
    expect(await attributes(id)).toEqual(before);
    const list = await json(await gateway.request('GET', `${base}/`, { key: gateway.otherKey }));
    expect(list.data.map((item: { id: string }) => item.id)).not.toContain(id);
  });

  test('a stored subscription: added, replacing and existing wallets each of a family some named chain carries', async () => {
    const { data } = await create({ addresses: [evm(1)], chain_ids: ['ethereum'] });
    const id: string = data.id;
    const send = (method: string, path: string, body: unknown) => gateway.request(method, `${base}/${id}/${path}`, { json: body });
    expect(await refusal(await send('PATCH', 'wallets', { add: [evm(2), solana] }))).toEqual([
      400,
      malformed("parameter add[1]: is a Solana address, and the subscription's chain_ids name no chain of its family (ethereum)"),
    ]);
    expect(await refusal(await send('PUT', 'wallets', { addresses: [solana] }))).toEqual([
      400,
      malformed("parameter addresses[0]: is a Solana address, and the subscription's chain_ids name no chain of its family (ethereum)"),
    ]);
    expect(await refusal(await send('PATCH', 'chain_ids', { chain_ids: ['solana'] }))).toEqual([
      400,
      malformed(`parameter chain_ids: names no chain of the family of the subscription's wallet ${evm(1)} (an EVM address): solana`),
    ]);
    // Nothing of the refused requests was applied.
    expect((await json(await gateway.request('GET', `${base}/${id}/wallets`))).data.map((item: { id: string }) => item.id)).toEqual([evm(1)]);
    // Both families named, or none (every eligible chain): every address is carried.
    expect((await send('PATCH', 'chain_ids', { chain_ids: ['ethereum', 'solana'] })).status).toBe(204);
    expect((await send('PATCH', 'wallets', { add: [solana] })).status).toBe(204);
    expect(await refusal(await send('PATCH', 'chain_ids', { chain_ids: ['base'] }))).toEqual([
      400,
      malformed(`parameter chain_ids: names no chain of the family of the subscription's wallet ${solana} (a Solana address): base`),
    ]);
    expect((await send('PATCH', 'chain_ids', { chain_ids: [] })).status).toBe(204);
    expect((await send('PUT', 'wallets', { addresses: [solana, evm(3)] })).status).toBe(204);
  });

  test('wallets: add and remove (101 is a 400), count, paged list with links.next, replace', async () => {
    const { data } = await create({ addresses: [evm(1), solana] });
    const id: string = data.id;
    const wallets = `${base}/${id}/wallets`;
    const count = async () => {
      const response = await gateway.request('GET', `${wallets}/count`);
      expect(response.status).toBe(200);
      return json(response);
    };
    expect(await count()).toEqual({
      links: { self: `${publicUrl}${wallets}/count` },
      data: { type: 'tx_subscription_wallets_count', id, attributes: { count: 2 } },
    });

    const hundred = Array.from({ length: 100 }, (_, i) => shouting(evm(0xabc00 + i)));
    const added = await gateway.request('PATCH', wallets, { json: { add: hundred } });
    expect(added.status).toBe(204);
    expect(await added.text()).toBe('');
    expect((await count()).data.attributes.count).toBe(102);
    expect(await refusal(await gateway.request('PATCH', wallets, { json: { add: [...hundred, evm(5)] } }))).toEqual([
      400,
      malformed('parameter add: must be a list of at most 100 addresses (got 101)'),
    ]);
    expect(await refusal(await gateway.request('PATCH', wallets, { json: { remove: Array.from({ length: 101 }, (_, i) => evm(i)) } }))).toEqual([
      400,
      malformed('parameter remove: must be a list of at most 100 addresses (got 101)'),
    ]);
    expect((await gateway.request('PATCH', wallets, { json: { remove: [evm(1), evm(0xabc00)] } })).status).toBe(204);
    expect((await count()).data.attributes.count).toBe(100);
    expect((await attributes(id)).wallets_count).toBe(100);

    const first = await json(await gateway.request('GET', `${wallets}?page[size]=30`));
    expect(first.links.self).toBe(`${publicUrl}${wallets}?page[size]=30`);
    expect(first.links.next).toEqual(expect.stringContaining('page%5Bafter%5D='));
    expect(first.data[0]).toEqual({
      type: 'tx_subscription_wallets',
      id: first.data[0].attributes.address,
      attributes: { address: first.data[0].attributes.address },
    });
    const all = await allPages(`${wallets}?page[size]=30`);
    expect(all.pages).toBe(4);
    const addresses = all.data.map((item) => item.id);
    // Stored forms: EVM lowercased, Solana as given; once each.
    expect(new Set(addresses)).toEqual(new Set([...hundred.slice(1).map((address) => address.toLowerCase()), solana]));
    expect(addresses).toHaveLength(100);
    const unpaged = await json(await gateway.request('GET', wallets));
    expect(unpaged.data).toHaveLength(100);
    expect(unpaged.links.next).toBeUndefined();

    const replaced = await gateway.request('PUT', wallets, { json: { addresses: [evm(7), evm(8), evm(7), solana] } });
    expect(replaced.status).toBe(204);
    expect((await count()).data.attributes.count).toBe(3);
    const after = await json(await gateway.request('GET', wallets));
    expect(after.data.map((item: { id: string }) => item.id).sort()).toEqual([evm(7), evm(8), solana].sort());
  });

  test('callback_url, chain_ids, filters, enable and disable: 204 each, seen on GET', async () => {
    const { data } = await create({ chain_ids: ['ethereum'], filters: { exclude: { trash: true } } });
    const id: string = data.id;
    const patch = async (setting: string, options: { json?: unknown; raw?: string; headers?: Record<string, string> } = {}) => {
      const response = await gateway.request('PATCH', `${base}/${id}/${setting}`, options);
      expect([setting, response.status, await response.text()]).toEqual([setting, 204, '']);
    };

    await patch('callback_url', { json: { callback_url: 'https://127.0.0.1:9/renamed' } });
    expect((await attributes(id)).callback_url).toBe('https://127.0.0.1:9/renamed');
    // Kept in its normalized form: scheme and host lowercased, the default port and dot segments dropped.
    await patch('callback_url', { json: { callback_url: 'HTTPS://127.0.0.1:443/a/../Hooks?x=1' } });
    expect((await attributes(id)).callback_url).toBe('https://127.0.0.1/Hooks?x=1');
    for (const [url, problem] of [
      ['https://127.0.0.1:9/a\r\nX-Injected: 1', 'callback_url must not contain spaces or control characters'],
      ['https://127.0.0.1:9/a\tb', 'callback_url must not contain spaces or control characters'],
      ['https://:@127.0.0.1:9/hooks', 'callback_url must not contain credentials'],
      ['https://127.0.0.1:0/hooks', 'callback_url must not use port 0'],
    ]) {
      expect(await refusal(await gateway.request('PATCH', `${base}/${id}/callback_url`, { json: { callback_url: url } }))).toEqual([400, malformed(problem!)]);
      expect(await refusal(await gateway.request('POST', `${base}/`, { json: { callback_url: url, addresses: [evm(1)] } }))).toEqual([
        400,
        malformed(problem!),
      ]);
    }
    expect((await attributes(id)).callback_url).toBe('https://127.0.0.1/Hooks?x=1');

    await patch('chain_ids', { json: { chain_ids: ['base', 'ethereum', 'base'] } });
    expect((await attributes(id)).chain_ids).toEqual(['base', 'ethereum']);
    await patch('chain_ids', { json: { chain_ids: [] } });
    expect((await attributes(id)).chain_ids).toEqual([]);
    expect(await refusal(await gateway.request('PATCH', `${base}/${id}/chain_ids`, { json: { chain_ids: ['legacy'] } }))).toEqual([
      400,
      malformed('chain legacy does not support transactions'),
    ]);
    expect(await refusal(await gateway.request('PATCH', `${base}/${id}/chain_ids`, { json: { chain_ids: ['ethereum', 'nowhere'] } }))).toEqual([
      400,
      malformed('chain nowhere does not support transactions'),
    ]);
    expect((await attributes(id)).chain_ids).toEqual([]);

    // Filters: omitted leaves them, an object replaces them wholesale, null clears; a no-op is 204 too.
    await patch('filters', { json: {} });
    expect((await attributes(id)).filters).toEqual({ exclude: { trash: true } });
    await patch('filters', { json: { filters: { exclude: { dapp_ids: ['uniswap-v3'], operation_types: [] } } } });
    expect((await attributes(id)).filters).toEqual({ exclude: { dapp_ids: ['uniswap-v3'], operation_types: [] } });
    await patch('filters', { json: { filters: { exclude: { dapp_ids: ['uniswap-v3'], operation_types: [] } } } });
    await patch('filters', { json: { filters: {} } });
    expect((await attributes(id)).filters).toEqual({});
    await patch('filters', { json: { filters: null } });
    expect((await attributes(id)).filters).toBeNull();
    await patch('filters', { json: { filters: null } });
    await patch('filters');
    expect(await refusal(await gateway.request('PATCH', `${base}/${id}/filters`, { json: { filters: { exclude: { trash: true, bogus: 1 } } } }))).toEqual([
      400,
      malformed('parameter filters.exclude.bogus: is not a known key'),
    ]);
    expect((await attributes(id)).filters).toBeNull();

    await patch('disable');
    expect((await attributes(id)).enabled).toBe(false);
    await patch('disable');
    // Bodies are ignored here, even ones that are not JSON.
    await patch('enable', { raw: '{not json' });
    expect((await attributes(id)).enabled).toBe(true);
    await patch('disable', { json: { enabled: true } });
    expect((await attributes(id)).enabled).toBe(false);

    const final = await attributes(id);
    expect(Date.parse(final.updated_at)).toBeGreaterThanOrEqual(Date.parse(final.created_at));
  });

  test('signing secret rotation: a new secret and when the previous one stops signing', async () => {
    const { data, meta } = await create({});
    const started = Date.now();
    const response = await gateway.request('POST', `${base}/${data.id}/signing-secret/rotate`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({
      links: { self: `${publicUrl}${base}/${data.id}/signing-secret/rotate` },
      data: {
        type: 'tx_subscription_signing_secrets',
        id: data.id,
        attributes: { signing_secret: expect.stringMatching(/^whsec_/), previous_expires_at: expect.any(String) },
      },
    });
    expect(body.data.attributes.signing_secret).not.toBe(meta.signing_secret);
    const expires = Date.parse(body.data.attributes.previous_expires_at) - started;
    expect(expires).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires).toBeLessThan(24 * 3600_000 + 60_000);
  });

  test('deliveries: an empty log, then a logged attempt and its replay (202); an unknown delivery is 404', async () => {
    const { data } = await create({});
    const id: string = data.id;
    const deliveries = `${base}/${id}/deliveries`;
    expect(await json(await gateway.request('GET', deliveries))).toEqual({ links: { self: `${publicUrl}${deliveries}` }, data: [] });
    expect(await refusal(await gateway.request('POST', `${deliveries}/msg_unknown/retry`))).toEqual([
      404,
      { errors: [{ title: 'Not Found', detail: 'delivery msg_unknown not found' }] },
    ]);

    // A delivery as the matcher records it, and one failed attempt as the dispatcher records it.
    const outbox = createOutboxStore(service.prisma);
    const deliveryId = `msg_${id.slice(4)}`;
    const position = { groupId: `gateway-test-${id}`, topic: 'transactions', partition: 0 };
    await outbox.recordMatches(position, 1n, [
      {
        id: deliveryId,
        subscriptionId: id,
        address: evm(1),
        chainId: 'ethereum',
        transactionHash: `0x${'ab'.repeat(32)}`,
        blockHash: `0x${'cd'.repeat(32)}`,
        blockNumber: 19_000_000n,
        body: '{}',
        sourceOffset: 0n,
      },
    ]);
    const startedAt = new Date(Date.now() - 1_000);
    const nextAttemptAt = new Date(Date.now() + 3600_000);
    await outbox.recordAttempt({
      deliveryId,
      subscriptionId: id,
      number: 1,
      startedAt,
      statusCode: 0,
      latencyMs: 15_000,
      error: 'no answer within 15 s',
      outcome: { kind: 'retry', nextAttemptAt },
    });

    const log = await json(await gateway.request('GET', deliveries));
    expect(log.data).toEqual([
      {
        type: 'webhook_deliveries',
        id: deliveryId,
        attributes: {
          address: evm(1),
          chain_id: 'ethereum',
          transaction_hash: `0x${'ab'.repeat(32)}`,
          block_number: 19_000_000,
          deleted: false,
          status: 'pending',
          attempt_count: 1,
          created_at: expect.any(String),
          next_attempt_at: nextAttemptAt.toISOString(),
          delivered_at: null,
          attempts: [{ number: 1, started_at: startedAt.toISOString(), status_code: null, latency_ms: 15_000, error: 'no answer within 15 s' }],
        },
      },
    ]);

    const retried = await gateway.request('POST', `${deliveries}/${deliveryId}/retry`);
    expect(retried.status).toBe(202);
    const replay = await json(retried);
    expect(replay.links).toEqual({ self: `${publicUrl}${deliveries}/${deliveryId}/retry` });
    expect(replay.data).toMatchObject({ type: 'webhook_deliveries', id: deliveryId, attributes: { status: 'pending', attempt_count: 1 } });
    expect(Date.parse(replay.data.attributes.next_attempt_at)).toBeLessThan(nextAttemptAt.getTime());
  });
});
