import { randomUUID } from 'node:crypto';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { eventually } from '@wallet-api/core/testing';
import { createSolanaLedger, startSolanaRpcServer, type SolanaLedger, type SolanaRpcServer } from '../../../devnet/src/solana/index.js';
import { startPipeline, type Pipeline } from '../../indexer/test/setup-pipeline.js';
import { startReceiver, startSubscriptionProcess, type Receiver, type SubscriptionProcess } from './setup-webhooks.js';
import { verifiesRsa, verifiesStandardWebhook } from './webhook-signatures.js';

// A Solana transfer to a subscribed wallet, from a Solana chain of the suite's own (the devnet's
// LiteSVM JSON-RPC server) through the Solana indexer, Kafka and the subscription service to a
// loopback receiver: one webhook per subscribed wallet, both signature schemes verified by the
// receiver's own code, and the signature, slot, fee and amount as getTransaction has them.

let ledger: SolanaLedger;
let server: SolanaRpcServer;
let rpc: ReturnType<typeof createSolanaRpc>;
let pipeline: Pipeline;
let service: SubscriptionProcess;
let receiver: Receiver;
const context = { organizationId: randomUUID(), roles: [], addons: [], network: Network.NETWORK_MAINNET };

beforeAll(async () => {
  receiver = await startReceiver();
  ledger = createSolanaLedger();
  server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 200 });
  rpc = createSolanaRpc(server.url);
  pipeline = await startPipeline({ consumers: false });
  // Checkpoints of an earlier run name blocks of a chain that is gone.
  await pipeline.resetCheckpoints(['solana']);
  pipeline.index({ chainId: 'solana', rpcUrl: server.url, family: 'solana', startBlock: await rpc.getSlot().send() });
  service = await startSubscriptionProcess(pipeline);
}, 240_000);

afterAll(async () => {
  await service?.close();
  await pipeline?.close();
  await server?.close();
  await receiver?.close();
}, 60_000);

async function transfer(from: KeyPairSigner, to: string, amount: bigint): Promise<Signature> {
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(from, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(blockhash, draft),
    (draft) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: from, destination: to as never, amount: lamports(amount) })], draft),
  );
  return rpc.sendTransaction(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message)), { encoding: 'base64' }).send();
}

test('a SOL transfer to a subscribed wallet: one webhook per subscribed wallet, signed both ways, with what getTransaction says', async () => {
  const [alice, bob, carol] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
  for (const wallet of [alice!, carol!]) ledger.airdrop(wallet.address, 10_000_000_000n);
  const created = await unary(service.subscriptions, service.subscriptions.createSubscription, {
    context,
    callbackUrl: receiver.url,
    addresses: [alice!.address, bob!.address],
    chainIds: ['solana'],
    filters: undefined,
  });
  const secret = created.signingSecret;
  const amount = 1_234_567_890n;
  const paid = await transfer(alice!, bob!.address, amount);
  // A new account must receive at least its rent-exempt minimum (890,880 lamports).
  const unrelated = await transfer(carol!, (await generateKeyPairSigner()).address, 1_000_000_000n);

  const webhooksFor = (signature: string) =>
    receiver.received.filter((webhook) => webhook.status < 300 && webhook.json.included[0].attributes.hash === signature);
  await eventually(() => expect(webhooksFor(paid)).toHaveLength(2), 60_000);
  // Quiet for a while: nothing more arrives for the transfer, nothing at all for the unrelated one.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(
    webhooksFor(paid)
      .map((webhook) => webhook.json.data.attributes.address)
      .sort(),
  ).toEqual([alice!.address, bob!.address].sort());
  expect(webhooksFor(unrelated)).toEqual([]);

  const onChain = (await rpc.getTransaction(paid, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
  for (const webhook of webhooksFor(paid)) {
    expect(verifiesStandardWebhook(webhook, secret)).toBe(true);
    expect(verifiesRsa(webhook, service.certificate)).toBe(true);
    expect(verifiesRsa({ ...webhook, body: webhook.body.replace('"callback"', '"callbacK"') }, service.certificate)).toBe(false);
    const wallet = webhook.json.data.attributes.address;
    const { attributes } = webhook.json.included[0];
    expect(attributes).toMatchObject({
      hash: paid,
      address: wallet,
      mined_at_block: Number(onChain.slot),
      mined_at: new Date(Number(onChain.blockTime) * 1000).toISOString(),
      sent_from: alice!.address,
      sent_to: bob!.address,
      operation_type: wallet === alice!.address ? 'send' : 'receive',
      deleted: false,
    });
    expect(attributes.fee.quantity).toMatchObject({ int: onChain.meta!.fee.toString(), decimals: 9 });
    expect(attributes.fee.fungible_info.symbol).toBe('SOL');
    expect(attributes.transfers).toHaveLength(1);
    expect(attributes.transfers[0]).toMatchObject({
      direction: wallet === alice!.address ? 'out' : 'in',
      sender: alice!.address,
      recipient: bob!.address,
      quantity: { int: amount.toString(), decimals: 9, numeric: '1.23456789' },
    });
  }
}, 120_000);
