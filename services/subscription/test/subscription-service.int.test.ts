import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { Network } from '@wallet-api/core/proto/common';
import type { CreateSubscriptionRequest, SubscriptionFilters, SubscriptionRecord } from '@wallet-api/core/proto/subscription';
import { encodeWalletsCursor } from '../src/subscriptions/page-cursor.js';
import { contextOf, evmAddress, startSubscriptionHarness, type SubscriptionHarness } from './setup-subscription-service.js';

// The subscription gRPC service against a PostgreSQL database of the suite's own, through a real
// gRPC server and client. Rows are read back directly where the API does not show them (stored
// secrets, change rows, deliveries).

let harness: SubscriptionHarness;

beforeAll(async () => {
  harness = await startSubscriptionHarness();
});

afterAll(async () => {
  await harness?.close();
});

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const solana = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const callbackUrl = 'https://127.0.0.1:8443/hooks';
const list = (...values: string[]) => ({ values });
const excludeOf = (fields: Partial<NonNullable<SubscriptionFilters['exclude']>>): SubscriptionFilters => ({
  exclude: { operationTypes: undefined, dappIds: undefined, addresses: undefined, ...fields },
});

async function create(context = contextOf(), request: Partial<CreateSubscriptionRequest> = {}) {
  const { client, call } = harness;
  return call(client.createSubscription, { context, callbackUrl, addresses: [evmAddress()], chainIds: [], filters: undefined, ...request });
}

async function changeRows(subscriptionId: string) {
  return harness.prisma.$queryRaw<{ id: bigint; kind: string; added: string[]; removed: string[] }[]>`
    SELECT id, kind, added, removed FROM tx_subscription_changes WHERE subscription_id = ${subscriptionId} ORDER BY id`;
}

async function allWallets(context: ReturnType<typeof contextOf>, subscriptionId: string, pageSize: number) {
  const { client, call } = harness;
  const pages: string[][] = [];
  let after = '';
  do {
    const page = await call(client.listWallets, { context, subscriptionId, after, pageSize });
    pages.push(page.addresses);
    after = page.nextCursor;
  } while (after !== '' && pages.length < 100);
  return pages;
}

