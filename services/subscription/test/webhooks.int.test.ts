import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { getAddress, type Address, type Hash } from 'viem';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import type { SubscriptionFilters } from '@wallet-api/core/proto/subscription';
import { eventually } from '@wallet-api/core/testing';
import { startReceiver, startWebhookWorld, type Receiver, type ReceivedWebhook, type WebhookWorld } from './setup-webhooks.js';
import { verifiesRsa, verifiesStandardWebhook } from './webhook-signatures.js';

// Webhooks end to end on a devnet chain: transactions mined on an anvil of the suite's own are
// indexed, published on Kafka, matched and delivered to a loopback receiver that checks both
// signature schemes with its own code, and every delivered number is held against the chain.

const kafkaScript = new URL('../../../scripts/infra/kafka.sh', import.meta.url).pathname;
const manifest = JSON.parse(await readFile(new URL('../../../.data/devnet/manifest.json', import.meta.url), 'utf8'));
const ethereum = manifest.chains.find((chain: { id: string }) => chain.id === 'ethereum');
const safe: string = ethereum.wallets.find((wallet: { kind: string }) => wallet.kind === 'safe').address.toLowerCase();
const usdc: string = ethereum.protocols.tokens.tokens.find((token: { symbol: string }) => token.symbol === 'USDC').address.toLowerCase();

let world: WebhookWorld;
let receiver: Receiver;
const context = { organizationId: randomUUID(), roles: [], addons: [], network: Network.NETWORK_MAINNET };
const secrets = new Map<string, string>();

beforeAll(async () => {
  receiver = await startReceiver();
  world = await startWebhookWorld();
}, 240_000);

afterAll(async () => {
  await world?.close();
  await receiver?.close();
}, 60_000);

const newWallet = () => `0x${randomBytes(20).toString('hex')}`;

async function subscribe(addresses: string[], filters?: SubscriptionFilters): Promise<string> {
  const created = await unary(world.subscriptions, world.subscriptions.createSubscription, {
    context,
    callbackUrl: receiver.url,
    addresses,
    chainIds: ['ethereum'],
    filters,
  });
  secrets.set(created.subscription!.id, created.signingSecret);
  return created.subscription!.id;
}

async function fund(address: string): Promise<void> {
  await world.chain.session.setBalance(getAddress(address), 10n ** 20n);
}

/** Sends the transactions and mines them in one block; answers their hashes. */
async function mine(requests: { from: string; to: string; value?: bigint; data?: `0x${string}`; gas?: bigint }[]): Promise<Hash[]> {
  const hashes: Hash[] = [];
  for (const request of requests) {
    hashes.push(
      await world.chain.session.send({
        from: getAddress(request.from),
        to: getAddress(request.to) as Address,
        value: request.value ?? 0n,
        data: request.data ?? '0x',
        ...(request.gas ? { gas: request.gas } : {}),
      }),
    );
  }
  // Anvil's next block may not be older than its wall-clock pending block, whatever the loaded world's last time.
  await world.chain.session.mine(Math.max(await world.chain.session.latestTimestamp(), Math.floor(Date.now() / 1000)) + 12);
  return hashes;
}

/** Webhooks the receiver accepted (2xx) for a transaction. */
const webhooksFor = (hash: string) => receiver.received.filter((webhook) => webhook.status < 300 && webhook.json.included[0].attributes.hash === hash);
const keyOf = (webhook: ReceivedWebhook) =>
  `${webhook.json.data.relationships.subscription.data.id}:${webhook.json.data.attributes.address}:${webhook.json.included[0].attributes.deleted}`;

