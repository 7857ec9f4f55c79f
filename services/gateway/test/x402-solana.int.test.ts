import { createSolanaRpc, generateKeyPairSigner, getBase58Decoder, type Address, type KeyPairSigner, type Signature } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { testLogger } from '@wallet-api/core/testing';
import { createSolanaLedger, startSolanaRpcServer, type SolanaLedger, type SolanaRpcServer } from '../../../devnet/src/solana/index.js';
import { ataOf, createAtaInstruction, createMintInstructions, fund, mintToInstruction, signed } from '../../../devnet/src/solana/test-chain.js';
import { createLocalFacilitator } from '../src/payments/local-facilitator.js';
import { createLocalSvmFacilitator } from '../src/payments/local-svm-facilitator.js';
import { paymentConfigFromEnv, paymentEnv, type PaymentConfig } from '../src/payments/payment-config.js';
import { setupPaidGateway, type PaidGatewaySetup } from './setup-paid-gateway.js';

const json = (response: Response): Promise<any> => response.json();
const usdcDecimals = 6;

describe('pay per request with x402 on Solana (SPL USDC on our own Solana JSON-RPC server, our own facilitator)', () => {
  let ledger: SolanaLedger;
  let solana: SolanaRpcServer;
  let rpc: ReturnType<typeof createSolanaRpc>;
  let gateway: PaidGatewaySetup;
  let baseUrl: string;
  let config: PaymentConfig;
  let mintAuthority: KeyPairSigner;
  let mint: KeyPairSigner;
  let payer: KeyPairSigner;
  let payee: Address;
  let facilitatorAddress: Address;
  let payerAta: Address;
  let payeeAta: Address;

  const tokenBalance = async (account: Address) => BigInt((await rpc.getTokenAccountBalance(account, { commitment: 'confirmed' }).send()).value.amount);
  const balances = async () => ({ payer: await tokenBalance(payerAta), payee: await tokenBalance(payeeAta) });
  const keyed = (path: string) => gateway.keyed(path);
  const paidFetch = (path: string, paymentHeader: string) => gateway.paidFetch(path, paymentHeader);
  /** A gateway taking both payments, the Solana one verified and settled by `svmFacilitator`. */
  const startGateway = (svmFacilitator: FacilitatorClient) => gateway.startGateway([createLocalFacilitator(config.evm, testLogger), svmFacilitator]);
  const solanaRequirement = (required: PaymentRequired) => required.accepts.find((accepted) => accepted.network === config.svm!.network)!;

  /** Runs setup instructions on the test's own ledger, sealed into a block. */
  async function execute(signer: KeyPairSigner, instructions: Parameters<typeof signed>[2]): Promise<void> {
    const sent = ledger.send(await signed(ledger, signer, instructions));
    expect(sent.err).toBeNull();
    solana.sealNow();
  }

  /** The payer's signed payment, built by x402's own Solana client scheme for `requirements` (which may be altered). */
  async function signedPayment(required: PaymentRequired, requirements: PaymentRequirements): Promise<string> {
    const { payload } = await new ExactSvmScheme(payer, { rpcUrl: solana.url }).createPaymentPayload(2, requirements);
    const payment: PaymentPayload = { x402Version: 2, resource: required.resource, accepted: solanaRequirement(required), payload };
    return encodePaymentSignatureHeader(payment);
  }

  beforeAll(async () => {
    // Our own chain: nothing here touches the shared Solana devnet (port 18900).
    ledger = createSolanaLedger();
    solana = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 100 });
    rpc = createSolanaRpc(solana.url);
    [mintAuthority, mint, payer] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
    payee = (await generateKeyPairSigner()).address;
    const facilitatorKey = crypto.getRandomValues(new Uint8Array(32));
    fund(ledger, mintAuthority.address, 10_000_000_000n);
    payerAta = await ataOf('spl-token', payer.address, mint.address);
    payeeAta = await ataOf('spl-token', payee, mint.address);
    await execute(mintAuthority, createMintInstructions(ledger, 'spl-token', mintAuthority, mint, usdcDecimals));
    await execute(mintAuthority, [
      createAtaInstruction('spl-token', mintAuthority, payer.address, mint.address, payerAta),
      createAtaInstruction('spl-token', mintAuthority, payee, mint.address, payeeAta),
      mintToInstruction('spl-token', mint.address, payerAta, mintAuthority, 1_000_000_000n, usdcDecimals),
    ]);

    config = paymentConfigFromEnv(
      paymentEnv.parse({
        // The EVM method is configured (payments need it) but never paid here.
        X402_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
        X402_USDC_ADDRESS: privateKeyToAccount(generatePrivateKey()).address,
        X402_FACILITATOR_PRIVATE_KEY: generatePrivateKey(),
        X402_PRICE: '$0.0025',
        X402_MAX_TIMEOUT_SECONDS: '120',
        X402_SVM_PAY_TO: payee,
        X402_SVM_USDC_MINT: mint.address,
        X402_SVM_RPC_URL: solana.url,
        // The base58 form wallets export (the 32 private-key bytes here).
        X402_SVM_FACILITATOR_PRIVATE_KEY: getBase58Decoder().decode(facilitatorKey),
      }),
    )!;
    facilitatorAddress = config.svm!.facilitatorKey.address;
    // Only the fee payer needs SOL: the payer holds USDC alone.
    fund(ledger, facilitatorAddress, 1_000_000_000n);

    gateway = await setupPaidGateway(config, [createLocalFacilitator(config.evm, testLogger), createLocalSvmFacilitator(config.svm!)]);
    baseUrl = gateway.baseUrl;
  });

  afterAll(async () => {
    await gateway?.close();
    await solana?.close();
  });

  test('a keyless GET answers 402 listing both requirements: EVM USDC and Solana USDC with our fee payer', async () => {
    const response = await fetch(`${baseUrl}/v1/chains/`);
    expect(response.status).toBe(402);
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.accepts.map((accepted) => accepted.network)).toEqual([config.evm.network, 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1']);
    expect(solanaRequirement(required)).toEqual({
      scheme: 'exact',
      network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      asset: mint.address,
      payTo: payee,
      amount: '2500',
      maxTimeoutSeconds: 120,
      extra: { feePayer: facilitatorAddress },
    });
    // The asset is a 6-decimal SPL mint on the chain, as USDC is.
    const mintAccount = (await rpc.getAccountInfo(mint.address, { encoding: 'jsonParsed' }).send()).value!;
    expect(mintAccount.data).toMatchObject({ program: 'spl-token', parsed: { type: 'mint', info: { decimals: usdcDecimals } } });
    expect(await json(response)).toEqual({ ...required, errors: [{ title: 'Payment Required', detail: expect.stringContaining('payment required') }] });
  });

  test('@x402/fetch pays in Solana USDC and gets the keyed body; the payee gains exactly the price, the receipt names a confirmed signature; a replay is refused', async () => {
    const before = await balances();
    const feePayerBefore = (await rpc.getBalance(facilitatorAddress).send()).value;
    const sent: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const header = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('payment-signature');
      if (header) sent.push(header);
      return fetch(input, init);
    };
    // Our mint is no token x402's default table knows: the client opts in to it, capped at the price.
    const client = x402Client.fromConfig({
      schemes: [],
      spendControls: { allowedAssets: [{ network: config.svm!.network, asset: mint.address, maxAmountPerPayment: config.price.toString() }] },
    });
    client.register(config.svm!.network, new ExactSvmScheme(payer, { rpcUrl: solana.url }));
    const paid = await wrapFetchWithPayment(recordingFetch, client)(`${baseUrl}/v1/chains/`);
    expect(paid.status).toBe(200);
    const receiptHeader = paid.headers.get('payment-response')!;
    expect(paid.headers.get('x-payment-response')).toBe(receiptHeader);
    const receipt = decodePaymentResponseHeader(receiptHeader);
    expect(receipt).toMatchObject({ success: true, network: config.svm!.network, payer: payer.address });
    const [status] = (await rpc.getSignatureStatuses([receipt.transaction as Signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/) });
    // The settled transaction is the payer's transfer with our facilitator as fee payer.
    const transaction = (await rpc.getTransaction(receipt.transaction as Signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send())!;
    expect(transaction.transaction.message.accountKeys[0]!.pubkey).toBe(facilitatorAddress);
    expect(paid.headers.get('ratelimit-limit')).toBeNull();

    const keyedResponse = await keyed('/v1/chains/');
    expect(keyedResponse.status).toBe(200);
    expect(await json(paid)).toEqual(await json(keyedResponse));

    const after = await balances();
    expect(after.payee - before.payee).toBe(config.price);
    expect(before.payer - after.payer).toBe(config.price);
    // The fee came from the facilitator's SOL, exactly the transaction's fee.
    expect(feePayerBefore - (await rpc.getBalance(facilitatorAddress).send()).value).toBe(transaction.meta!.fee);

    // The same payment again: refused, nothing served, nothing moved.
    expect(sent).toHaveLength(1);
    const replay = await paidFetch('/v1/chains/', sent[0]!);
    expect(replay.status).toBe(402);
    const refusal = await json(replay);
    expect(refusal.data).toBeUndefined();
    expect(refusal.errors[0].detail).toContain('refused');
    // The chain knows the message: the facilitator's simulation of it fails (AlreadyProcessed).
    expect(refusal.error).toBe('invalid_exact_svm_transaction_simulation_failed');
    expect(await balances()).toEqual(after);

    // A gateway that never saw it (a restart: no settlement cache) refuses it the same way.
    const fresh = await startGateway(createLocalSvmFacilitator(config.svm!));
    try {
      const elsewhere = await fetch(`${fresh.url}/v1/chains/`, { headers: { 'PAYMENT-SIGNATURE': sent[0]! } });
      expect(elsewhere.status).toBe(402);
      expect((await json(elsewhere)).error).toBe('invalid_exact_svm_transaction_simulation_failed');
    } finally {
      await fresh.close();
    }
    expect(await balances()).toEqual(after);
  });

  test('concurrent sends of one Solana payment: exactly one is served and one price is paid', async () => {
    const required = decodePaymentRequiredHeader((await fetch(`${baseUrl}/v1/chains/ethereum`)).headers.get('payment-required')!);
    const header = await signedPayment(required, solanaRequirement(required));
    const before = await balances();
    const answers = await Promise.all([1, 2, 3].map(() => paidFetch('/v1/chains/ethereum', header)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402]);
    const served = answers.find((answer) => answer.status === 200)!;
    expect((await json(served)).data.id).toBe('ethereum');
    const after = await balances();
    expect(after.payee - before.payee).toBe(config.price);
    expect(before.payer - after.payer).toBe(config.price);
  });

  test('an underpaid or misdirected Solana payment is refused with 402; nothing is served or settled', async () => {
    const required = decodePaymentRequiredHeader((await fetch(`${baseUrl}/v1/chains/ethereum`)).headers.get('payment-required')!);
    const accepted = solanaRequirement(required);
    const before = await balances();
    const stranger = (await generateKeyPairSigner()).address;
    const cases = [
      {
        name: 'underpaid',
        reason: 'invalid_exact_svm_payload_amount_mismatch',
        header: await signedPayment(required, { ...accepted, amount: (config.price - 1n).toString() }),
      },
      {
        name: 'paid to another wallet',
        reason: 'invalid_exact_svm_payload_recipient_mismatch',
        header: await signedPayment(required, { ...accepted, payTo: stranger }),
      },
    ];
    for (const { name, reason, header } of cases) {
      const response = await paidFetch('/v1/chains/ethereum', header);
      expect({ name, status: response.status }).toEqual({ name, status: 402 });
      const body = await json(response);
      expect(body.data).toBeUndefined();
      expect({ name, reason: body.error }).toEqual({ name, reason });
      expect(body.errors[0]).toEqual({ title: 'Payment Required', detail: expect.stringContaining('refused') });
    }
    expect(await balances()).toEqual(before);
  });

  test('a Solana RPC the facilitator cannot reach refuses the payment with a reason code, no internals', async () => {
    const required = decodePaymentRequiredHeader((await fetch(`${baseUrl}/v1/chains/`)).headers.get('payment-required')!);
    const header = await signedPayment(required, solanaRequirement(required));
    const before = await balances();
    const unreachable = await startGateway(createLocalSvmFacilitator({ ...config.svm!, rpcUrl: 'http://127.0.0.1:9/rpc-with-secret' }));
    try {
      const response = await fetch(`${unreachable.url}/v1/chains/`, { headers: { 'PAYMENT-SIGNATURE': header } });
      expect(response.status).toBe(402);
      const text = await response.text();
      expect(text).not.toContain('rpc-with-secret');
      expect(JSON.parse(text).error).toBe('invalid_exact_svm_transaction_simulation_failed');
      expect(Buffer.from(response.headers.get('payment-required')!, 'base64').toString()).not.toContain('rpc-with-secret');
    } finally {
      await unreachable.close();
    }
    expect(await balances()).toEqual(before);
  });
});
