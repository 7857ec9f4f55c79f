import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createWalletClient, getAddress, http, parseAbi, toHex, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { authorizationTypes, toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { testLogger } from '@wallet-api/core/testing';
import { compileContracts } from '../../../devnet/src/compile/index.js';
import { startOwnAnvil, type OwnAnvil } from '../../reference-data/test/own-anvil.js';
import { createLocalFacilitator } from '../src/payments/local-facilitator.js';
import { paymentConfigFromEnv, paymentEnv, type PaymentConfig } from '../src/payments/payment-config.js';
import { setupPaidGateway, type PaidGatewaySetup } from './setup-paid-gateway.js';

const json = (response: Response): Promise<any> => response.json();
const contractsDir = new URL('../../../devnet/contracts/', import.meta.url).pathname;
const artifactsDir = new URL('../../../.data/devnet/artifacts/', import.meta.url).pathname;
const usdcAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

describe('pay per request with x402 (USDC EIP-3009 on our own anvil, our own facilitator)', () => {
  let anvil: OwnAnvil;
  let gateway: PaidGatewaySetup;
  let baseUrl: string;
  let usdc: Address;
  let config: PaymentConfig;
  const payer = privateKeyToAccount(generatePrivateKey());
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const stranger = privateKeyToAccount(generatePrivateKey());
  // Given ETH on the test's anvil: one deploys the token, the other pays the settlements' gas.
  const deployerKey = generatePrivateKey();
  const facilitatorKey = generatePrivateKey();

  const balanceOf = (owner: Address) => anvil.client.readContract({ address: usdc, abi: usdcAbi, functionName: 'balanceOf', args: [owner] });
  const balances = async () => ({ payer: await balanceOf(payer.address), payee: await balanceOf(payee) });
  const nonceUsed = (nonce: Hex) =>
    anvil.client.readContract({ address: usdc, abi: usdcAbi, functionName: 'authorizationState', args: [payer.address, nonce] });
  const keyed = (path: string) => gateway.keyed(path);

  /** The 402 answer's requirements, read from its PAYMENT-REQUIRED header. */
  async function requirementsFor(path: string): Promise<PaymentRequired> {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(402);
    return decodePaymentRequiredHeader(response.headers.get('payment-required')!);
  }

  /** An EIP-3009 payment signed by `signer` for `from` (the payer unless told), as x402's exact scheme carries it. */
  async function signedPayment(
    required: PaymentRequired,
    options: { value?: bigint; validBefore?: bigint; signer?: PrivateKeyAccount } = {},
  ): Promise<{ header: string; nonce: Hex }> {
    const accepted = required.accepts[0]!;
    const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const now = BigInt(Math.floor(Date.now() / 1000));
    const authorization = {
      from: payer.address,
      to: accepted.payTo as Address,
      value: options.value ?? BigInt(accepted.amount),
      validAfter: now - 600n,
      validBefore: options.validBefore ?? now + 60n,
      nonce,
    };
    const signature = await (options.signer ?? payer).signTypedData({
      domain: {
        name: accepted.extra.name as string,
        version: accepted.extra.version as string,
        chainId: config.evm.chainId,
        verifyingContract: accepted.asset as Address,
      },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    const payload: PaymentPayload = {
      x402Version: 2,
      resource: required.resource,
      accepted,
      payload: {
        signature,
        authorization: {
          ...authorization,
          value: authorization.value.toString(),
          validAfter: authorization.validAfter.toString(),
          validBefore: authorization.validBefore.toString(),
        },
      },
    };
    return { header: encodePaymentSignatureHeader(payload), nonce };
  }

  const paidFetch = (path: string, paymentHeader: string) => gateway.paidFetch(path, paymentHeader);

  beforeAll(async () => {
    anvil = await startOwnAnvil([]);
    const chainId = await anvil.client.getChainId();
    const artifacts = await compileContracts(contractsDir, artifactsDir);
    for (const key of [deployerKey, facilitatorKey]) {
      await anvil.client.request({ method: 'anvil_setBalance' as never, params: [privateKeyToAccount(key).address, toHex(10n ** 20n)] as never });
    }
    const deployer = createWalletClient({ account: privateKeyToAccount(deployerKey), transport: http(anvil.rpcUrl) });
    const usdcArtifact = artifacts.DevnetUSDC!;
    const deployHash = await deployer.deployContract({
      abi: usdcArtifact.abi,
      bytecode: usdcArtifact.bytecode,
      args: ['USD Coin', 'USDC', 6, 1_000_000_000n, payer.address],
      chain: null,
    });
    usdc = getAddress((await anvil.client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!);

    config = paymentConfigFromEnv(
      paymentEnv.parse({
        X402_PAY_TO: payee,
        X402_PRICE: '$0.0025',
        X402_EVM_RPC_URL: anvil.rpcUrl,
        X402_EVM_CHAIN_ID: String(chainId),
        X402_USDC_ADDRESS: usdc,
        X402_FACILITATOR_PRIVATE_KEY: facilitatorKey,
        X402_MAX_TIMEOUT_SECONDS: '120',
      }),
    )!;

    gateway = await setupPaidGateway(config, createLocalFacilitator(config.evm, testLogger));
    baseUrl = gateway.baseUrl;
  });

  afterAll(async () => {
    await gateway?.close();
    await anvil?.stop();
  });

  test('a keyless GET answers 402 with requirements for the configured USDC, price, payee and chain', async () => {
    const response = await fetch(`${baseUrl}/v1/chains/`);
    expect(response.status).toBe(402);
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toMatch(/\/v1\/chains\/$/);
    expect(required.accepts).toHaveLength(1);
    expect(required.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: `eip155:${await anvil.client.getChainId()}`,
      asset: usdc,
      payTo: payee,
      amount: '2500',
      maxTimeoutSeconds: 120,
      extra: expect.objectContaining({ name: 'USD Coin', version: '2' }),
    });
    // The token itself agrees with the EIP-712 domain the requirements name.
    const [, name, version, chainId, verifyingContract] = await anvil.client.readContract({
      address: usdc,
      abi: parseAbi(['function eip712Domain() view returns (bytes1, string, string, uint256, address, bytes32, uint256[])']),
      functionName: 'eip712Domain',
    });
    expect({ name, version, chainId: Number(chainId), verifyingContract }).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: config.evm.chainId,
      verifyingContract: usdc,
    });
    const body = await json(response);
    expect(body).toEqual({ ...required, errors: [{ title: 'Payment Required', detail: expect.stringContaining('payment required') }] });

    // A browser gets the same JSON, not x402's HTML paywall.
    const browser = await fetch(`${baseUrl}/v1/chains/`, { headers: { Accept: 'text/html,*/*', 'User-Agent': 'Mozilla/5.0' } });
    expect(browser.status).toBe(402);
    expect(browser.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await json(browser)).accepts).toEqual(required.accepts);
  });

  /** A keyless GET sent with its own Host header (fetch sends the URL's). */
  function getWithHost(path: string, host: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${baseUrl}${path}`, { headers: { host } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', reject);
      request.end();
    });
  }

  test("the 402 names the resource at the configured public URL: not the client's Host header, nor the query it sent", async () => {
    const forged = await getWithHost('/v1/chains/', 'evil.invalid');
    expect(forged.status).toBe(402);
    const required = decodePaymentRequiredHeader(forged.headers['payment-required'] as string);
    expect(required.resource.url).toBe('https://api.wallet.test/v1/chains/');
    expect(forged.body).not.toContain('evil.invalid');

    const keyInQuery = await fetch(`${baseUrl}/v1/chains/?api_key=wak_leaked_secret&currency=usd`);
    expect(keyInQuery.status).toBe(402);
    expect(keyInQuery.headers.get('payment-required')).not.toBeNull();
    expect(decodePaymentRequiredHeader(keyInQuery.headers.get('payment-required')!).resource.url).toBe('https://api.wallet.test/v1/chains/');
    expect(await keyInQuery.text()).not.toContain('wak_leaked_secret');
  });

  test('a keyless request to no endpoint answers 404, with no price quoted and no key asked for', async () => {
    for (const path of ['/v1/nope', '/v1/chains/base/extra']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('payment-required')).toBeNull();
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await json(response)).toEqual({ errors: [{ title: 'Not Found', detail: `no endpoint GET ${path}` }] });
    }
  });

  test('@x402/fetch pays and gets the keyed body; the payee gains exactly the price on chain, with the receipt header', async () => {
    const before = await balances();
    const sent: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const header = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('payment-signature');
      if (header) sent.push(header);
      return fetch(input, init);
    };
    // The devnet USDC is no token x402's default table knows: the client opts in to it, capped at the price.
    const client = x402Client.fromConfig({
      schemes: [],
      spendControls: { allowedAssets: [{ network: config.evm.network, asset: usdc, maxAmountPerPayment: config.price.toString() }] },
    });
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const paid = await wrapFetchWithPayment(recordingFetch, client)(`${baseUrl}/v1/chains/`);
    expect(paid.status).toBe(200);
    const receiptHeader = paid.headers.get('payment-response')!;
    expect(paid.headers.get('x-payment-response')).toBe(receiptHeader);
    const receipt = decodePaymentResponseHeader(receiptHeader);
    expect(receipt).toMatchObject({ success: true, network: config.evm.network, payer: payer.address });
    const onChain = await anvil.client.getTransactionReceipt({ hash: receipt.transaction as Hex });
    expect(onChain.status).toBe('success');
    expect(onChain.to?.toLowerCase()).toBe(usdc.toLowerCase());
    // No rate-limit headers: the paid request was not counted.
    expect(paid.headers.get('ratelimit-limit')).toBeNull();

    const keyedResponse = await keyed('/v1/chains/');
    expect(keyedResponse.status).toBe(200);
    expect(await json(paid)).toEqual(await json(keyedResponse));

    const after = await balances();
    expect(after.payee - before.payee).toBe(config.price);
    expect(before.payer - after.payer).toBe(config.price);

    // The same payment again, after Redis lost everything it held: refused, nothing served, nothing
    // moved. What refuses a replay is the token's record of the used nonce, not anything in Redis.
    expect(sent).toHaveLength(1);
    await gateway.flushRedis();
    const replay = await paidFetch('/v1/chains/', sent[0]!);
    expect(replay.status).toBe(402);
    const refusal = await json(replay);
    expect(refusal.data).toBeUndefined();
    expect(refusal.errors[0].detail).toContain('refused');
    // The token refuses the used nonce when the facilitator simulates the transfer.
    expect(refusal.error).toBe('invalid_exact_evm_transaction_simulation_failed');
    expect(refusal.accepts[0].payTo).toBe(payee);
    expect(await balances()).toEqual(after);
  });

  test('concurrent sends of one payment: exactly one is served and one price is paid', async () => {
    const before = await balances();
    const { header, nonce } = await signedPayment(await requirementsFor('/v1/chains/ethereum'));
    const answers = await Promise.all([1, 2, 3].map(() => paidFetch('/v1/chains/ethereum', header)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402]);
    const served = answers.find((answer) => answer.status === 200)!;
    expect((await json(served)).data.id).toBe('ethereum');
    expect(await nonceUsed(nonce)).toBe(true);
    const after = await balances();
    expect(after.payee - before.payee).toBe(config.price);
    expect(before.payer - after.payer).toBe(config.price);
  });

  test('underpaid, expired and wrongly signed payments are refused with 402; nothing is served or settled', async () => {
    const required = await requirementsFor('/v1/chains/');
    const before = await balances();
    const now = BigInt(Math.floor(Date.now() / 1000));
    const cases = [
      {
        name: 'underpaid',
        reason: 'invalid_exact_evm_payload_authorization_value_mismatch',
        payment: await signedPayment(required, { value: config.price - 1n }),
      },
      { name: 'expired', reason: 'invalid_exact_evm_payload_authorization_valid_before', payment: await signedPayment(required, { validBefore: now - 1n }) },
      { name: 'signed by another key', reason: 'invalid_exact_evm_signature', payment: await signedPayment(required, { signer: stranger }) },
    ];
    for (const { name, reason, payment } of cases) {
      const response = await paidFetch('/v1/chains/', payment.header);
      expect({ name, status: response.status }).toEqual({ name, status: 402 });
      const body = await json(response);
      expect(body.data).toBeUndefined();
      expect({ name, reason: body.error }).toEqual({ name, reason });
      expect(body.errors[0]).toEqual({ title: 'Payment Required', detail: expect.stringContaining('refused') });
      expect(decodePaymentRequiredHeader(response.headers.get('payment-required')!).accepts[0]!.amount).toBe(config.price.toString());
      expect({ name, used: await nonceUsed(payment.nonce) }).toEqual({ name, used: false });
    }
    expect(await balances()).toEqual(before);
  });

  test('malformed payment headers answer 402 naming the header and the field, with no exception text and nothing written to the console', async () => {
    const required = await requirementsFor('/v1/chains/');
    const { header: valid } = await signedPayment(required);
    const envelope = JSON.parse(Buffer.from(valid, 'base64').toString('utf8'));
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    // What reaches the console while the gateway (in this process) answers.
    const written: unknown[][] = [];
    const methods = ['error', 'warn', 'log'] as const;
    const original = methods.map((method) => console[method]);
    for (const method of methods) console[method] = (...values: unknown[]) => void written.push(values);
    try {
      for (const [name, value, detail] of [
        ['PAYMENT-SIGNATURE', Buffer.from('abc\u0000\u0001def').toString('base64'), 'header PAYMENT-SIGNATURE: is not base64 of a JSON payment payload'],
        ['X-PAYMENT', 'not base64!', 'header X-PAYMENT: is not base64'],
        [
          'X-PAYMENT',
          encoded({ ...envelope, payload: { ...envelope.payload, authorization: { ...envelope.payload.authorization, value: undefined } } }),
          'header X-PAYMENT: payload.authorization.value: must be a decimal integer in a string',
        ],
        ['PAYMENT-SIGNATURE', encoded({ ...envelope, payload: 'str' }), 'header PAYMENT-SIGNATURE: payload: Invalid input: expected record, received string'],
      ] as const) {
        const response = await fetch(`${baseUrl}/v1/chains/`, { headers: { [name]: value } });
        expect(response.status).toBe(402);
        const body = await json(response);
        expect(body.error).toBe('invalid_payload');
        expect(body.errors).toEqual([{ title: 'Payment Required', detail: `${detail}; nothing was charged or served` }]);
        expect(decodePaymentRequiredHeader(response.headers.get('payment-required')!).error).toBe('invalid_payload');
      }
      expect(written).toEqual([]);
    } finally {
      methods.forEach((method, index) => (console[method] = original[index]!));
    }
  });

  test("the payment in X-PAYMENT (the decisions' v1 header name) is accepted the same way", async () => {
    const before = await balances();
    const { header, nonce } = await signedPayment(await requirementsFor('/v1/chains/ethereum'));
    const response = await fetch(`${baseUrl}/v1/chains/ethereum`, { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(200);
    expect((await json(response)).data.id).toBe('ethereum');
    const receipt = decodePaymentResponseHeader(response.headers.get('x-payment-response')!);
    expect((await anvil.client.getTransactionReceipt({ hash: receipt.transaction as Hex })).status).toBe('success');
    expect(await nonceUsed(nonce)).toBe(true);
    expect((await balances()).payee - before.payee).toBe(config.price);
  });

  test('a paid request that fails (404) is answered without settling the payment', async () => {
    const before = await balances();
    const { header, nonce } = await signedPayment(await requirementsFor('/v1/chains/no-such-chain'));
    const response = await paidFetch('/v1/chains/no-such-chain', header);
    expect(response.status).toBe(404);
    expect((await json(response)).errors[0].title).toBe('Not Found');
    expect(response.headers.get('payment-response')).toBeNull();
    expect(await nonceUsed(nonce)).toBe(false);
    expect(await balances()).toEqual(before);
  });

  test('a chain the facilitator cannot reach refuses the payment with a reason code, no internals', async () => {
    const other = await gateway.startGateway(createLocalFacilitator({ ...config.evm, rpcUrl: 'http://127.0.0.1:9/rpc-with-secret' }, testLogger));
    try {
      const before = await balances();
      const { header, nonce } = await signedPayment(await requirementsFor('/v1/chains/'));
      const response = await fetch(`${other.url}/v1/chains/`, { headers: { 'PAYMENT-SIGNATURE': header } });
      expect(response.status).toBe(402);
      const text = await response.text();
      expect(text).not.toContain('rpc-with-secret');
      // Which check fails first depends on what is cached (the asset's code is, after earlier tests).
      expect(JSON.parse(text).error).toMatch(/^[a-z0-9_]+$/);
      expect(Buffer.from(response.headers.get('payment-required')!, 'base64').toString()).not.toContain('rpc-with-secret');
      expect(await nonceUsed(nonce)).toBe(false);
      expect(await balances()).toEqual(before);
    } finally {
      await other.close();
    }
  });

  test('keys work as before; invalid keys and keyless subscription requests stay 401', async () => {
    const keyedResponse = await keyed('/v1/chains/ethereum');
    expect(keyedResponse.status).toBe(200);
    expect(keyedResponse.headers.get('payment-response')).toBeNull();
    const badKey = await fetch(`${baseUrl}/v1/chains/`, { headers: { Authorization: `Basic ${Buffer.from('not-a-key:').toString('base64')}` } });
    expect(badKey.status).toBe(401);
    for (const [method, path] of [
      ['GET', '/v1/tx-subscriptions/'],
      ['POST', '/v1/tx-subscriptions/'],
    ] as const) {
      const response = await fetch(`${baseUrl}${path}`, { method });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
  });

  test('the OpenAPI document lists 402 and the payment header on data endpoints, not on subscriptions', async () => {
    const document = await json(await fetch(`${baseUrl}/v1/openapi.json`));
    expect(document.components.securitySchemes.x402Payment).toMatchObject({ type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE' });
    const chains = document.paths['/v1/chains/'].get;
    expect(chains.responses['402'].description).toBe('Payment Required');
    expect(chains.security).toEqual([{ basicAuth: [] }, { x402Payment: [] }]);
    const subscriptions = document.paths['/v1/tx-subscriptions/'].get;
    expect(subscriptions.responses['402']).toBeUndefined();
    expect(subscriptions.security).toEqual([{ basicAuth: [] }]);
  });
});