/** Waits until nothing new arrives for a while, so "exactly" can be checked. */
async function settle(quietMs = 2_000): Promise<void> {
  let count = -1;
  while (count !== receiver.received.length) {
    count = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

test('every subscribed wallet of a transaction gets one webhook, signed both ways, with what the chain says', async () => {
  const [alice, bob, carol, dave] = [newWallet(), newWallet(), newWallet(), newWallet()];
  for (const wallet of [alice, carol]) await fund(wallet!);
  const both = await subscribe([alice!, bob!]);
  const bobOnly = await subscribe([bob!.toUpperCase().replace('0X', '0x')]);
  const value = 123_456_789_000_000_000n;
  const [paid, unrelated] = await mine([
    { from: alice!, to: bob!, value },
    { from: carol!, to: dave!, value: 1n },
  ]);

  await eventually(() => expect(webhooksFor(paid!)).toHaveLength(3), 30_000);
  await settle();
  const webhooks = webhooksFor(paid!);
  expect(webhooks.map(keyOf).sort()).toEqual([`${both}:${alice}:false`, `${both}:${bob}:false`, `${bobOnly}:${bob}:false`].sort());
  expect(webhooksFor(unrelated!)).toEqual([]);

  const receipt = await world.chain.session.client.getTransactionReceipt({ hash: paid! });
  for (const webhook of webhooks) {
    const subscriptionId = webhook.json.data.relationships.subscription.data.id;
    expect(webhook.headers['webhook-id']).toBe(webhook.json.data.id);
    expect(verifiesStandardWebhook(webhook, secrets.get(subscriptionId)!)).toBe(true);
    expect(verifiesStandardWebhook(webhook, `whsec_${randomBytes(32).toString('base64')}`)).toBe(false);
    expect(verifiesRsa(webhook, world.certificate)).toBe(true);
    expect(verifiesRsa({ ...webhook, body: webhook.body.replace('"callback"', '"callbacK"') }, world.certificate)).toBe(false);
    expect(webhook.headers['x-certificate-url']).toBe(world.certificateUrl);
    expect(webhook.json.data).toMatchObject({
      type: 'callback',
      attributes: { callback_url: receiver.url },
      relationships: { subscription: { data: { type: 'tx_subscriptions' } } },
    });

    const transaction = webhook.json.included[0];
    const wallet = webhook.json.data.attributes.address;
    expect(transaction.type).toBe('transactions');
    expect(transaction.attributes).toMatchObject({
      hash: paid,
      address: wallet,
      mined_at_block: Number(receipt.blockNumber),
      sent_from: alice,
      sent_to: bob,
      status: 'confirmed',
      operation_type: wallet === alice ? 'send' : 'receive',
      deleted: false,
    });
    expect(transaction.attributes.fee.quantity.int).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
    expect(transaction.attributes.transfers).toHaveLength(1);
    expect(transaction.attributes.transfers[0]).toMatchObject({
      direction: wallet === alice ? 'out' : 'in',
      sender: alice,
      recipient: bob,
      quantity: { int: value.toString(), decimals: 18, numeric: '0.123456789' },
    });
  }
}, 90_000);

test('filters.exclude drops what it names; a disabled subscription gets nothing until enabled again', async () => {
  const [erin, frank, gina, hank] = [newWallet(), newWallet(), newWallet(), newWallet()];
  for (const wallet of [erin, frank, gina]) await fund(wallet!);
  const noSends = await subscribe([erin!], { exclude: { operationTypes: { values: ['send'] }, trash: undefined, dappIds: undefined, addresses: undefined } });
  const paused = await subscribe([gina!]);
  await unary(world.subscriptions, world.subscriptions.setEnabled, { context, subscriptionId: paused, enabled: false });

  const [sent, received, whilePaused] = await mine([
    { from: erin!, to: frank!, value: 5n },
    { from: frank!, to: erin!, value: 7n },
    { from: gina!, to: hank!, value: 9n },
  ]);
  await eventually(() => expect(webhooksFor(received!)).toHaveLength(1), 30_000);
  await unary(world.subscriptions, world.subscriptions.setEnabled, { context, subscriptionId: paused, enabled: true });
  const [afterEnable] = await mine([{ from: gina!, to: hank!, value: 11n }]);
  await eventually(() => expect(webhooksFor(afterEnable!)).toHaveLength(1), 30_000);
  await settle();

  expect(webhooksFor(received!).map(keyOf)).toEqual([`${noSends}:${erin}:false`]);
  expect(webhooksFor(received!)[0]!.json.included[0].attributes.operation_type).toBe('receive');
  expect(webhooksFor(sent!)).toEqual([]);
  expect(webhooksFor(whilePaused!)).toEqual([]);
  expect(webhooksFor(afterEnable!).map(keyOf)).toEqual([`${paused}:${gina}:false`]);
}, 90_000);

test('a failed transaction reaches a smart-contract wallet it was addressed to, not a plain contract', async () => {
  const ivan = newWallet();
  await fund(ivan);
  const watching = await subscribe([safe, usdc]);
  // execTransaction's selector without its arguments: the Safe cannot decode them and reverts; so does the token, which has no such function.
  const [toSafe, toToken] = await mine([
    { from: ivan, to: safe, data: '0x6a761202', gas: 200_000n },
    { from: ivan, to: usdc, data: '0x6a761202', gas: 200_000n },
  ]);
  for (const hash of [toSafe!, toToken!]) expect((await world.chain.session.client.getTransactionReceipt({ hash })).status).toBe('reverted');

  await eventually(() => expect(webhooksFor(toSafe!)).toHaveLength(1), 30_000);
  await settle();
  expect(webhooksFor(toSafe!).map(keyOf)).toEqual([`${watching}:${safe}:false`]);
  expect(webhooksFor(toToken!)).toEqual([]);
}, 90_000);

test('a rollback re-delivers the orphaned transaction with deleted: true under a new webhook id', async () => {
  const [judy, kim] = [newWallet(), newWallet()];
  await fund(judy);
  const watching = await subscribe([judy]);
  const [orphaned] = await mine([{ from: judy, to: kim, value: 3n }]);
  await eventually(() => expect(webhooksFor(orphaned!)).toHaveLength(1), 30_000);

  const client = world.chain.session.client;
  await client.request({ method: 'anvil_rollback' as never, params: [1] as never });
  await client.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never });
  world.chain.session.resetNonces();
  // The new branch is longer than the old one, so the indexer follows it.
  await mine([]);
  await mine([]);

  await eventually(() => expect(webhooksFor(orphaned!).filter((webhook) => webhook.json.included[0].attributes.deleted === true)).toHaveLength(1), 30_000);
  await settle();
  const [original, deleted] = [false, true].map((flag) => webhooksFor(orphaned!).find((webhook) => webhook.json.included[0].attributes.deleted === flag)!);
  expect(keyOf(deleted!)).toBe(`${watching}:${judy}:true`);
  expect(deleted!.headers['webhook-id']).not.toBe(original!.headers['webhook-id']);
  expect(verifiesStandardWebhook(deleted!, secrets.get(watching)!)).toBe(true);
  const { deleted: _flag, ...attributes } = deleted!.json.included[0].attributes;
  const { deleted: _original, ...originalAttributes } = original!.json.included[0].attributes;
  expect(attributes).toEqual(originalAttributes);
  expect(webhooksFor(orphaned!)).toHaveLength(2);
}, 90_000);