describe('create, get, list, delete', () => {
  test('a new subscription is enabled, its wallets normalised once each, its secret answered once and stored encrypted', async () => {
    const { client, call, prisma, secrets } = harness;
    const context = contextOf(randomUUID(), { addons: ['classification'], network: Network.NETWORK_TESTNET });
    const wallet = evmAddress();
    const changesBefore = harness.notified.changes;
    const created = await create(context, {
      addresses: [wallet, wallet.toLowerCase(), solana, solana],
      chainIds: ['sepolia'],
      filters: excludeOf({ operationTypes: list('send'), trash: true }),
    });
    const subscription = created.subscription!;
    expect(subscription.id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(subscription).toEqual<SubscriptionRecord>({
      id: subscription.id,
      callbackUrl,
      chainIds: ['sepolia'],
      enabled: true,
      filters: excludeOf({ operationTypes: list('send'), trash: true }),
      walletsCount: '2',
      createdAt: expect.stringMatching(iso),
      updatedAt: expect.stringMatching(iso),
    });
    expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.signingSecret.slice(6), 'base64')).toHaveLength(32);
    expect(harness.notified.changes).toBe(changesBefore + 1);

    expect(await call(client.getSubscription, { context, subscriptionId: subscription.id })).toEqual(subscription);
    const wallets = await call(client.listWallets, { context, subscriptionId: subscription.id, after: '', pageSize: 10 });
    expect(wallets).toEqual({ addresses: [wallet.toLowerCase(), solana].sort(), nextCursor: '' });

    const [row] = await prisma.$queryRaw<{ network: string; addons: string[]; organization_id: string }[]>`
      SELECT network, addons, organization_id::text FROM tx_subscriptions WHERE id = ${subscription.id}`;
    expect(row).toEqual({ network: 'testnet', addons: ['classification'], organization_id: context.organizationId });

    const stored = await prisma.$queryRaw<{ ciphertext: string; expires_at: Date | null }[]>`
      SELECT ciphertext, expires_at FROM tx_subscription_secrets WHERE subscription_id = ${subscription.id}`;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.expires_at).toBeNull();
    expect(stored[0]!.ciphertext).not.toContain(created.signingSecret.slice(6));
    expect(stored[0]!.ciphertext).not.toContain(created.signingSecret.slice(6, 20));
    expect(secrets.open(stored[0]!.ciphertext)).toBe(created.signingSecret);

    expect(await changeRows(subscription.id)).toEqual([
      { id: expect.any(BigInt), kind: 'created', added: expect.arrayContaining([wallet.toLowerCase(), solana]), removed: [] },
    ]);
  });

  test("list pages through the organization's subscriptions oldest first and shows no one else's", async () => {
    const { client, call } = harness;
    const context = contextOf();
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push((await create(context)).subscription!.id);
    await create(contextOf());

    const seen: string[][] = [];
    let after = '';
    do {
      const page = await call(client.listSubscriptions, { context, after, pageSize: 2 });
      seen.push(page.subscriptions.map((subscription) => subscription.id));
      after = page.nextCursor;
    } while (after !== '');
    expect(seen).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);

    const whole = await call(client.listSubscriptions, { context, after: '', pageSize: 100 });
    expect(whole.subscriptions.map((subscription) => subscription.id)).toEqual(ids);
    expect(whole.nextCursor).toBe('');
    expect(await call(client.listSubscriptions, { context: contextOf(), after: '', pageSize: 100 })).toEqual({ subscriptions: [], nextCursor: '' });
  });

  test('delete takes the subscription, its wallets, secrets and pending deliveries; nothing of it is found after', async () => {
    const { client, call, failure, prisma } = harness;
    const context = contextOf();
    const id = (await create(context, { addresses: [evmAddress(), evmAddress()] })).subscription!.id;
    await insertDelivery(id, { id: `dlv_${randomUUID()}`, status: 'pending', attempts: 2 });
    const delivered = `dlv_${randomUUID()}`;
    await insertDelivery(id, { id: delivered, status: 'delivered', attempts: 1 });

    expect(await call(client.deleteSubscription, { context, subscriptionId: id })).toEqual({});
    expect(await failure(client.getSubscription, { context, subscriptionId: id })).toEqual({ code: status.NOT_FOUND, details: `subscription ${id} not found` });
    expect(await failure(client.deleteSubscription, { context, subscriptionId: id })).toEqual({
      code: status.NOT_FOUND,
      details: `subscription ${id} not found`,
    });
    const [left] = await prisma.$queryRaw<{ wallets: number; secrets: number; pending: number; attempts: number; kept: number }[]>`
      SELECT (SELECT count(*)::int FROM tx_subscription_wallets WHERE subscription_id = ${id}) AS wallets,
        (SELECT count(*)::int FROM tx_subscription_secrets WHERE subscription_id = ${id}) AS secrets,
        (SELECT count(*)::int FROM webhook_deliveries WHERE subscription_id = ${id} AND status = 'pending') AS pending,
        (SELECT count(*)::int FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.subscription_id = ${id}) AS attempts,
        (SELECT count(*)::int FROM webhook_deliveries WHERE id = ${delivered}) AS kept`;
    // The delivered one stays as a record of what was sent (nothing more will be).
    expect(left).toEqual({ wallets: 0, secrets: 0, pending: 0, attempts: 1, kept: 1 });
    expect((await changeRows(id)).map((change) => change.kind)).toEqual(['created', 'deleted']);
  });
});

describe('ownership', () => {
  test('another organization gets NOT_FOUND from every call, and changes nothing', async () => {
    const { client, failure, store } = harness;
    const owner = contextOf();
    const { subscription } = await create(owner);
    const subscriptionId = subscription!.id;
    const deliveryId = `dlv_${randomUUID()}`;
    await insertDelivery(subscriptionId, { id: deliveryId, status: 'failed', attempts: 1 });
    const missing = { code: status.NOT_FOUND, details: `subscription ${subscriptionId} not found` };

    for (const context of [contextOf(), contextOf(''), undefined]) {
      const ref = { context, subscriptionId };
      expect(await failure(client.getSubscription, ref)).toEqual(missing);
      expect(await failure(client.deleteSubscription, ref)).toEqual(missing);
      expect(await failure(client.listWallets, { ...ref, after: '', pageSize: 10 })).toEqual(missing);
      expect(await failure(client.countWallets, ref)).toEqual(missing);
      expect(await failure(client.updateWallets, { ...ref, add: [evmAddress()], remove: [] })).toEqual(missing);
      expect(await failure(client.replaceWallets, { ...ref, addresses: [evmAddress()] })).toEqual(missing);
      expect(await failure(client.setCallbackUrl, { ...ref, callbackUrl: 'https://127.0.0.1/other' })).toEqual(missing);
      // A URL the guard refuses still answers NOT_FOUND: the refusal would tell that the subscription exists.
      expect(await failure(client.setCallbackUrl, { ...ref, callbackUrl: 'https://10.0.0.1/other' })).toEqual(missing);
      expect(await failure(client.setChainIds, { ...ref, chainIds: ['base'] })).toEqual(missing);
      expect(await failure(client.setFilters, { ...ref, filters: undefined })).toEqual(missing);
      expect(await failure(client.setEnabled, { ...ref, enabled: false })).toEqual(missing);
      expect(await failure(client.rotateSigningSecret, ref)).toEqual(missing);
      expect(await failure(client.listDeliveries, { ...ref, after: '', pageSize: 10 })).toEqual(missing);
      expect(await failure(client.retryDelivery, { ...ref, deliveryId })).toEqual(missing);
    }

    expect(await store.get({ organizationId: owner.organizationId, subscriptionId })).toMatchObject({
      callbackUrl,
      enabled: true,
      chainIds: [],
      walletsCount: 1,
    });
    expect((await changeRows(subscriptionId)).map((change) => change.kind)).toEqual(['created']);
    expect(await harness.store.signingSecrets(subscriptionId, harness.clock.now)).toHaveLength(1);
  });

  test('an id this service never makes is NOT_FOUND', async () => {
    const { client, failure } = harness;
    for (const subscriptionId of ['', 'sub_nope', "sub_'; --", `sub_${'0'.repeat(32)}`]) {
      expect(await failure(client.getSubscription, { context: contextOf(), subscriptionId })).toEqual({
        code: status.NOT_FOUND,
        details: `subscription ${subscriptionId} not found`,
      });
    }
  });
});

