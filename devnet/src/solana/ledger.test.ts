import { lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { computeBudget, transactionFee } from './fees.js';
import { createSolanaLedger } from './ledger.js';
import type { SolanaLedger } from './ledger-types.js';
import { allAccountKeys, decodeTransaction } from './message.js';
import { ataOf, createAtaInstruction, createMintInstructions, fund, mintToInstruction, signed, testSigner, transferCheckedInstruction } from './test-chain.js';

const sol = 1_000_000_000n;

function balance(ledger: SolanaLedger, address: Address): bigint {
  return ledger.svm.getBalance(address) ?? 0n;
}

describe('Solana ledger', () => {
  let ledger: SolanaLedger;
  let payer: KeyPairSigner;
  let recipient: KeyPairSigner;

  beforeEach(async () => {
    ledger = createSolanaLedger();
    payer = await testSigner('payer');
    recipient = await testSigner('recipient');
    fund(ledger, payer.address, 10n * sol);
  });

  it('charges 5000 lamports per signature for a transfer: payer delta = -(fee + amount)', async () => {
    const transaction = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })]);
    const before = balance(ledger, payer.address);
    const sent = ledger.send(transaction);
    expect(sent).toMatchObject({ recorded: true, err: null });
    const recorded = ledger.pending()[0]!;
    expect(recorded.meta.fee).toBe(5_000n);
    expect(balance(ledger, payer.address)).toBe(before - recorded.meta.fee - sol);
    expect(recorded.meta.preBalances.slice(0, 2)).toEqual([before, 0n]);
    expect(recorded.meta.postBalances.slice(0, 2)).toEqual([before - 5_000n - sol, sol]);
    expect(recorded.meta.computeUnitsConsumed).toBe(150n);
    // 720 per signature + 300 per write lock + 12 data bytes / 4 + 150 executed CUs + 8 per 32 KiB loaded
    expect(recorded.meta.costUnits).toBe(720n + 600n + 3n + 150n + 8n);
  });

  it.each([
    { name: 'price only (default limit: 3,000 per builtin instruction)', priority: { microLamports: 1_000_000n }, expected: 5_000n + 6_000n },
    { name: 'price and limit', priority: { microLamports: 250_000n, unitLimit: 10_001 }, expected: 5_000n + 2_501n },
  ])('adds the priority fee, rounded up: $name', async ({ priority, expected }) => {
    const transaction = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })], {
      priority,
    });
    const before = balance(ledger, payer.address);
    ledger.send(transaction);
    const decoded = decodeTransaction(transaction);
    expect(transactionFee(decoded, decoded.staticKeys).total).toBe(expected);
    expect(ledger.pending()[0]!.meta.fee).toBe(expected);
    expect(before - balance(ledger, payer.address)).toBe(expected + sol);
  });

  it('gives non-builtin instructions 200,000 CUs by default, which the runtime charges for', async () => {
    const mint = await testSigner('mint');
    const setup = await signed(ledger, payer, createMintInstructions(ledger, 'spl-token', payer, mint, 6));
    expect(ledger.send(setup).err).toBeNull();
    const ata = await ataOf('spl-token', recipient.address, mint.address);
    const transaction = await signed(ledger, payer, [createAtaInstruction('spl-token', payer, recipient.address, mint.address, ata)], {
      priority: { microLamports: 10n },
    });
    const decoded = decodeTransaction(transaction);
    expect(computeBudget(decoded.staticKeys, decoded.instructions).unitLimit).toBe(203_000n);
    const before = balance(ledger, payer.address);
    expect(ledger.send(transaction).err).toBeNull();
    const fee = ledger.pending()[1]!.meta.fee;
    expect(fee).toBe(5_000n + 3n); // ceil(10 x 203,000 / 1e6)
    const rent = ledger.svm.minimumBalanceForRentExemption(165n);
    expect(before - balance(ledger, payer.address)).toBe(fee + rent);
  });

  it('records a failed transaction with its error and charges only the fee', async () => {
    const transaction = await signed(ledger, payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(100n * sol) }),
    ]);
    const before = balance(ledger, payer.address);
    const sent = ledger.send(transaction);
    expect(sent.recorded).toBe(true);
    expect(sent.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(balance(ledger, payer.address)).toBe(before - 5_000n);
    const recorded = ledger.pending()[0]!;
    expect(recorded.meta.postBalances.slice(0, 2)).toEqual([before - 5_000n, 0n]);
    expect(recorded.meta.logMessages.some((line) => line.includes('insufficient lamports'))).toBe(true);
  });

  it('refuses what the runtime does not execute: unfunded payer, unknown blockhash, duplicate', async () => {
    const poor = await testSigner('poor');
    const unfunded = ledger.send(
      await signed(ledger, poor, [getTransferSolInstruction({ source: poor, destination: recipient.address, amount: lamports(1n) })]),
    );
    expect(unfunded).toMatchObject({ recorded: false, err: 'AccountNotFound' });
    const stale = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })], {
      blockhash: { blockhash: '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM', lastValidBlockHeight: 0n },
    });
    expect(ledger.send(stale)).toMatchObject({ recorded: false, err: 'BlockhashNotFound' });
    const once = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })]);
    expect(ledger.send(once).recorded).toBe(true);
    expect(ledger.send(once)).toMatchObject({ recorded: false, err: 'AlreadyProcessed' });
    expect(ledger.pending()).toHaveLength(1);
  });

  it('knows a processed message whatever its signatures, as the status cache keeps message hashes', async () => {
    const message = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })]);
    const unsigned = {
      ...message,
      signatures: Object.fromEntries(Object.keys(message.signatures).map((address) => [address, null])),
    } as unknown as typeof message;
    expect(ledger.simulate(unsigned).err).toBeNull();
    expect(ledger.send(message).recorded).toBe(true);
    // A facilitator simulates the payer's transaction before co-signing it: a replay is caught there.
    expect(ledger.simulate(unsigned).err).toBe('AlreadyProcessed');
    expect(ledger.send(unsigned)).toMatchObject({ recorded: false, err: 'AlreadyProcessed' });
  });

  it('seals blocks: dense slots, chained hashes, heights, transactions visible once sealed', async () => {
    const transaction = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })]);
    const { signature } = ledger.send(transaction);
    expect(ledger.transaction(signature)).toBeUndefined();
    expect(ledger.signatureStatus(signature)).toEqual({ slot: 0n, err: null, sealed: false });
    const first = ledger.seal(1_700_000_000);
    const second = ledger.seal(1_700_000_000);
    expect(first).toMatchObject({ slot: 0n, parentSlot: 0n, blockHeight: 0n, previousBlockhash: ledger.genesisHash });
    expect(second).toMatchObject({ slot: 1n, parentSlot: 0n, blockHeight: 1n, previousBlockhash: first.blockhash, transactions: [] });
    expect(second.blockhash).not.toBe(first.blockhash);
    expect(ledger.transaction(signature)).toMatchObject({ slot: 0n, blockTime: 1_700_000_000, index: 0 });
    expect(ledger.signaturesForAddress(recipient.address).map((entry) => entry.signatures[0])).toEqual([signature]);
    expect(ledger.svm.getClock().slot).toBe(2n);
    expect(() => ledger.seal(1_600_000_000)).toThrow(/before the previous block/);
  });

  it('pays the block producer half the base fees and all priority fees', async () => {
    const leaderBefore = balance(ledger, ledger.leader as Address);
    ledger.send(
      await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })], {
        priority: { microLamports: 1_000_000n, unitLimit: 1_000 },
      }),
    );
    const block = ledger.seal(1_700_000_000);
    expect(block.rewards).toEqual([
      { pubkey: ledger.leader, lamports: 2_500n + 1_000n, postBalance: leaderBefore + 3_500n, rewardType: 'Fee', commission: null },
    ]);
    expect(balance(ledger, ledger.leader as Address)).toBe(leaderBefore + 3_500n);
    expect(ledger.seal(1_700_000_001).rewards).toEqual([]);
  });

  it('accepts the blockhash of the last 150 blocks and no older', async () => {
    const old = ledger.latestBlockhash();
    ledger.seal(1);
    const anchor = ledger.latestBlockhash();
    expect(anchor.lastValidBlockHeight).toBe(150n);
    for (let index = 0; index < 149; index++) ledger.seal(2 + index);
    expect(ledger.isBlockhashValid(anchor.blockhash)).toBe(true);
    expect(ledger.isBlockhashValid(old.blockhash)).toBe(true);
    ledger.seal(200);
    expect(ledger.isBlockhashValid(anchor.blockhash)).toBe(false);
    const late = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })], {
      blockhash: anchor,
    });
    expect(ledger.send(late)).toMatchObject({ recorded: false, err: 'BlockhashNotFound' });
  });

  it('records token balances before and after, with the inner instructions of the ATA creation', async () => {
    const mint = await testSigner('mint');
    ledger.send(await signed(ledger, payer, createMintInstructions(ledger, 'spl-token', payer, mint, 6)));
    const payerAta = await ataOf('spl-token', payer.address, mint.address);
    const recipientAta = await ataOf('spl-token', recipient.address, mint.address);
    ledger.send(
      await signed(ledger, payer, [
        createAtaInstruction('spl-token', payer, payer.address, mint.address, payerAta),
        mintToInstruction('spl-token', mint.address, payerAta, payer, 5_000_000n, 6),
      ]),
    );
    const sent = ledger.send(
      await signed(ledger, payer, [
        createAtaInstruction('spl-token', payer, recipient.address, mint.address, recipientAta),
        transferCheckedInstruction('spl-token', mint.address, payerAta, recipientAta, payer, 1_250_000n, 6),
      ]),
    );
    expect(sent.err).toBeNull();
    const recorded = ledger.pending()[2]!;
    const keys = recorded.message.accountKeys;
    const at = (address: Address) => keys.indexOf(address);
    expect(recorded.meta.preTokenBalances).toEqual([
      {
        accountIndex: at(payerAta),
        mint: mint.address,
        owner: payer.address,
        programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        amount: '5000000',
        decimals: 6,
      },
    ]);
    expect(recorded.meta.postTokenBalances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accountIndex: at(payerAta), amount: '3750000' }),
        expect.objectContaining({ accountIndex: at(recipientAta), owner: recipient.address, amount: '1250000', decimals: 6 }),
      ]),
    );
    const inner = recorded.meta.innerInstructions.find((entry) => entry.index === 0)!;
    expect(inner.instructions.length).toBeGreaterThanOrEqual(3);
    expect(inner.instructions.every((instruction) => instruction.stackHeight === 2)).toBe(true);
    const programs = inner.instructions.map((instruction) => keys[instruction.programIdIndex]);
    expect(programs).toContain('11111111111111111111111111111111');
    expect(programs).toContain('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
  });

  it('builds the same blockhashes and signatures from the same sends and seals', async () => {
    const run = async () => {
      const chain = createSolanaLedger();
      const from = await testSigner('payer');
      fund(chain, from.address, 10n * sol);
      const hashes: string[] = [];
      for (let index = 0; index < 3; index++) {
        chain.send(
          await signed(chain, from, [getTransferSolInstruction({ source: from, destination: recipient.address, amount: lamports(BigInt(index + 1)) })]),
        );
        chain.airdrop(recipient.address, sol);
        hashes.push(chain.seal(1_700_000_000 + index).blockhash);
      }
      return { hashes, signatures: chain.signaturesForAddress(recipient.address).map((entry) => entry.signatures[0]) };
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.signatures).toHaveLength(6);
    expect(new Set(first.hashes).size).toBe(3);
  });

  it('keeps the loaded addresses of v0 transactions in the account list the balances cover', async () => {
    const transaction = await signed(ledger, payer, [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(sol) })], {
      version: 0,
    });
    expect(ledger.send(transaction).err).toBeNull();
    const recorded = ledger.pending()[0]!;
    expect(recorded.message.version).toBe(0);
    expect(recorded.meta.loadedAddresses).toEqual({ writable: [], readonly: [] });
    expect(recorded.meta.preBalances).toHaveLength(allAccountKeys(decodeTransaction(transaction), recorded.meta.loadedAddresses).length);
  });
});