test('Retry-After on a 503 holds the next attempt back; a 410 disables the subscription and nothing more is sent to it', async () => {
  const [pia, quinn] = [newWallet(), newWallet()];
  await fund(pia);
  const slowed = await subscribe([pia]);
  const gone = await subscribe([quinn]);
  const attempts = new Map<string, number>();
  receiver.answerWith((request) => {
    const id = request.headers['webhook-id'] as string;
    attempts.set(id, (attempts.get(id) ?? 0) + 1);
    const subscriptionId = request.json.data.relationships.subscription.data.id;
    if (subscriptionId === gone) return { status: 410 };
    // The schedule retries at once; the receiver asks for 2 s.
    if (subscriptionId === slowed && attempts.get(id) === 1) return { status: 503, headers: { 'Retry-After': '2' } };
    return { status: 200 };
  });
  const [hash] = await mine([{ from: pia, to: quinn, value: 1n }]);
  await eventually(() => expect(webhooksFor(hash!)).toHaveLength(1), 30_000);
  await eventually(
    async () => expect((await unary(world.subscriptions, world.subscriptions.getSubscription, { context, subscriptionId: gone })).enabled).toBe(false),
    30_000,
  );
  receiver.answerWith({ status: 200 });

  const logOf = async (subscriptionId: string) =>
    (await unary(world.subscriptions, world.subscriptions.listDeliveries, { context, subscriptionId, after: '', pageSize: 100 })).deliveries;
  const slowedDelivery = await eventually(async () => {
    const [delivery] = await logOf(slowed);
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 200]);
    return delivery!;
  }, 10_000);
  const [first, second] = slowedDelivery.attempts.map((attempt) => Date.parse(attempt.startedAt));
  expect(second! - first!).toBeGreaterThanOrEqual(2_000);
  const [goneDelivery] = await logOf(gone);
  expect(goneDelivery).toMatchObject({ status: 'failed', attemptCount: 1 });
  expect(goneDelivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([410]);

  const [later] = await mine([{ from: pia, to: quinn, value: 2n }]);
  await eventually(() => expect(webhooksFor(later!)).toHaveLength(1), 30_000);
  await settle();
  expect(webhooksFor(later!).map(keyOf)).toEqual([`${slowed}:${pia}:false`]);
  expect(receiver.received.filter((webhook) => webhook.json.data.relationships.subscription.data.id === gone)).toHaveLength(1);
}, 90_000);