describe('wallets', () => {
  test('2,500 wallets page by 2000 in address order, and the count follows every add, remove and replace exactly', async () => {
    const { client, call, prisma } = harness;
    const context = contextOf();
    const first = evmAddress();
    const id = (await create(context, { addresses: [first] })).subscription!.id;
    const wallets = Array.from({ length: 2_500 }, evmAddress);
    const stored = wallets.map((address) => address.toLowerCase()).sort();

    await call(client.replaceWallets, { context, subscriptionId: id, addresses: [...wallets, wallets[0]!.toLowerCase()] });
    expect(await call(client.countWallets, { context, subscriptionId: id })).toEqual({ count: '2500' });
    const pages = await allWallets(context, id, 2_000);
    expect(pages.map((page) => page.length)).toEqual([2_000, 500]);
    expect(pages.flat()).toEqual(stored);

    // Add two present and two new; remove one present and one absent: only real changes count.
    const fresh = [evmAddress(), solana];
    const absent = evmAddress();
    await call(client.updateWallets, { context, subscriptionId: id, add: [wallets[1]!, wallets[2]!.toLowerCase(), ...fresh], remove: [wallets[3]!, absent] });
    expect(await call(client.countWallets, { context, subscriptionId: id })).toEqual({ count: '2501' });
    const [actual] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM tx_subscription_wallets WHERE subscription_id = ${id}`;
    expect(actual!.n).toBe(2_501);

    // Replace keeps the overlap, drops the rest, adds the new.
    const kept = wallets.slice(0, 10);
    const added = [evmAddress(), evmAddress()];
    await call(client.replaceWallets, { context, subscriptionId: id, addresses: [...kept, ...added] });
    expect(await call(client.countWallets, { context, subscriptionId: id })).toEqual({ count: '12' });
    expect((await allWallets(context, id, 5)).flat()).toEqual([...kept, ...added].map((address) => address.toLowerCase()).sort());

    // A replace with an empty list empties it.
    await call(client.replaceWallets, { context, subscriptionId: id, addresses: [] });
    expect(await call(client.countWallets, { context, subscriptionId: id })).toEqual({ count: '0' });
    expect(await call(client.listWallets, { context, subscriptionId: id, after: '', pageSize: 10 })).toEqual({ addresses: [], nextCursor: '' });

    const changes = await changeRows(id);
    expect(changes.map((change) => change.kind)).toEqual(['created', 'replaced', 'wallets', 'replaced', 'replaced']);
    expect(changes[0]).toMatchObject({ added: [first.toLowerCase()], removed: [] });
    expect(changes[1]).toMatchObject({ added: [], removed: [] });
    expect(new Set(changes[2]!.added)).toEqual(new Set([fresh[0]!.toLowerCase(), solana]));
    expect(changes[2]!.removed).toEqual([wallets[3]!.toLowerCase()]);
    expect(changes.map((change) => change.id)).toEqual([...changes.map((change) => change.id)].sort((a, b) => (a < b ? -1 : 1)));
  });

  test('an update that changes nothing writes no wallet change and keeps updated_at', async () => {
    const { client, call } = harness;
    const context = contextOf();
    const wallet = evmAddress();
    const created = (await create(context, { addresses: [wallet] })).subscription!;
    await call(client.updateWallets, { context, subscriptionId: created.id, add: [wallet], remove: [evmAddress()] });
    const after = await call(client.getSubscription, { context, subscriptionId: created.id });
    expect(after.updatedAt).toBe(created.updatedAt);
    expect(after.walletsCount).toBe('1');
    expect((await changeRows(created.id)).map((change) => change.kind)).toEqual(['created']);
  });

  test('concurrent updates of one subscription keep wallets_count equal to its rows', async () => {
    const { client, call, prisma } = harness;
    const context = contextOf();
    const id = (await create(context)).subscription!.id;
    const shared = Array.from({ length: 50 }, evmAddress);
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        n % 2 === 0
          ? call(client.updateWallets, { context, subscriptionId: id, add: [...shared, evmAddress()], remove: [] })
          : call(client.updateWallets, { context, subscriptionId: id, add: [], remove: [shared[n]!] }),
      ),
    );
    const [row] = await prisma.$queryRaw<{ counted: number; rows: number }[]>`
      SELECT wallets_count AS counted, (SELECT count(*)::int FROM tx_subscription_wallets WHERE subscription_id = ${id}) AS rows
      FROM tx_subscriptions WHERE id = ${id}`;
    expect(row!.counted).toBe(row!.rows);
    expect(row!.rows).toBeGreaterThanOrEqual(1 + 4 + 50 - 4);
  });

  test('a wallets cursor works for its own subscription only', async () => {
    const { client, call, failure } = harness;
    const context = contextOf();
    const one = (await create(context, { addresses: [evmAddress(), evmAddress(), evmAddress()] })).subscription!.id;
    const two = (await create(context)).subscription!.id;
    const page = await call(client.listWallets, { context, subscriptionId: one, after: '', pageSize: 1 });
    expect(page.nextCursor).not.toBe('');
    expect(await failure(client.listWallets, { context, subscriptionId: two, after: page.nextCursor, pageSize: 1 })).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'page[after] is not a cursor this endpoint returned',
    });
  });
});

describe('settings', () => {
  test('filters set, replace wholesale, clear and round trip', async () => {
    const { client, call } = harness;
    const context = contextOf();
    const id = (await create(context)).subscription!.id;
    const get = async () => (await call(client.getSubscription, { context, subscriptionId: id })).filters;
    expect(await get()).toBeUndefined();

    const counterparty = evmAddress();
    await call(client.setFilters, {
      context,
      subscriptionId: id,
      filters: excludeOf({ operationTypes: list('send', 'trade'), trash: true, dappIds: list('uniswap'), addresses: list(counterparty, solana) }),
    });
    expect(await get()).toEqual(
      excludeOf({ operationTypes: list('send', 'trade'), trash: true, dappIds: list('uniswap'), addresses: list(counterparty.toLowerCase(), solana) }),
    );
    const [stored] = await harness.prisma.$queryRaw<{ filters: unknown }[]>`SELECT filters FROM tx_subscriptions WHERE id = ${id}`;
    expect(stored!.filters).toEqual({
      exclude: { operation_types: ['send', 'trade'], trash: true, dapp_ids: ['uniswap'], addresses: [counterparty.toLowerCase(), solana] },
    });

    // Wholesale: what is not given is gone.
    await call(client.setFilters, { context, subscriptionId: id, filters: excludeOf({ dappIds: list() }) });
    expect(await get()).toEqual(excludeOf({ dappIds: list() }));
    await call(client.setFilters, { context, subscriptionId: id, filters: { exclude: undefined } });
    expect(await get()).toEqual({ exclude: undefined });
    await call(client.setFilters, { context, subscriptionId: id, filters: undefined });
    expect(await get()).toBeUndefined();
    expect((await changeRows(id)).map((change) => change.kind)).toEqual(['created', 'settings', 'settings', 'settings', 'settings']);
  });

  test('enable, disable, chain ids and callback URL, each a settings change that moves updated_at', async () => {
    const { client, call, prisma } = harness;
    const context = contextOf();
    const created = (await create(context)).subscription!;
    const id = created.id;
    const changesBefore = harness.notified.changes;
    await call(client.setEnabled, { context, subscriptionId: id, enabled: false });
    const disabled = await call(client.getSubscription, { context, subscriptionId: id });
    expect(disabled.enabled).toBe(false);
    expect(disabled.updatedAt >= created.updatedAt).toBe(true);
    expect(await prisma.$queryRaw`SELECT enabled FROM tx_subscriptions WHERE id = ${id}`).toEqual([{ enabled: false }]);
    await call(client.setEnabled, { context, subscriptionId: id, enabled: true });
    await call(client.setChainIds, { context, subscriptionId: id, chainIds: ['base', 'ethereum'] });
    await call(client.setCallbackUrl, { context, subscriptionId: id, callbackUrl: 'http://127.0.0.1:9000/new' });
    expect(await call(client.getSubscription, { context, subscriptionId: id })).toMatchObject({
      enabled: true,
      chainIds: ['base', 'ethereum'],
      callbackUrl: 'http://127.0.0.1:9000/new',
      createdAt: created.createdAt,
    });
    await call(client.setChainIds, { context, subscriptionId: id, chainIds: [] });
    expect((await call(client.getSubscription, { context, subscriptionId: id })).chainIds).toEqual([]);
    // Chains were checked against the caller's network: a mainnet subscription refuses a testnet list.
    expect(
      await harness.failure(client.setChainIds, { context: { ...context, network: Network.NETWORK_TESTNET }, subscriptionId: id, chainIds: ['sepolia'] }),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: `chain_ids: subscription ${id} watches mainnet chains; send the request without X-Env: testnet`,
    });
    expect(harness.notified.changes).toBe(changesBefore + 5);
    expect((await changeRows(id)).map((change) => change.kind)).toEqual(['created', 'settings', 'settings', 'settings', 'settings', 'settings']);
  });

  test("every change stores the caller's add-ons; a wallet change with new add-ons also writes a settings change", async () => {
    const { client, call, store } = harness;
    const organizationId = randomUUID();
    const id = (await create(contextOf(organizationId))).subscription!.id;
    await call(client.updateWallets, {
      context: contextOf(organizationId, { addons: ['classification'] }),
      subscriptionId: id,
      add: [evmAddress()],
      remove: [],
    });
    expect((await store.loadSubscriptionSettings(id))!.addons).toEqual(['classification']);
    await call(client.updateWallets, {
      context: contextOf(organizationId, { addons: ['classification'] }),
      subscriptionId: id,
      add: [evmAddress()],
      remove: [],
    });
    await call(client.rotateSigningSecret, { context: contextOf(organizationId), subscriptionId: id });
    expect((await store.loadSubscriptionSettings(id))!.addons).toEqual([]);
    expect((await changeRows(id)).map((change) => change.kind)).toEqual(['created', 'settings', 'wallets', 'wallets', 'settings']);
  });
});

describe('signing secrets', () => {
  test('rotation: both secrets sign until the old one expires after the overlap', async () => {
    const { client, call, store, secrets, clock, rotationOverlapMs } = harness;
    const context = contextOf();
    const created = await create(context);
    const id = created.subscription!.id;
    const rotatedAt = clock.now;
    const rotated = await call(client.rotateSigningSecret, { context, subscriptionId: id });
    expect(rotated.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    expect(rotated.previousExpiresAt).toBe(new Date(rotatedAt.getTime() + rotationOverlapMs).toISOString());

    const open = async (at: Date) => (await store.signingSecrets(id, at)).map((secret) => secrets.open(secret.ciphertext));
    expect(await open(rotatedAt)).toEqual([rotated.signingSecret, created.signingSecret]);
    expect(await open(new Date(rotatedAt.getTime() + rotationOverlapMs - 1))).toEqual([rotated.signingSecret, created.signingSecret]);
    expect(await open(new Date(rotatedAt.getTime() + rotationOverlapMs))).toEqual([rotated.signingSecret]);

    // A rotation after the overlap clears the expired one out.
    clock.now = new Date(rotatedAt.getTime() + rotationOverlapMs + 1_000);
    try {
      const again = await call(client.rotateSigningSecret, { context, subscriptionId: id });
      expect(await open(clock.now)).toEqual([again.signingSecret, rotated.signingSecret]);
      const [rows] = await harness.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM tx_subscription_secrets WHERE subscription_id = ${id}`;
      expect(rows!.n).toBe(2);
      const stored = await harness.prisma.$queryRaw<{ ciphertext: string }[]>`SELECT ciphertext FROM tx_subscription_secrets WHERE subscription_id = ${id}`;
      for (const { ciphertext } of stored) {
        expect(ciphertext.startsWith('v1:')).toBe(true);
        for (const secret of [again.signingSecret, rotated.signingSecret]) expect(ciphertext).not.toContain(secret.slice(6));
      }
    } finally {
      clock.now = rotatedAt;
    }
  });
});

