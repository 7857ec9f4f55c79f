import { getBase58Decoder, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { createSolanaLedger } from './ledger.js';
import type { SolanaLedger } from './ledger-types.js';
import { handleRpcBody, startSolanaRpcServer } from './rpc-server.js';
import { fund, signed, testSigner } from './test-chain.js';

describe('JSON-RPC envelope and errors', () => {
  let ledger: SolanaLedger;
  const call = async (body: unknown) =>
    JSON.parse(await handleRpcBody(typeof body === 'string' ? body : JSON.stringify(body), { ledger })) as Record<string, unknown>;
  const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });

  beforeEach(() => {
    ledger = createSolanaLedger();
  });

  it.each([
    { name: 'unparsable JSON', body: '{"jsonrpc":', error: { code: -32700, message: 'Parse error' }, id: null },
    { name: 'not a request object', body: '42', error: { code: -32600, message: 'Invalid request' }, id: null },
    { name: 'unknown method', body: request('getStakeActivation', []), error: { code: -32601, message: 'Method not found' }, id: 7 },
    { name: 'missing parameter', body: request('getBalance', []), error: { code: -32602, message: '`params` should have at least 1 argument(s)' }, id: 7 },
    { name: 'bad address', body: request('getBalance', ['not-base58-0OIl']), error: { code: -32602, message: 'Invalid param: Invalid' }, id: 7 },
    { name: 'short address', body: request('getBalance', ['11111']), error: { code: -32602, message: 'Invalid param: WrongSize' }, id: 7 },
    {
      name: 'wrong type',
      body: request('getBlock', ['12']),
      error: { code: -32602, message: 'Invalid params: invalid type: string "12", expected u64.' },
      id: 7,
    },
    {
      name: 'processed getBlock',
      body: request('getBlock', [0, { commitment: 'processed' }]),
      error: { code: -32602, message: 'Method does not support commitment below `confirmed`' },
      id: 7,
    },
    { name: 'block after the head', body: request('getBlock', [3]), error: { code: -32004, message: 'Block not available for slot 3' }, id: 7 },
    {
      name: 'limit over 1000',
      body: request('getSignaturesForAddress', ['11111111111111111111111111111111', { limit: 1001 }]),
      error: { code: -32602, message: 'Invalid limit; max 1000' },
      id: 7,
    },
    { name: 'unknown encoding', body: request('getTransaction', ['1'.repeat(64), { encoding: 'xml' }]), error: { code: -32602 }, id: 7 },
  ])('answers $name with the node error', async ({ body, error, id }) => {
    const response = await call(body);
    expect(response).toMatchObject({ jsonrpc: '2.0', id, error });
    expect(response).not.toHaveProperty('result');
  });

  it('answers a batch in order, leaves notifications unanswered and returns null for an unknown transaction', async () => {
    const responses = await call([
      request('getHealth'),
      { jsonrpc: '2.0', method: 'getSlot' },
      request('getTransaction', ['1'.repeat(64)]),
      { ...request('getSlot'), id: 'x' },
    ]);
    expect(responses).toEqual([
      { jsonrpc: '2.0', result: 'ok', id: 7 },
      { jsonrpc: '2.0', result: null, id: 7 },
      { jsonrpc: '2.0', result: 0, id: 'x' },
    ]);
    expect(await handleRpcBody(JSON.stringify({ jsonrpc: '2.0', method: 'getSlot' }), { ledger })).toBe('');
  });

  it('keeps u64 parameters beyond 2^53 exact and answers the preflight failure like a node', async () => {
    const payer = await testSigner('server/payer');
    fund(ledger, payer.address, 10_000_000_000n);
    const transaction = await signed(ledger, payer, [
      getTransferSolInstruction({ source: payer, destination: ledger.leader as never, amount: lamports(20_000_000_000n) }),
    ]);
    const wire = getBase58Decoder().decode(new Uint8Array([...[1], ...Object.values(transaction.signatures)[0]!, ...transaction.messageBytes]));
    const response = await call(request('sendTransaction', [wire]));
    expect(response.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
      data: { err: { InstructionError: [0, { Custom: 1 }] }, accounts: null, unitsConsumed: 150, innerInstructions: null, replacementBlockhash: null },
    });
    expect(ledger.pending()).toHaveLength(0);
    const big = JSON.parse(
      await handleRpcBody(`{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["${payer.address}",9007199254740993]}`, { ledger }),
    );
    expect(typeof big.result).toBe('string');
    const [airdrop] = ledger.pending();
    expect(airdrop!.meta.postBalances[1]! - airdrop!.meta.preBalances[1]!).toBe(9_007_199_254_740_993n);
  });

  it('serves HTTP: POST for JSON-RPC, GET /health, 405 otherwise', async () => {
    const server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 0 });
    try {
      const health = await fetch(`${server.url}/health`);
      expect(await health.text()).toBe('ok');
      expect((await fetch(server.url, { method: 'PUT' })).status).toBe(405);
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request('getVersion')),
      });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', result: { 'solana-core': '4.3.0', 'feature-set': 2_409_014_235 }, id: 7 });
    } finally {
      await server.close();
    }
  });
});
