import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { generateKeyPairSigner, getBase58Decoder, signBytes } from '@solana/kit';
import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { ActionsClient } from '@wallet-api/core/proto/actions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { setupPostgresDatabase, testLogger, uniqueName, type PostgresDatabase } from '@wallet-api/core/testing';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { swapActionRecord, swapActionTransaction } from '../src/actions/swap-action-record.js';
import { createUnsignedSnapshotSource } from '../src/actions/unsigned-snapshot-source.js';
import { actionsService } from '../src/grpc/actions-service.js';
import { createUnsignedActionStore, type UnsignedAction, type UnsignedActionStore } from '../src/store/unsigned-action-store.js';

// The Actions service and the unsigned snapshot source over the PostgreSQL store (a database of
// the test's own), on a clock the test moves: which actions are open to whom, expiry, dismissal
// of an EVM and of a Solana wallet's action with signatures made by real keys. Creating actions
// from swap quotes, with reference data, is held against the chain in the gateway's
// unsigned-actions.int.test.ts.

const lifetimeMs = 60_000;
const start = new Date('2026-11-27T12:00:00.000Z');
let now = start;
let database: PostgresDatabase;
let store: UnsignedActionStore;
let server: GrpcServer;
let actions: ActionsClient;
/** Never called: build and dismiss read only the store. Its address has no server. */
let referenceData: ReferenceDataClient;

const organization = randomUUID();
const otherOrganization = randomUUID();
const evmWallet = privateKeyToAccount(generatePrivateKey());
const router = `0x${'bb'.repeat(20)}`;
const noTables = { tokens: { info: () => undefined }, dapps: { dapp: () => undefined } };

function storedAction(overrides: Partial<UnsignedAction> & { id: string }): UnsignedAction {
  const createdAt = overrides.createdAt ?? now;
  const wallet = overrides.wallet ?? evmWallet.address.toLowerCase();
  const chainId = overrides.chainId ?? 'ethereum';
  const tx = swapActionTransaction({
    chainId,
    wallet,
    router,
    data: '0x414bf389',
    value: '1000',
    inputToken: '',
    outputToken: `0x${'cc'.repeat(20)}`,
    inputAmount: '1000',
    outputAmountMin: '7',
    createdAt,
  });
  return {
    organizationId: organization,
    wallet,
    chainId,
    kind: 'swap',
    transaction: { chainId, from: wallet, to: router, data: '0x414bf389', value: '1000', gas: '150000', serialized: '' },
    record: swapActionRecord(tx, noTables),
    createdAt,
    availableAt: createdAt,
    expiresAt: new Date(createdAt.getTime() + lifetimeMs),
    ...overrides,
  };
}

const context = (organizationId: string) => ({ organizationId, roles: ['pending-orders'], addons: [], network: 0 });
const build = (actionId: string, organizationId: string = organization) =>
  unary(actions, actions.buildAction, { context: context(organizationId), actionId, signatureApprove: '', signatureSwap: '' }, { name: 'Actions/BuildAction' });
const dismiss = (actionId: string, signature: string) =>
  unary(actions, actions.dismissAction, { context: context(organization), actionId, signature }, { name: 'Actions/DismissAction' });
const listed = async (wallet: string, chainIds: string[], organizationId: string = organization) =>
  (await createUnsignedSnapshotSource(store, () => now).list({ organizationId, address: wallet, chainIds })).map((record) => record.actionId);

beforeAll(async () => {
  database = await setupPostgresDatabase(uniqueName('indexer_actions'));
  store = createUnsignedActionStore(database.prisma);
  referenceData = createGrpcClient(ReferenceDataClient, '127.0.0.1:1');
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [actionsService({ store, referenceData, lifetimeMs, clock: () => now })],
    logger: testLogger,
  });
  actions = createGrpcClient(ActionsClient, `127.0.0.1:${server.port}`);
}, 60_000);

afterAll(async () => {
  actions?.close();
  referenceData?.close();
  await server?.shutdown(1_000);
  await database?.drop();
});

