import type { Address } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS, getMintDecoder } from '@solana-program/token-2022';
import { multiplierAt } from '../truth/solana.js';
import type { RecordedTransaction, SolanaLedger } from './ledger-types.js';
import { createSolanaLedger } from './ledger.js';
import { buildSolanaWorld, scaledMultiplierSteps } from './world.js';
import { solanaMint, solanaWorldSchema, type SolanaWorldManifest } from './world-manifest.js';
import { tokenAccountAmount } from './world-mints.js';

const options = { seed: 'solana-world-test', walletCount: 20, endTimestamp: 1_790_000_000, days: 60 };

function recordedTransactions(ledger: SolanaLedger, world: SolanaWorldManifest): RecordedTransaction[] {
  const transactions: RecordedTransaction[] = [];
  for (let slot = 0n; slot <= BigInt(world.endSlot); slot++) transactions.push(...(ledger.block(slot)?.transactions ?? []));
  return transactions;
}

function blocks(ledger: SolanaLedger, world: SolanaWorldManifest) {
  const sealed = [];
  for (let slot = 0n; slot <= BigInt(world.endSlot); slot++) {
    const block = ledger.block(slot);
    if (block)
      sealed.push({
        slot: block.slot,
        blockhash: block.blockhash,
        blockTime: block.blockTime,
        signatures: block.transactions.map((transaction) => transaction.signatures[0]),
      });
  }
  return sealed;
}

function extensionsOf(ledger: SolanaLedger, mint: string) {
  const account = ledger.svm.getAccount(mint as Address);
  if (!account.exists) throw new Error(`no mint ${mint}`);
  const decoded = getMintDecoder().decode(account.data as Uint8Array);
  return decoded.extensions.__option === 'Some' ? decoded.extensions.value : [];
}

