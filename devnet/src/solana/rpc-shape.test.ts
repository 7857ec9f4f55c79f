// Every fixture under fixtures/ is an example response from Solana's RPC docs (with its source);
// the server's answer to the same method, on a small chain built here, must have the same keys,
// the same JSON types and the same nesting. Keys a node writes that an example leaves out are
// listed in the fixture with the reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendTransactionMessageInstruction,
  compileTransactionMessage,
  createTransactionMessage,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  blockhash,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { compareShape } from './json-shape.js';
import { createSolanaLedger } from './ledger.js';
import type { SolanaLedger } from './ledger-types.js';
import { startSolanaRpcServer, type SolanaRpcServer } from './rpc-server.js';
import { ataOf, createAtaInstruction, createMintInstructions, fund, mintToInstruction, signed, testSigner } from './test-chain.js';

interface Fixture {
  method: string;
  source: string;
  docResponse: Record<string, unknown>;
  nullable: string[];
  extraKeys: Record<string, string>;
}

const fixtureDir = new URL('./fixtures/', import.meta.url).pathname;
const fixtures = Object.fromEntries(
  readdirSync(fixtureDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(fixtureDir, file), 'utf8')) as Fixture]),
);

describe('RPC responses have the shapes of the documented examples', () => {
  let ledger: SolanaLedger;
  let server: SolanaRpcServer;
  let payer: KeyPairSigner;
  let recipient: KeyPairSigner;
  let mint: KeyPairSigner;
  let payerAta: Address;
  let transferSignature: string;
  let transferSlot: bigint;
  const params: Record<string, () => unknown[] | Promise<unknown[]>> = {};

  async function call(method: string, parameters: unknown[] | undefined): Promise<Record<string, unknown>> {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(parameters ? { params: parameters } : {}) }),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  beforeAll(async () => {
    ledger = createSolanaLedger();
    server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 0, now: () => 1_767_225_600_000 });
    payer = await testSigner('shape/payer');
    recipient = await testSigner('shape/recipient');
    mint = await testSigner('shape/mint');
    fund(ledger, payer.address, 10_000_000_000n);
    payerAta = await ataOf('spl-token', payer.address, mint.address);
    ledger.send(await signed(ledger, payer, createMintInstructions(ledger, 'spl-token', payer, mint, 2)));
    ledger.send(
      await signed(ledger, payer, [
        createAtaInstruction('spl-token', payer, payer.address, mint.address, payerAta),
        mintToInstruction('spl-token', mint.address, payerAta, payer, 9_864n, 2),
      ]),
    );
    server.sealNow();
    transferSignature = ledger.send(
      await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(1_000_000n) })]),
    ).signature;
    transferSlot = ledger.openSlot();
    server.sealNow();
    server.sealNow();

    const head = () => ledger.head()!.slot;
    const transferMessage = async () => {
      const latest = ledger.latestBlockhash();
      const message = pipe(
        createTransactionMessage({ version: 'legacy' }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) =>
          setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash(latest.blockhash), lastValidBlockHeight: latest.lastValidBlockHeight }, draft),
        (draft) =>
          appendTransactionMessageInstruction(getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(5n) }), draft),
      );
      return getBase64Decoder().decode(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message)));
    };
    // GetAccountDataSize (21) of the token program sets return data: the account size as a u64.
    const returnDataTransaction = async () => {
      const transaction = await signed(ledger, payer, [
        { programAddress: TOKEN_PROGRAM_ADDRESS, accounts: [{ address: mint.address, role: 0 }], data: new Uint8Array([21]) },
      ]);
      return getBase64EncodedWireTransaction(transaction);
    };
    Object.assign(params, {
      getaccountinfo: () => [payer.address, { encoding: 'base58' }],
      getbalance: () => [payer.address],
      getblock: () => [Number(transferSlot), { encoding: 'json', maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false }],
      getblocks: () => [0, Number(head())],
      getblockswithlimit: () => [0, 3],
      getblocktime: () => [0],
      'getblocktime-unavailable': () => [Number(head()) + 150],
      getblockheight: () => [],
      getfeeformessage: async () => [await transferMessage(), { commitment: 'processed' }],
      gethealth: () => undefined as unknown as unknown[],
      getlatestblockhash: () => [{ commitment: 'processed' }],
      getminimumbalanceforrentexemption: () => [50],
      getmultipleaccounts: () => [[payer.address, recipient.address], { encoding: 'base58' }],
      getsignaturesforaddress: () => [payer.address, { limit: 1 }],
      getsignaturestatuses: () => [
        [transferSignature, '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'],
        { searchTransactionHistory: true },
      ],
      getslot: () => [{ commitment: 'finalized' }],
      gettokenaccountbalance: () => [payerAta],
      gettokenaccountsbyowner: () => [payer.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'jsonParsed' }],
      gettransaction: () => [transferSignature, 'json'],
      getversion: () => undefined as unknown as unknown[],
      requestairdrop: () => [recipient.address, 1_000_000_000],
      simulatetransaction: async () => [await returnDataTransaction(), { encoding: 'base64' }],
    });
  });

  afterAll(() => server.close());

  it('has a fixture with its source for every method it checks, and a check for every fixture', () => {
    expect(Object.keys(fixtures).sort()).toEqual(Object.keys(params).sort());
    for (const fixture of Object.values(fixtures)) expect(fixture.source).toMatch(/^https:\/\/solana\.com\/docs\/rpc\/http\//);
  });

  it.each(Object.keys(fixtures).sort())('%s', async (name) => {
    const fixture = fixtures[name]!;
    const response = await call(fixture.method, await params[name]!());
    const problems = compareShape(fixture.docResponse, response, { nullable: fixture.nullable, extraKeys: fixture.extraKeys });
    expect(problems).toEqual([]);
    if ('error' in fixture.docResponse) {
      const expected = (fixture.docResponse.error as { message: string }).message.replace(/\d+/g, '');
      expect((response.error as { message: string }).message.replace(/\d+/g, '')).toBe(expected);
    }
  });
});