test("an organization's open actions of a wallet, on the chains asked, newest first; expired ones are gone", async () => {
  now = start;
  const wallet = evmWallet.address.toLowerCase();
  await store.insert(storedAction({ id: 'act_eth_old', createdAt: new Date(start.getTime() - 30_000) }));
  await store.insert(storedAction({ id: 'act_eth_new' }));
  await store.insert(storedAction({ id: 'act_base', chainId: 'base', createdAt: new Date(start.getTime() - 10_000) }));
  await store.insert(storedAction({ id: 'act_other_org', organizationId: otherOrganization }));
  await store.insert(storedAction({ id: 'act_other_wallet', wallet: `0x${'dd'.repeat(20)}` }));

  expect(await listed(wallet, ['ethereum'])).toEqual(['act_eth_new', 'act_eth_old']);
  expect(await listed(wallet, ['ethereum', 'base'])).toEqual(['act_eth_new', 'act_base', 'act_eth_old']);
  expect(await listed(wallet, ['ethereum'], otherOrganization)).toEqual(['act_other_org']);
  expect(await listed(wallet, [])).toEqual([]);
  expect((await build('act_eth_old')).transaction).toMatchObject({ chainId: 'ethereum', from: wallet, to: router, gas: '150000' });

  // 30 s later the older one has lived its 60 s: unlisted, and building it is NOT_FOUND.
  now = new Date(start.getTime() + 30_000);
  expect(await listed(wallet, ['ethereum'])).toEqual(['act_eth_new']);
  await expect(build('act_eth_old')).rejects.toMatchObject({ code: status.NOT_FOUND, details: 'action_id: no open action act_eth_old' });
  // Another organization's id is as unknown as one never issued.
  await expect(build('act_eth_new', otherOrganization)).rejects.toMatchObject({ code: status.NOT_FOUND });
  await expect(build('act_never')).rejects.toMatchObject({ code: status.NOT_FOUND });
  await expect(build('act_eth_new', 'not-a-uuid')).rejects.toMatchObject({ code: status.NOT_FOUND });
  await expect(build('')).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'action_id is required' });
});

test("an EVM action: a wrong signer is INVALID_ARGUMENT, the wallet's EIP-191 signature dismisses it", async () => {
  now = start;
  await store.insert(storedAction({ id: 'act_dismiss_evm' }));
  const stranger = privateKeyToAccount(generatePrivateKey());
  await expect(dismiss('act_dismiss_evm', await stranger.signMessage({ message: 'act_dismiss_evm' }))).rejects.toMatchObject({
    code: status.INVALID_ARGUMENT,
    details: `signature: is not the wallet ${evmWallet.address.toLowerCase()}'s signature of the action id`,
  });
  expect(await listed(evmWallet.address.toLowerCase(), ['ethereum'])).toContain('act_dismiss_evm');
  await dismiss('act_dismiss_evm', await evmWallet.signMessage({ message: 'act_dismiss_evm' }));
  expect(await listed(evmWallet.address.toLowerCase(), ['ethereum'])).not.toContain('act_dismiss_evm');
  await expect(build('act_dismiss_evm')).rejects.toMatchObject({ code: status.NOT_FOUND });
});

test("a Solana action: built as its serialized transaction; dismissed by the wallet's ed25519 signature only", async () => {
  now = start;
  const signer = await generateKeyPairSigner();
  const other = await generateKeyPairSigner();
  const serialized = Buffer.from('an unsigned solana transaction').toString('base64');
  await store.insert(
    storedAction({
      id: 'act_solana',
      wallet: signer.address,
      chainId: 'solana',
      transaction: { chainId: 'solana', from: signer.address, to: '', data: '', value: '', gas: '', serialized },
    }),
  );
  expect(await listed(signer.address, ['solana'])).toEqual(['act_solana']);
  expect((await build('act_solana')).transaction).toMatchObject({ chainId: 'solana', from: signer.address, serialized });

  const message = new TextEncoder().encode('act_solana');
  const base58 = getBase58Decoder();
  await expect(dismiss('act_solana', base58.decode(await signBytes(other.keyPair.privateKey, message)))).rejects.toMatchObject({
    code: status.INVALID_ARGUMENT,
  });
  await expect(dismiss('act_solana', await evmWallet.signMessage({ message: 'act_solana' }))).rejects.toMatchObject({
    code: status.INVALID_ARGUMENT,
    details: 'signature: must be a base58 ed25519 signature for a Solana wallet',
  });
  await dismiss('act_solana', base58.decode(await signBytes(signer.keyPair.privateKey, message)));
  expect(await listed(signer.address, ['solana'])).toEqual([]);
});