describe('Solana world', () => {
  let ledger: SolanaLedger;
  let world: SolanaWorldManifest;
  let seconds: number;

  beforeAll(async () => {
    ledger = createSolanaLedger();
    const started = Date.now();
    world = await buildSolanaWorld(ledger, options);
    seconds = (Date.now() - started) / 1000;
  });

  test('is the same world for the same options: manifest, blocks, blockhashes and signatures', async () => {
    const again = createSolanaLedger();
    const rebuilt = await buildSolanaWorld(again, options);
    expect(rebuilt).toEqual(world);
    expect(blocks(again, rebuilt)).toEqual(blocks(ledger, world));
    const other = await buildSolanaWorld(createSolanaLedger(), { ...options, seed: 'another seed', walletCount: 2 });
    expect(other.wallets[0]!.address).not.toBe(world.wallets[0]!.address);
  });

  test('has a manifest section that parses, with every wallet joined and every mint on its program', () => {
    expect(solanaWorldSchema.parse(world)).toEqual(world);
    expect(world.wallets).toHaveLength(options.walletCount);
    expect(world.endTimestamp).toBe(options.endTimestamp);
    expect(world.mints.map((mint) => [mint.key, mint.program, mint.decimals])).toEqual([
      ['usdc', 'spl-token', 6],
      ['bonk', 'spl-token', 5],
      ['scaled', 'token-2022', 6],
      ['meta', 'token-2022', 9],
      ['spam', 'token-2022', 0],
    ]);
    const authorities = new Set(world.mints.map((mint) => mint.authority));
    expect(authorities.size).toBe(world.mints.length);
    expect(authorities.has(world.funder)).toBe(false);
    expect(seconds).toBeLessThan(10);
  });

  test('packs several transactions per block, a wallet at most once, at times within the history', () => {
    const sealed = blocks(ledger, world);
    const genesis = options.endTimestamp - (options.days + 1) * 86_400;
    expect(sealed.at(-1)!.blockTime).toBe(options.endTimestamp);
    for (const [index, block] of sealed.entries()) {
      expect(block.blockTime).toBeGreaterThanOrEqual(index === 0 ? genesis : sealed[index - 1]!.blockTime);
    }
    expect(Math.max(...sealed.map((block) => block.signatures.length))).toBeGreaterThan(5);
    const walletSet = new Set(world.wallets.map((wallet) => wallet.address));
    for (let slot = 0n; slot <= BigInt(world.endSlot); slot++) {
      const seen = new Set<string>();
      for (const transaction of ledger.block(slot)?.transactions ?? []) {
        for (const key of new Set(transaction.message.accountKeys)) {
          if (!walletSet.has(key)) continue;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
      }
    }
  });

  test('explains every lamport of every wallet by its recorded balance changes', () => {
    const transactions = recordedTransactions(ledger, world);
    for (const wallet of world.wallets) {
      let sum = 0n;
      for (const transaction of transactions) {
        const index = transaction.message.accountKeys.indexOf(wallet.address);
        if (index >= 0) sum += transaction.meta.postBalances[index]! - transaction.meta.preBalances[index]!;
      }
      expect([wallet.address, sum]).toEqual([wallet.address, ledger.svm.getBalance(wallet.address as Address)]);
      // The same from the wallet's own history, as an indexer reads it (getSignaturesForAddress).
      let fromHistory = 0n;
      for (const transaction of ledger.signaturesForAddress(wallet.address)) {
        const index = transaction.message.accountKeys.indexOf(wallet.address);
        fromHistory += transaction.meta.postBalances[index]! - transaction.meta.preBalances[index]!;
      }
      expect(fromHistory).toBe(sum);
    }
  });

  test('explains every token balance of every wallet by its recorded token balance changes', async () => {
    const transactions = recordedTransactions(ledger, world);
    let checked = 0;
    for (const wallet of world.wallets) {
      for (const mint of world.mints) {
        let sum = 0n;
        for (const transaction of transactions) {
          const own = (entry: { owner: string; mint: string }) => entry.owner === wallet.address && entry.mint === mint.address;
          for (const entry of transaction.meta.postTokenBalances.filter(own)) sum += BigInt(entry.amount);
          for (const entry of transaction.meta.preTokenBalances.filter(own)) sum -= BigInt(entry.amount);
        }
        const tokenProgram = mint.program === 'spl-token' ? TOKEN_PROGRAM_ADDRESS : TOKEN_2022_PROGRAM_ADDRESS;
        const [ata] = await findAssociatedTokenPda({ owner: wallet.address as Address, mint: mint.address as Address, tokenProgram });
        const account = ledger.svm.getAccount(ata);
        const held = account.exists ? tokenAccountAmount(account.data as Uint8Array)! : 0n;
        expect([wallet.address, mint.key, sum]).toEqual([wallet.address, mint.key, held]);
        if (held > 0n) checked++;
      }
    }
    expect(checked).toBeGreaterThan(world.wallets.length);
  });

  test('changes the ScaledUiAmount multiplier as planned and keeps TokenMetadata on chain', () => {
    const scaled = solanaMint(world, 'scaled');
    expect(scaled.multipliers!.map((entry) => entry.multiplier)).toEqual(['1', ...scaledMultiplierSteps.map(String)]);
    const times = scaled.multipliers!.map((entry) => entry.effectiveTimestamp);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.at(-1)!).toBeLessThanOrEqual(world.endTimestamp);
    const config = extensionsOf(ledger, scaled.address).find((extension) => extension.__kind === 'ScaledUiAmountConfig');
    if (config?.__kind !== 'ScaledUiAmountConfig') throw new Error('no ScaledUiAmountConfig');
    const state = {
      multiplier: config.multiplier,
      newMultiplier: config.newMultiplier,
      newMultiplierEffectiveTimestamp: Number(config.newMultiplierEffectiveTimestamp),
    };
    expect(state).toEqual({ multiplier: scaledMultiplierSteps[0], newMultiplier: scaledMultiplierSteps[1], newMultiplierEffectiveTimestamp: times[2] });
    expect(multiplierAt(state, times[2]! - 1)).toBe('1.05');
    expect(multiplierAt(state, world.endTimestamp)).toBe('2.1');
    for (const key of ['meta', 'scaled', 'spam'] as const) {
      const mint = solanaMint(world, key);
      const metadata = extensionsOf(ledger, mint.address).find((extension) => extension.__kind === 'TokenMetadata');
      expect(metadata).toMatchObject({ name: mint.name, symbol: mint.symbol, uri: mint.metadataUri, mint: mint.address });
    }
  });

  test('records the planned failures with their error, charging only the fee', () => {
    const failed = recordedTransactions(ledger, world).filter((transaction) => transaction.meta.err !== null && transaction.meta.err !== undefined);
    expect(failed).toHaveLength(world.transactions.failed);
    expect(world.transactions.failed).toBe(3);
    for (const transaction of failed) {
      expect(transaction.meta.preBalances[0]! - transaction.meta.postBalances[0]!).toBe(transaction.meta.fee);
      const amounts = (entries: typeof transaction.meta.preTokenBalances) => entries.map((entry) => [entry.accountIndex, entry.amount]);
      expect(amounts(transaction.meta.postTokenBalances)).toEqual(amounts(transaction.meta.preTokenBalances));
    }
  });

  test('covers priority fees, inner instructions, closes, spam and both token programs', () => {
    const transactions = recordedTransactions(ledger, world);
    expect(transactions.length).toBe(world.transactions.sent);
    const withBudget = transactions.filter((transaction) => transaction.message.accountKeys.includes(COMPUTE_BUDGET_PROGRAM_ADDRESS));
    expect(withBudget.length).toBe(world.transactions.withPriorityFee);
    expect(withBudget.length / transactions.length).toBeGreaterThan(0.2);
    for (const transaction of withBudget) expect(transaction.meta.fee).toBeGreaterThan(5_000n);
    expect(transactions.some((transaction) => transaction.meta.innerInstructions.length > 0)).toBe(true);
    expect(transactions.some((transaction) => transaction.message.version === 0)).toBe(true);
    const labels = new Set(world.wallets.flatMap((wallet) => wallet.labels));
    for (const label of [
      'faucet:receive-sol',
      'sol:transfer',
      'usdc:receive-mint',
      'usdc:transfer-checked',
      'bonk:transfer',
      'scaled:transfer-checked',
      'bonk:close-account',
      'spam:receive-airdrop',
      'compute-budget:priority-fee',
    ]) {
      expect([label, labels.has(label)]).toEqual([label, true]);
    }
    const spam = solanaMint(world, 'spam');
    const spamHolders = world.wallets.filter((wallet) => wallet.labels.includes('spam:receive-airdrop'));
    expect(spamHolders.length).toBeGreaterThan(world.wallets.length / 2);
    expect(spam.name).toMatch(/claim/i);
  });
});
