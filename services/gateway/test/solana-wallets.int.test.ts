import { getUpdateMultiplierScaledUiMintInstruction } from '@solana-program/token-2022';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  address as solanaAddress,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { consumerGroupCaughtUp, eventually, freePort, setupKafka } from '@wallet-api/core/testing';
import { readManifest } from '../../../devnet/src/manifest/index.js';
import { createSolanaLedger, startSolanaRpcServer, type SolanaRpcServer } from '../../../devnet/src/solana/index.js';
import { buildSolanaWorld } from '../../../devnet/src/solana/world.js';
import { seededSigner } from '../../../devnet/src/solana/world-keys.js';
import type { SolanaWorldManifest } from '../../../devnet/src/solana/world-manifest.js';
import { solanaChainTime, solanaDisplayAmount, solanaLamports, solanaTokenHoldings } from '../../../devnet/src/truth/index.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { startIndexedGateway, type IndexedGateway } from './setup-indexed-gateway.js';

// Solana wallets end to end: the test world's Solana chain, rebuilt on a ledger of the test's own
// (the same seed gives the same mints, so the devnet registry's entries apply), served by the
// devnet's JSON-RPC server, indexed by the Solana indexer into Kafka, read by the positions
// consumers and the transaction writer, and answered by the gateway. Every number is held against
// the chain through its RPC: balances, ScaledUiAmount display values, signatures, slots and fees.

let world: SolanaWorldManifest;
let server: SolanaRpcServer;
let rpc: ReturnType<typeof createSolanaRpc>;
let harness: PositionsHarness;
let gateway: IndexedGateway;
let baseUrl: string;
let authorization: string;
const kafka = setupKafka('solana-api-test');

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
  return { status: response.status, body: await response.json() };
}