describe('deliveries', () => {
  test('the log pages newest first with every attempt; retry makes one due again keeping its id, body and attempts', async () => {
    const { client, call, failure, prisma } = harness;
    const context = contextOf();
    const id = (await create(context)).subscription!.id;
    const otherId = (await create(context)).subscription!.id;
    const base = Date.parse('2026-11-20T00:00:00.000Z');
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      const deliveryId = `dlv_${n}_${randomUUID()}`;
      ids.push(deliveryId);
      // Two share a created_at: the id breaks the tie.
      await insertDelivery(id, { id: deliveryId, status: n === 4 ? 'delivered' : 'failed', attempts: n, createdAt: new Date(base + Math.min(n, 3) * 1_000) });
    }
    const foreign = `dlv_other_${randomUUID()}`;
    await insertDelivery(otherId, { id: foreign, status: 'failed', attempts: 1 });

    const pages: string[][] = [];
    let after = '';
    do {
      const page = await call(client.listDeliveries, { context, subscriptionId: id, after, pageSize: 2 });
      pages.push(page.deliveries.map((delivery) => delivery.id));
      after = page.nextCursor;
    } while (after !== '');
    const newestFirst = [...ids.slice(3).sort().reverse(), ids[2]!, ids[1]!, ids[0]!];
    expect(pages.flat()).toEqual(newestFirst);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);

    const whole = await call(client.listDeliveries, { context, subscriptionId: id, after: '', pageSize: 100 });
    const delivered = whole.deliveries.find((delivery) => delivery.id === ids[4])!;
    expect(delivered).toEqual({
      id: ids[4],
      subscriptionId: id,
      address: '0x00000000000000000000000000000000000000aa',
      chainId: 'ethereum',
      transactionHash: '0xfeed',
      blockNumber: '12345678901',
      deleted: false,
      status: 'delivered',
      attemptCount: 4,
      createdAt: new Date(base + 3_000).toISOString(),
      nextAttemptAt: '',
      deliveredAt: expect.stringMatching(iso),
      attempts: [1, 2, 3, 4].map((number) => ({
        number,
        startedAt: new Date(base + number * 60_000).toISOString(),
        statusCode: number === 4 ? 200 : 0,
        latencyMs: number * 10,
        error: number === 4 ? '' : 'connection refused',
      })),
    });

    const retriesBefore = harness.notified.retries;
    const retried = await call(client.retryDelivery, { context, subscriptionId: id, deliveryId: ids[4]! });
    expect(retried).toMatchObject({ id: ids[4], status: 'pending', attemptCount: 4, deliveredAt: '', nextAttemptAt: expect.stringMatching(iso) });
    expect(retried.attempts).toHaveLength(4);
    expect(harness.notified.retries).toBe(retriesBefore + 1);
    const [row] = await prisma.$queryRaw<{ status: string; lease_until: Date | null; body: string; due: boolean }[]>`
      SELECT status, lease_until, body, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE id = ${ids[4]}`;
    expect(row).toEqual({ status: 'pending', lease_until: null, body: `{"delivery":"${ids[4]}"}`, due: true });

    expect(await failure(client.retryDelivery, { context, subscriptionId: id, deliveryId: foreign })).toEqual({
      code: status.NOT_FOUND,
      details: `delivery ${foreign} not found`,
    });
    expect(await failure(client.retryDelivery, { context, subscriptionId: id, deliveryId: 'dlv_none' })).toEqual({
      code: status.NOT_FOUND,
      details: 'delivery dlv_none not found',
    });
    expect(harness.notified.retries).toBe(retriesBefore + 1);
  });
});

