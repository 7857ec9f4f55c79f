// The server as an indexer sees it: everything goes through @solana/kit's createSolanaRpc, the
// transactions are built with the program clients, and what the node reports (fees, balances,
// token balances, inner instructions, errors) is checked against what the chain did.
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { createSolanaLedger } from './ledger.js';
import { startSolanaRpcServer, type SolanaRpcServer } from './rpc-server.js';
import { ataOf, createAtaInstruction, createMintInstructions, mintToInstruction, testSigner, transferCheckedInstruction } from './test-chain.js';

const sol = 1_000_000_000n;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error a promise rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the RPC server through @solana/kit', () => {
  const ledger = createSolanaLedger();
  let server: SolanaRpcServer;
  let rpc: Rpc<SolanaRpcApi>;
  let payer: KeyPairSigner;
  let alice: KeyPairSigner;
  let bob: KeyPairSigner;
  let splMint: KeyPairSigner;
  let scaledMint: KeyPairSigner;
  const sent: Record<string, Signature> = {};

  async function send(
    feePayer: KeyPairSigner,
    instructions: Instruction[],
    options: { skipPreflight?: boolean; version?: 'legacy' | 0 } = {},
  ): Promise<Signature> {
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const transaction = await pipe(
      createTransactionMessage({ version: options.version ?? 'legacy' }),
      (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(latest, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
      (draft) => signTransactionMessageWithSigners(draft),
    );
    return rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', skipPreflight: options.skipPreflight ?? false }).send();
  }

  const transaction = (signature: Signature) => rpc.getTransaction(signature, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send();

  beforeAll(async () => {
    server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 0 });
    rpc = createSolanaRpc(server.url);
    payer = await testSigner('kit/payer');
    alice = await testSigner('kit/alice');
    bob = await testSigner('kit/bob');
    splMint = await testSigner('kit/spl-mint');
    scaledMint = await testSigner('kit/scaled-mint');
    await rpc.requestAirdrop(payer.address, lamports(100n * sol)).send();
    server.sealNow();

    sent.sol = await send(payer, [getTransferSolInstruction({ source: payer, destination: alice.address, amount: lamports(sol) })]);
    server.sealNow();

    const payerSpl = await ataOf('spl-token', payer.address, splMint.address);
    const aliceSpl = await ataOf('spl-token', alice.address, splMint.address);
    await send(payer, createMintInstructions(ledger, 'spl-token', payer, splMint, 2));
    await send(payer, [
      createAtaInstruction('spl-token', payer, payer.address, splMint.address, payerSpl),
      mintToInstruction('spl-token', splMint.address, payerSpl, payer, 1_000n, 2),
    ]);
    server.sealNow();
    sent.spl = await send(payer, [
      createAtaInstruction('spl-token', payer, alice.address, splMint.address, aliceSpl),
      transferCheckedInstruction('spl-token', splMint.address, payerSpl, aliceSpl, payer, 250n, 2),
    ]);
    server.sealNow();

    const payerScaled = await ataOf('token-2022', payer.address, scaledMint.address);
    const aliceScaled = await ataOf('token-2022', alice.address, scaledMint.address);
    await send(payer, createMintInstructions(ledger, 'token-2022', payer, scaledMint, 6, 1.5));
    await send(payer, [
      createAtaInstruction('token-2022', payer, payer.address, scaledMint.address, payerScaled),
      mintToInstruction('token-2022', scaledMint.address, payerScaled, payer, 10_000_000n, 6),
    ]);
    await send(payer, [createAtaInstruction('token-2022', payer, alice.address, scaledMint.address, aliceScaled)]);
    server.sealNow();
    sent.scaled = await send(payer, [transferCheckedInstruction('token-2022', scaledMint.address, payerScaled, aliceScaled, payer, 2_000_000n, 6)], {
      version: 0,
    });
    server.sealNow();

    sent.failed = await send(alice, [getTransferSolInstruction({ source: alice, destination: bob.address, amount: lamports(50n * sol) })], {
      skipPreflight: true,
    });
    sent.priority = await send(payer, [
      getSetComputeUnitLimitInstruction({ units: 10_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 50_000n }),
      getTransferSolInstruction({ source: payer, destination: bob.address, amount: lamports(sol / 2n) }),
    ]);
    server.sealNow();
  });

  afterAll(() => server.close());

  it('reports a SOL transfer: fee and balances such that payer delta = -(fee + amount)', async () => {
    const found = await transaction(sent.sol!);
    expect(found).not.toBeNull();
    const { meta } = found!;
    expect(meta!.fee).toBe(5_000n);
    expect(meta!.err).toBeNull();
    expect(meta!.preBalances[0]! - meta!.postBalances[0]!).toBe(meta!.fee + sol);
    expect(meta!.postBalances[1]! - meta!.preBalances[1]!).toBe(sol);
    expect(found!.version).toBe('legacy');
    const block = await rpc.getBlock(found!.slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'signatures', rewards: true }).send();
    expect(block!.signatures).toEqual([sent.sol]);
    expect(block!.rewards).toEqual([expect.objectContaining({ rewardType: 'Fee', lamports: 2_500n, pubkey: ledger.leader })]);
  });

  it('reports the ATA creation and SPL transfer: token balances and the inner instructions of the create', async () => {
    const { meta, transaction: message } = (await transaction(sent.spl!))!;
    const keys = message.message.accountKeys;
    const at = async (owner: Address) => keys.indexOf(await ataOf('spl-token', owner, splMint.address));
    expect(meta!.preTokenBalances).toEqual([
      {
        accountIndex: await at(payer.address),
        mint: splMint.address,
        owner: payer.address,
        programId: TOKEN_PROGRAM_ADDRESS,
        uiTokenAmount: { amount: '1000', decimals: 2, uiAmount: 10, uiAmountString: '10' },
      },
    ]);
    expect(meta!.postTokenBalances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accountIndex: await at(payer.address), uiTokenAmount: { amount: '750', decimals: 2, uiAmount: 7.5, uiAmountString: '7.5' } }),
        expect.objectContaining({
          accountIndex: await at(alice.address),
          owner: alice.address,
          uiTokenAmount: { amount: '250', decimals: 2, uiAmount: 2.5, uiAmountString: '2.5' },
        }),
      ]),
    );
    const parsed = await rpc.getTransaction(sent.spl!, { maxSupportedTransactionVersion: 0, encoding: 'jsonParsed' }).send();
    const inner = parsed!.meta!.innerInstructions!.find((entry) => entry.index === 0)!;
    const kinds = inner.instructions.map((instruction) =>
      'parsed' in instruction ? `${instruction.program}:${(instruction.parsed as { type: string }).type}` : 'unparsed',
    );
    expect(kinds).toEqual(
      expect.arrayContaining(['spl-token:getAccountDataSize', 'system:createAccount', 'spl-token:initializeImmutableOwner', 'spl-token:initializeAccount3']),
    );
    expect(inner.instructions.every((instruction) => instruction.stackHeight === 2)).toBe(true);
    const outer = parsed!.transaction.message.instructions[1]!;
    expect(outer).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'transferChecked', info: { tokenAmount: { amount: '250', uiAmountString: '2.5' } } },
      stackHeight: 1,
    });
  });

  it('reports Token-2022 ScaledUiAmount balances as raw amount x multiplier / 10^decimals', async () => {
    const { meta, version } = (await transaction(sent.scaled!))!;
    expect(version).toBe(0);
    const alicePost = meta!.postTokenBalances!.find((balance) => balance.owner === alice.address)!;
    expect(alicePost.programId).toBe(TOKEN_2022_PROGRAM_ADDRESS);
    expect(alicePost.uiTokenAmount).toEqual({ amount: '2000000', decimals: 6, uiAmount: 3, uiAmountString: '3' });
    const { value } = await rpc.getTokenAccountsByOwner(alice.address, { programId: TOKEN_2022_PROGRAM_ADDRESS }, { encoding: 'jsonParsed' }).send();
    expect(value).toHaveLength(1);
    const data = value[0]!.account.data as { program: string; parsed: { type: string; info: { tokenAmount: unknown; extensions: unknown } } };
    expect(data.program).toBe('spl-token-2022');
    expect(data.parsed.info.tokenAmount).toEqual({ amount: '2000000', decimals: 6, uiAmount: 3, uiAmountString: '3' });
    expect(data.parsed.info.extensions).toEqual([{ extension: 'immutableOwner' }]);
    const spl = await rpc.getTokenAccountsByOwner(alice.address, { mint: splMint.address }, { encoding: 'jsonParsed' }).send();
    expect((spl.value[0]!.account.data as { parsed: { info: { tokenAmount: { uiAmountString: string } } } }).parsed.info.tokenAmount.uiAmountString).toBe(
      '2.5',
    );
    const balance = await rpc.getTokenAccountBalance(value[0]!.pubkey).send();
    expect(balance.value.uiAmountString).toBe('3');
  });

  it('refuses a failing transfer at preflight, and records it with its error when preflight is skipped', async () => {
    const refused = await rejection(send(alice, [getTransferSolInstruction({ source: alice, destination: bob.address, amount: lamports(60n * sol) })]));
    expect(isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    const { meta } = (await transaction(sent.failed!))!;
    expect(meta!.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect(meta!.status).toEqual({ Err: { InstructionError: [0n, { Custom: 1n }] } });
    expect(meta!.preBalances[0]! - meta!.postBalances[0]!).toBe(meta!.fee);
    expect(meta!.postBalances[1]).toBe(meta!.preBalances[1]);
    const [newest] = await rpc.getSignaturesForAddress(alice.address, { limit: 1 }).send();
    expect(newest).toMatchObject({ signature: sent.failed, err: { InstructionError: [0n, { Custom: 1n }] }, confirmationStatus: 'finalized' });
    const { value } = await rpc.getSignatureStatuses([sent.failed!, sent.sol!]).send();
    expect(value.map((status) => status?.err ?? null)).toEqual([{ InstructionError: [0n, { Custom: 1n }] }, null]);
  });

  it('charges the priority fee of a compute-budget transaction: ceil(price x limit / 1e6)', async () => {
    const { meta } = (await transaction(sent.priority!))!;
    expect(meta!.fee).toBe(5_000n + 500n);
    expect(meta!.preBalances[0]! - meta!.postBalances[0]!).toBe(meta!.fee + sol / 2n);
    const { value } = await rpc.getBalance(bob.address).send();
    expect(value).toBe(sol / 2n);
  });

  it('lists signatures newest first with before/until, and chains the blocks', async () => {
    const all = await rpc.getSignaturesForAddress(payer.address).send();
    const slots = all.map((entry) => entry.slot);
    expect([...slots].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(slots);
    expect(all[0]!.signature).toBe(sent.priority);
    const after = await rpc.getSignaturesForAddress(payer.address, { before: all[0]!.signature, limit: 2 }).send();
    expect(after.map((entry) => entry.signature)).toEqual(all.slice(1, 3).map((entry) => entry.signature));
    const until = await rpc.getSignaturesForAddress(payer.address, { until: all[2]!.signature }).send();
    expect(until.map((entry) => entry.signature)).toEqual(all.slice(0, 2).map((entry) => entry.signature));

    const slot = await rpc.getSlot().send();
    const blocks = await rpc.getBlocks(0n, slot).send();
    expect(blocks).toEqual(Array.from({ length: Number(slot) + 1 }, (_, index) => BigInt(index)));
    const [previous, last] = await Promise.all(
      [slot - 1n, slot].map((at) => rpc.getBlock(at, { maxSupportedTransactionVersion: 0, transactionDetails: 'none' }).send()),
    );
    expect(last!.previousBlockhash).toBe(previous!.blockhash);
    expect(last!.parentSlot).toBe(slot - 1n);
    expect(isSolanaError(await rejection(rpc.getBlock(slot + 1n).send()), SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE)).toBe(true);
    const scaledSlot = (await transaction(sent.scaled!))!.slot;
    const versioned = await rejection(rpc.getBlock(scaledSlot, { transactionDetails: 'full' }).send());
    expect(isSolanaError(versioned, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION)).toBe(true);
  });

  it('seals a block every slot interval, so a transaction sent over RPC lands in the next block', async () => {
    // Slots long enough that the airdrop is not sealed between the two calls on a loaded machine (at
    // 30 ms it once was, in CI), and a wait of several slots.
    const live = await startSolanaRpcServer({ ledger: createSolanaLedger(), port: 0, slotIntervalMs: 150 });
    try {
      const client = createSolanaRpc(live.url);
      const signature = await client.requestAirdrop(alice.address, lamports(sol)).send();
      expect(await client.getTransaction(signature).send()).toBeNull();
      const start = await client.getSlot().send();
      await wait(600);
      expect(await client.getSlot().send()).toBeGreaterThan(start);
      const landed = await client.getTransaction(signature).send();
      expect(landed!.meta!.err).toBeNull();
      const { value } = await client.getSignatureStatuses([signature]).send();
      expect(value[0]).toMatchObject({ slot: landed!.slot, confirmationStatus: 'finalized', confirmations: null });
    } finally {
      await live.close();
    }
  });
});