async function ok(path: string): Promise<any> {
  const { status, body } = await get(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

async function all(path: string): Promise<any[]> {
  const items: any[] = [];
  for (let next: string | undefined = path; next; ) {
    const body = await ok(next);
    items.push(...body.data);
    next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
  }
  return items;
}

const positionsOf = (wallet: string) =>
  ok(`/v1/wallets/${wallet}/positions/?filter[chain_ids]=solana&filter[trash]=no_filter`).then((body) => body.data as any[]);
/** The mint a position is of, '' for SOL. */
const mintOf = (resource: any): string => resource.attributes.fungible_info.implementations.find((entry: any) => entry.chain_id === 'solana')?.address ?? '';

async function send(payer: KeyPairSigner, instructions: Instruction[]): Promise<Signature> {
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(payer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(blockhash, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
}

beforeAll(async () => {
  const manifest = await readManifest();
  world = manifest.solana!.find((candidate) => candidate.id === 'solana')!;
  const ledger = createSolanaLedger();
  await buildSolanaWorld(ledger, {
    seed: world.seed,
    walletCount: world.walletCount,
    endTimestamp: world.endTimestamp,
    days: world.days,
    id: world.id,
    rpcUrl: world.rpcUrl,
  });
  server = await startSolanaRpcServer({ ledger, port: await freePort(), slotIntervalMs: 200 });
  rpc = createSolanaRpc(server.url);

  harness = await startPositionsHarness({ rpcUrls: { solana: server.url } });
  harness.index({ chainId: 'solana', rpcUrl: server.url, family: 'solana' });
  await harness.startConsumers();
  const positions = await harness.startService();
  // A multiplier taking effect moves no change token: a cached answer shows it once it is 5 s old
  // (`RESPONSE_CACHE_MAX_AGE_MS`, 60 s by default, in the deployed gateway), so the test need not wait a minute.
  gateway = await startIndexedGateway(harness, { kafka, positionsAddress: positions.address, name: 'solana-api', answerMaxAgeMs: 5_000 });
  ({ baseUrl, authorization } = gateway);

  await eventually(async () => {
    const [tip] = await harness.database.prisma.indexedBlock.findMany({ where: { chainId: 'solana' }, orderBy: { number: 'desc' }, take: 1 });
    expect(Number(tip?.number ?? -1)).toBeGreaterThanOrEqual(world.endSlot);
  }, 120_000);
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.balance-changes`, harness.topics.balanceChanges.name), 120_000);
}, 300_000);

afterAll(async () => {
  await gateway?.stop();
  await harness?.close();
  await server?.close();
});

/** How a transfer moves the wallet's balance: `self` moves nothing. */
const sign = (direction: string): bigint => (direction === 'in' ? 1n : direction === 'out' ? -1n : 0n);

/** What the chain holds for a wallet: lamports ('' key) and each mint's raw amount, zeros left out. */
async function chainHoldings(wallet: string): Promise<Map<string, bigint>> {
  const held = new Map<string, bigint>();
  const lamports = await solanaLamports(rpc, wallet);
  if (lamports > 0n) held.set('', lamports);
  for (const holding of await solanaTokenHoldings(rpc, wallet)) held.set(holding.mint, holding.amount);
  return held;
}

describe('Solana wallets through the gateway', () => {
  test("positions: every wallet's SOL and token quantities equal the chain's accounts exactly, in the spec's Quantity form", async () => {
    const wallets = [...world.wallets.map((wallet) => wallet.address), world.funder];
    await eventually(async () => {
      for (const wallet of wallets) {
        const served = new Map((await positionsOf(wallet)).map((resource) => [mintOf(resource), BigInt(resource.attributes.quantity.int)]));
        expect({ wallet, held: served }).toEqual({ wallet, held: await chainHoldings(wallet) });
      }
    }, 120_000);
    let scaledSeen = 0;
    for (const wallet of wallets) {
      const holdings = new Map((await solanaTokenHoldings(rpc, wallet)).map((holding) => [holding.mint, holding]));
      for (const resource of await positionsOf(wallet)) {
        const { quantity, fungible_info: info } = resource.attributes;
        const mint = mintOf(resource);
        expect(resource.relationships.chain.data).toEqual({ type: 'chains', id: 'solana' });
        expect(resource.attributes.position_type).toBe('wallet');
        if (mint === '') {
          expect([info.symbol, quantity.decimals, quantity.numeric]).toEqual(['SOL', 9, solanaDisplayAmount({ amount: BigInt(quantity.int), decimals: 9 })]);
          continue;
        }
        const holding = holdings.get(mint)!;
        expect({ mint, decimals: quantity.decimals, numeric: quantity.numeric }).toEqual({
          mint,
          decimals: holding.decimals,
          numeric: solanaDisplayAmount(holding),
        });
        expect(quantity.float).toBe(Number(quantity.numeric));
        if (holding.multiplier !== undefined && holding.multiplier !== '1') scaledSeen++;
      }
    }
    // The world's ScaledUiAmount mint is held by someone, at a multiplier other than 1 by now.
    expect(scaledSeen).toBeGreaterThan(0);
  }, 300_000);

  test('ScaledUiAmount: a new multiplier shows in the display values from its effective time on; int stays the raw amount', async () => {
    const scaled = world.mints.find((mint) => mint.key === 'scaled')!;
    const holder = (
      await Promise.all(
        world.wallets.map(async (wallet) => ({
          wallet: wallet.address,
          holding: (await solanaTokenHoldings(rpc, wallet.address)).find((entry) => entry.mint === scaled.address),
        })),
      )
    ).find((entry) => entry.holding !== undefined)!;
    const authority = await seededSigner(world.seed, 'issuer/scaled');
    const effective = (await solanaChainTime(rpc)) + 2;
    await send(authority, [
      getUpdateMultiplierScaledUiMintInstruction({ mint: solanaAddress(scaled.address), authority, multiplier: 3.5, effectiveTimestamp: BigInt(effective) }),
    ]);
    const raw = holder.holding!.amount;
    await eventually(async () => {
      const position = (await positionsOf(holder.wallet)).find((resource) => mintOf(resource) === scaled.address);
      const truth = (await solanaTokenHoldings(rpc, holder.wallet)).find((entry) => entry.mint === scaled.address)!;
      expect(truth.multiplier).toBe('3.5');
      expect(position.attributes.quantity).toEqual({
        int: raw.toString(),
        decimals: scaled.decimals,
        numeric: solanaDisplayAmount(truth),
        float: Number(solanaDisplayAmount(truth)),
      });
    }, 90_000);
  }, 120_000);

  test('portfolio: the total is the sum of the valued positions; USDC on Solana has the one USDC price', async () => {
    const usdc = world.mints.find((mint) => mint.key === 'usdc')!;
    for (const wallet of world.wallets.slice(0, 5).map((entry) => entry.address)) {
      const positions = (await ok(`/v1/wallets/${wallet}/positions/?filter[chain_ids]=solana`)).data as any[];
      const portfolio = (await ok(`/v1/wallets/${wallet}/portfolio?filter[chain_ids]=solana`)).data;
      const sum = positions.reduce((total, resource) => total + (resource.attributes.value ?? 0), 0);
      expect(portfolio.attributes.total.positions).toBeCloseTo(sum, 6);
      expect(portfolio.attributes.positions_distribution_by_chain).toEqual(sum > 0 ? { solana: expect.closeTo(sum, 6) } : expect.any(Object));
      const usdcRow = positions.find((resource) => mintOf(resource) === usdc.address);
      if (usdcRow) expect([usdcRow.attributes.price, usdcRow.attributes.fungible_info.id]).toEqual([1, 'usdc']);
    }
  }, 120_000);

  test("transactions: for every wallet, each served signature's slot, time, fee and transfers equal getTransaction, and every transaction the wallet signed or paid in is served", async () => {
    let failedSeen = 0;
    let solChecked = 0;
    for (const wallet of world.wallets.map((entry) => entry.address)) {
      const served = await eventually(async () => {
        const items = await all(`/v1/wallets/${wallet}/transactions/?filter[chain_ids]=solana&filter[trash]=no_filter&page[size]=25`);
        const signed = await rpc.getSignaturesForAddress(solanaAddress(wallet), { limit: 1000 }).send();
        const expected: string[] = [];
        for (const entry of signed) {
          const tx = await rpc.getTransaction(entry.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
          const index = tx!.transaction.message.accountKeys.indexOf(solanaAddress(wallet));
          const moved = index >= 0 && tx!.meta!.preBalances[index] !== tx!.meta!.postBalances[index];
          if (index === 0 || moved) expected.push(entry.signature);
        }
        const hashes = new Set(items.map((item) => item.attributes.hash));
        expect({ wallet, missing: expected.filter((signature) => !hashes.has(signature)) }).toEqual({ wallet, missing: [] });
        return items;
      }, 90_000);
      for (const item of served) {
        const { attributes } = item;
        const tx = (await rpc.getTransaction(attributes.hash as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
        expect({
          hash: attributes.hash,
          block: attributes.mined_at_block,
          minedAt: attributes.mined_at,
          status: attributes.status,
          fee: attributes.fee.quantity.int,
        }).toEqual({
          hash: tx.transaction.signatures[0],
          block: Number(tx.slot),
          minedAt: new Date(Number(tx.blockTime) * 1000).toISOString(),
          // Spec 4.5: every indexed transaction is `confirmed`, a failed one too (it moved nothing but its fee).
          status: 'confirmed',
          fee: tx.meta!.fee.toString(),
        });
        expect(attributes.fee.fungible_info.symbol).toBe('SOL');
        if (tx.meta!.err) {
          failedSeen++;
          expect({ hash: attributes.hash, transfers: attributes.transfers }).toEqual({ hash: attributes.hash, transfers: [] });
        }
        // Token transfers of the wallet net to its change in the node's token balances, per mint.
        const net = new Map<string, bigint>();
        for (const balance of tx.meta!.postTokenBalances ?? [])
          if (balance.owner === wallet) net.set(balance.mint, (net.get(balance.mint) ?? 0n) + BigInt(balance.uiTokenAmount.amount));
        for (const balance of tx.meta!.preTokenBalances ?? [])
          if (balance.owner === wallet) net.set(balance.mint, (net.get(balance.mint) ?? 0n) - BigInt(balance.uiTokenAmount.amount));
        const served = new Map<string, bigint>();
        for (const transfer of attributes.transfers) {
          const mint = transfer.fungible_info?.implementations.find((entry: any) => entry.chain_id === 'solana')?.address;
          if (!mint) continue;
          const amount = BigInt(transfer.quantity.int) * sign(transfer.direction);
          served.set(mint, (served.get(mint) ?? 0n) + amount);
        }
        for (const [mint, amount] of net) if (amount === 0n) net.delete(mint);
        expect({ hash: attributes.hash, transfers: served }).toEqual({ hash: attributes.hash, transfers: net });

        // SOL: the wallet's transfers less the fee it paid equal its change in lamports, unless a
        // token account was opened or closed (its rent moves without a transfer to show).
        const keys = tx.transaction.message.accountKeys.map(String);
        const tokenAccounts = new Set(
          [...(tx.meta!.preTokenBalances ?? []), ...(tx.meta!.postTokenBalances ?? [])].map((balance) => Number(balance.accountIndex)),
        );
        const rentMoved = [...tokenAccounts].some((index) => tx.meta!.preBalances[index] === 0n || tx.meta!.postBalances[index] === 0n);
        const index = keys.indexOf(wallet);
        if (rentMoved || index < 0) continue;
        let lamports = 0n;
        for (const transfer of attributes.transfers) {
          if (transfer.fungible_info?.symbol !== 'SOL' || transfer.fungible_info.implementations.some((entry: any) => entry.address)) continue;
          lamports += BigInt(transfer.quantity.int) * sign(transfer.direction);
        }
        if (index === 0) lamports -= BigInt(attributes.fee.quantity.int);
        expect({ hash: attributes.hash, lamports }).toEqual({ hash: attributes.hash, lamports: tx.meta!.postBalances[index]! - tx.meta!.preBalances[index]! });
        solChecked++;
      }
    }
    // The world's planned failures are spread over its wallets.
    expect(failedSeen).toBeGreaterThan(0);
    expect(solChecked).toBeGreaterThan(0);
  }, 300_000);

  test('bad and unsupported requests answer 400 with a detail naming the problem', async () => {
    const wallet = world.wallets[0]!.address;
    const cases: [string, string][] = [
      [
        '/v1/wallets/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/positions/',
        'path parameter address: must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)',
      ],
      [`/v1/wallets/${wallet}/positions/?filter[chain_ids]=ethereum`, 'chain ethereum does not support this wallet address type'],
      [`/v1/wallets/${wallet}/nft-positions/`, 'NFT endpoints accept EVM addresses only (0x and 40 hex digits), not Solana addresses'],
    ];
    for (const [path, detail] of cases) {
      const { status, body } = await get(path);
      expect({ path, status, detail: body.errors?.[0]?.detail }).toEqual({ path, status: 400, detail: expect.stringContaining(detail) });
    }
    // Protocol positions are EVM-only (spec 4.3): a Solana wallet has none.
    expect((await ok(`/v1/wallets/${wallet}/positions/?filter[positions]=only_complex`)).data).toEqual([]);
  }, 60_000);
});