describe('validation', () => {
  const invalid = (details: string) => ({ code: status.INVALID_ARGUMENT, details });

  test('every rule answers INVALID_ARGUMENT with its detail, and nothing is written', async () => {
    const { client, failure, prisma } = harness;
    const context = contextOf();
    const subscriptionId = (await create(context)).subscription!.id;
    const ref = { context, subscriptionId };
    const many = (n: number) => Array.from({ length: n }, evmAddress);
    const createWith = (request: Partial<CreateSubscriptionRequest>) =>
      failure(client.createSubscription, { context, callbackUrl, addresses: [evmAddress()], chainIds: [], filters: undefined, ...request });
    const subscriptionsBefore = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM tx_subscriptions`;

    expect(await createWith({ addresses: [] })).toEqual(invalid('addresses must hold 1 to 100 addresses'));
    expect(await createWith({ addresses: many(101) })).toEqual(invalid('addresses must hold 1 to 100 addresses'));
    expect(await createWith({ addresses: ['0x1234'] })).toEqual(invalid('addresses holds "0x1234", which is not an EVM or Solana address'));
    expect(await createWith({ callbackUrl: 'https://10.0.0.1/hook' })).toEqual(invalid('callback_url host is a private address (10.0.0.1)'));
    expect(await createWith({ callbackUrl: 'ftp://127.0.0.1/hook' })).toEqual(invalid('callback_url must use https'));
    expect(await createWith({ callbackUrl: 'not-a-url' })).toEqual(invalid('callback_url is not a valid absolute URL'));
    expect(await createWith({ filters: excludeOf({ addresses: list('nope') }) })).toEqual(
      invalid('filters.exclude.addresses holds "nope", which is not an EVM or Solana address'),
    );
    expect(await createWith({ context: { ...context, organizationId: 'not-a-uuid' } })).toEqual(invalid('context.organization_id is not an organization id'));
    expect(await prisma.$queryRaw`SELECT count(*)::int AS n FROM tx_subscriptions`).toEqual(subscriptionsBefore);

    expect(await failure(client.updateWallets, { ...ref, add: many(101), remove: [] })).toEqual(invalid('add holds more than 100 addresses'));
    expect(await failure(client.updateWallets, { ...ref, add: [], remove: many(101) })).toEqual(invalid('remove holds more than 100 addresses'));
    const both = evmAddress();
    expect(await failure(client.updateWallets, { ...ref, add: [both], remove: [both.toLowerCase()] })).toEqual(
      invalid(`add and remove both hold ${both.toLowerCase()}`),
    );
    expect(await failure(client.updateWallets, { ...ref, add: ['x'], remove: [] })).toEqual(invalid('add holds "x", which is not an EVM or Solana address'));
    expect(await failure(client.replaceWallets, { ...ref, addresses: many(10_001) })).toEqual(invalid('addresses holds more than 10000 addresses'));
    expect(await failure(client.setCallbackUrl, { ...ref, callbackUrl: 'https://169.254.169.254/latest' })).toEqual(
      invalid('callback_url host is a link-local address (169.254.169.254)'),
    );
    expect(await failure(client.setFilters, { ...ref, filters: excludeOf({ addresses: list('0xZZ') }) })).toEqual(
      invalid('filters.exclude.addresses holds "0xZZ", which is not an EVM or Solana address'),
    );

    for (const pageSize of [0, 101]) {
      expect(await failure(client.listSubscriptions, { context, after: '', pageSize })).toEqual(invalid('page[size] must be an integer from 1 to 100'));
      expect(await failure(client.listDeliveries, { ...ref, after: '', pageSize })).toEqual(invalid('page[size] must be an integer from 1 to 100'));
    }
    for (const pageSize of [0, 2001]) {
      expect(await failure(client.listWallets, { ...ref, after: '', pageSize })).toEqual(invalid('page[size] must be an integer from 1 to 2000'));
    }
    const notACursor = invalid('page[after] is not a cursor this endpoint returned');
    expect(await failure(client.listSubscriptions, { context, after: 'garbage!', pageSize: 10 })).toEqual(notACursor);
    expect(await failure(client.listSubscriptions, { context, after: encodeWalletsCursor({ subscriptionId, address: '0x' }), pageSize: 10 })).toEqual(
      notACursor,
    );
    expect(await failure(client.listWallets, { ...ref, after: 'eyJrIjoid2FsbGV0cyJ9', pageSize: 10 })).toEqual(notACursor);
    expect(await failure(client.listDeliveries, { ...ref, after: encodeWalletsCursor({ subscriptionId, address: '0x' }), pageSize: 10 })).toEqual(notACursor);

    const stored = await harness.store.get({ organizationId: context.organizationId, subscriptionId });
    expect(stored).toMatchObject({ callbackUrl, walletsCount: 1, filters: null });
    expect((await changeRows(subscriptionId)).map((change) => change.kind)).toEqual(['created']);
  });
});

describe("the matcher's reads", () => {
  test("snapshot, wallet pages across subscriptions, changes after an id, one subscription's settings and wallets", async () => {
    const { store, client, call } = harness;
    const context = contextOf(randomUUID(), { addons: ['classification'] });
    const before = await store.latestChangeId();
    const a = await create(context, { addresses: Array.from({ length: 7 }, evmAddress), chainIds: ['base'], filters: excludeOf({ trash: true }) });
    const b = await create(context, { addresses: Array.from({ length: 5 }, evmAddress) });
    await call(client.setEnabled, { context, subscriptionId: b.subscription!.id, enabled: false });

    const snapshot = await store.loadIndexSnapshot();
    expect(snapshot.changeId).toBeGreaterThan(before);
    expect(snapshot.subscriptions).toContainEqual({
      id: a.subscription!.id,
      organizationId: context.organizationId,
      network: 'mainnet',
      callbackUrl,
      addons: ['classification'],
      chainIds: ['base'],
      enabled: true,
      filters: { exclude: { trash: true } },
    });
    expect(snapshot.subscriptions.find((entry) => entry.id === b.subscription!.id)?.enabled).toBe(false);

    const walletsOf = new Map<string, string[]>();
    let pages = 0;
    for await (const page of store.walletPages(3)) {
      pages += 1;
      for (const { subscriptionId, addresses } of page.wallets) walletsOf.set(subscriptionId, [...(walletsOf.get(subscriptionId) ?? []), ...addresses]);
    }
    const [total] = await harness.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM tx_subscription_wallets`;
    expect([...walletsOf.values()].flat()).toHaveLength(total!.n);
    expect(pages).toBe(Math.ceil(total!.n / 3));
    expect(walletsOf.get(a.subscription!.id)).toEqual(await store.loadWallets(a.subscription!.id));
    expect(await store.loadWallets(a.subscription!.id)).toHaveLength(7);
    expect(await store.loadWallets('sub_none')).toEqual([]);
    expect(await store.loadSubscriptionSettings(b.subscription!.id)).toMatchObject({ enabled: false, chainIds: [], filters: null });
    expect(await store.loadSubscriptionSettings('sub_none')).toBeNull();

    const changes = await store.changesAfter(before, 100);
    expect(changes.map((change) => [change.subscriptionId, change.kind])).toEqual([
      [a.subscription!.id, 'created'],
      [b.subscription!.id, 'created'],
      [b.subscription!.id, 'settings'],
    ]);
    expect(changes[0]!.added).toHaveLength(7);
    expect(await store.changesAfter(before, 2)).toHaveLength(2);
    expect(await store.changesAfter(changes[2]!.id, 100)).toEqual([]);
    expect(await store.latestChangeId()).toBe(changes[2]!.id);
  });

  test('a million wallet rows load in seconds', async () => {
    const { prisma, store } = harness;
    const count = 1_000_000;
    // 1,000 subscriptions of 1,000 wallets each, written straight into the table.
    await prisma.$executeRaw`
      INSERT INTO tx_subscription_wallets (subscription_id, address)
      SELECT 'bulk_' || lpad((n % 1000)::text, 4, '0'), '0x' || lpad(to_hex(n), 40, '0') FROM generate_series(1, ${count}) AS n`;
    try {
      const started = Date.now();
      let rows = 0;
      let previous = '';
      for await (const page of store.walletPages(50_000)) {
        for (const { subscriptionId, addresses } of page.wallets) {
          if (!subscriptionId.startsWith('bulk_')) continue;
          rows += addresses.length;
          // Pages follow each other in (subscription_id, address) order: nothing is read twice.
          const first = `${subscriptionId} ${addresses[0]}`;
          expect(first > previous).toBe(true);
          previous = `${subscriptionId} ${addresses[addresses.length - 1]}`;
        }
      }
      const elapsed = Date.now() - started;
      expect(rows).toBe(count);
      expect(elapsed).toBeLessThan(20_000);
    } finally {
      await prisma.$executeRaw`DELETE FROM tx_subscription_wallets WHERE subscription_id LIKE 'bulk_%'`;
    }
  }, 180_000);
});