test('a receiver failing with 500s, then a service killed with SIGKILL mid-delivery: every notification arrives, duplicates only with the same webhook id', async () => {
  const [lena, mona] = [newWallet(), newWallet()];
  await fund(lena);
  const watching = await subscribe([lena, mona]);

  // Every first and second attempt of a delivery fails; the third succeeds.
  const attemptsById = new Map<string, number>();
  receiver.answerWith((request) => {
    const id = request.headers['webhook-id'] as string;
    const attempt = (attemptsById.get(id) ?? 0) + 1;
    attemptsById.set(id, attempt);
    return attempt <= 2 ? { status: 500 } : { status: 200 };
  });
  const [retried] = await mine([{ from: lena, to: mona, value: 1n }]);
  await eventually(() => expect(webhooksFor(retried!)).toHaveLength(2), 30_000);
  for (const webhook of webhooksFor(retried!)) expect(attemptsById.get(webhook.headers['webhook-id'] as string)).toBe(3);
  // The receiver records the third post before the service has stored its 200, so the log is read until it has.
  await eventually(async () => {
    const log = await unary(world.subscriptions, world.subscriptions.listDeliveries, { context, subscriptionId: watching, after: '', pageSize: 100 });
    const logged = log.deliveries.filter((delivery) => delivery.transactionHash === retried);
    expect(logged).toHaveLength(2);
    for (const delivery of logged) {
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
      for (const attempt of delivery.attempts) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    }
  }, 10_000);

  // The receiver holds every request long enough for the service to die with posts in flight.
  receiver.answerWith({ status: 200, delayMs: 1_500 });
  const inFlightBefore = receiver.received.length;
  const hashes = await mine([
    { from: lena, to: mona, value: 2n },
    { from: lena, to: mona, value: 3n },
  ]);
  await new Promise((resolve) => setTimeout(resolve, 700));
  world.kill();
  receiver.answerWith({ status: 200 });
  await world.restart();
  // A restarted matcher rejoins its group once the killed member's Kafka session (30 s) has ended.
  await eventually(() => expect(hashes.flatMap((hash) => webhooksFor(hash)).length).toBeGreaterThanOrEqual(4), 90_000);
  await settle();
  expect(receiver.received.length).toBeGreaterThan(inFlightBefore);

  for (const hash of hashes) {
    const delivered = webhooksFor(hash);
    const byKey = new Map<string, Set<string>>();
    for (const webhook of delivered) byKey.set(keyOf(webhook), (byKey.get(keyOf(webhook)) ?? new Set()).add(webhook.headers['webhook-id'] as string));
    expect([...byKey.keys()].sort()).toEqual([`${watching}:${lena}:false`, `${watching}:${mona}:false`].sort());
    for (const ids of byKey.values()) expect(ids.size).toBe(1);
  }
}, 180_000);

test('Kafka stopped while transactions are mined and started again: every notification arrives, duplicates only with the same webhook id', async () => {
  const [nina, omar] = [newWallet(), newWallet()];
  await fund(nina);
  const watching = await subscribe([nina, omar]);
  const kafka = (command: 'down' | 'up') => execFileSync('bash', [kafkaScript, command], { stdio: 'ignore', timeout: 120_000 });
  let hashes: Hash[];
  kafka('down');
  try {
    hashes = await mine([
      { from: nina, to: omar, value: 4n },
      { from: nina, to: omar, value: 5n },
    ]);
    // The indexer cannot publish and the matcher cannot read meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  } finally {
    kafka('up');
  }
  await eventually(() => expect(hashes.flatMap((hash) => webhooksFor(hash)).length).toBeGreaterThanOrEqual(4), 120_000);
  await settle();
  for (const hash of hashes) {
    const byKey = new Map<string, Set<string>>();
    for (const webhook of webhooksFor(hash)) byKey.set(keyOf(webhook), (byKey.get(keyOf(webhook)) ?? new Set()).add(webhook.headers['webhook-id'] as string));
    expect([...byKey.keys()].sort()).toEqual([`${watching}:${nina}:false`, `${watching}:${omar}:false`].sort());
    for (const ids of byKey.values()) expect(ids.size).toBe(1);
  }
}, 240_000);