async function insertDelivery(subscriptionId: string, delivery: { id: string; status: string; attempts: number; createdAt?: Date }): Promise<void> {
  const { prisma } = harness;
  const createdAt = delivery.createdAt ?? new Date();
  await prisma.$executeRaw`
    INSERT INTO webhook_deliveries (id, subscription_id, address, chain_id, transaction_hash, block_hash, block_number, deleted, body, status,
      attempt_count, next_attempt_at, lease_until, created_at, delivered_at)
    VALUES (${delivery.id}, ${subscriptionId}, '0x00000000000000000000000000000000000000aa', 'ethereum', '0xfeed', ${`0xblock${delivery.id}`}, 12345678901,
      false, ${`{"delivery":"${delivery.id}"}`}, ${delivery.status}, ${delivery.attempts},
      ${delivery.status === 'pending' ? createdAt : null}::timestamptz, ${delivery.status === 'pending' ? new Date(Date.now() + 60_000) : null}::timestamptz,
      ${createdAt}::timestamptz, ${delivery.status === 'delivered' ? new Date(createdAt.getTime() + 5_000) : null}::timestamptz)`;
  const base = Date.parse('2026-11-20T00:00:00.000Z');
  for (let number = 1; number <= delivery.attempts; number += 1) {
    const succeeded = delivery.status === 'delivered' && number === delivery.attempts;
    await prisma.$executeRaw`
      INSERT INTO webhook_delivery_attempts (delivery_id, number, started_at, status_code, latency_ms, error)
      VALUES (${delivery.id}, ${number}, ${new Date(base + number * 60_000)}::timestamptz, ${succeeded ? 200 : 0}, ${number * 10},
        ${succeeded ? '' : 'connection refused'})`;
  }
}
