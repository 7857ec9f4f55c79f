// What the funder and the issuers do: fund the issuers, create the mints, grant wallets their
// tokens (mint-to into an associated account the issuer creates), drop spam on wallets, move the
// ScaledUiAmount multiplier, and the few transactions planned to fail.
import { lamports, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { lamportsOf, pickCounterparty, tokenAmountOf, availableWallets, type PlannedTransaction, type SolanaWorldContext } from './world-context.js';
import { tokenTransferInstructions } from './world-actions.js';
import {
  createAtaInstruction,
  createMintInstructions,
  mintToInstruction,
  transferCheckedInstruction,
  updateMultiplierInstruction,
  type SolanaMint,
  type SolanaMintKey,
} from './world-mints.js';

const sol = 1_000_000_000n;

/** The funder hands each issuer lamports for rents and fees: issuers hold nothing else. */
export function planIssuerFunding(context: SolanaWorldContext, issuer: KeyPairSigner): PlannedTransaction {
  return {
    feePayer: context.funder,
    instructions: [getTransferSolInstruction({ source: context.funder, destination: issuer.address, amount: lamports(100n * sol) })],
    labels: [],
  };
}

export function planMintCreation(context: SolanaWorldContext, mint: SolanaMint, mintKey: KeyPairSigner): PlannedTransaction {
  const rentFor = (space: bigint) => context.ledger.svm.minimumBalanceForRentExemption(space);
  return { feePayer: mint.authority, instructions: createMintInstructions(mint, mintKey, mint.authority, rentFor), labels: [] };
}

/** The spammer's stock: it mints once to its own account and transfers from there, as airdrop bots do. */
export const spamSupply = 1_000_000_000n;

export async function planSpamStock(context: SolanaWorldContext): Promise<PlannedTransaction> {
  const mint = context.mints.spam;
  const account = await context.ata(mint.authority.address, mint);
  return {
    feePayer: mint.authority,
    instructions: [createAtaInstruction(mint.authority, mint.authority.address, account, mint), mintToInstruction(mint, account, spamSupply)],
    labels: [],
  };
}

export type GrantKey = Exclude<SolanaMintKey, 'spam'>;

/** Whole-token ranges of a grant, and the share of wallets that receive one. */
export const grants: Record<GrantKey, { min: number; max: number; share: number }> = {
  usdc: { min: 50, max: 5_000, share: 1 },
  bonk: { min: 100_000, max: 50_000_000, share: 0.7 },
  scaled: { min: 1, max: 40, share: 0.6 },
  meta: { min: 10, max: 1_000, share: 0.45 },
};

/** The issuer mints a grant to the wallet, creating its associated token account (paying the rent). */
export async function planGrant(context: SolanaWorldContext, key: GrantKey, wallet: KeyPairSigner): Promise<PlannedTransaction> {
  const mint = context.mints[key];
  const account = await context.ata(wallet.address, mint);
  const whole = BigInt(context.rng.int(grants[key].min, grants[key].max));
  // Some base units below the whole token, so amounts do not all end in zeros.
  const amount = whole * 10n ** BigInt(mint.decimals) + context.rng.bigint(0n, 10n ** BigInt(mint.decimals) - 1n);
  return {
    feePayer: mint.authority,
    instructions: [createAtaInstruction(mint.authority, wallet.address, account, mint), mintToInstruction(mint, account, amount)],
    labels: [{ wallet: wallet.address, label: `${key}:receive-mint` }],
  };
}

/** One airdrop transaction reaches this many wallets (each needs an account created: about 1,000 bytes for three). */
export const spamRecipientsPerTransaction = 3;

export async function planSpamAirdrop(context: SolanaWorldContext, recipients: readonly KeyPairSigner[]): Promise<PlannedTransaction> {
  const mint = context.mints.spam;
  const source = await context.ata(mint.authority.address, mint);
  const instructions = [];
  for (const recipient of recipients) {
    const account = await context.ata(recipient.address, mint);
    instructions.push(createAtaInstruction(mint.authority, recipient.address, account, mint));
    instructions.push(transferCheckedInstruction(mint, source, account, mint.authority, BigInt(context.rng.int(1, 50) * 100)));
  }
  return { feePayer: mint.authority, instructions, labels: recipients.map((recipient) => ({ wallet: recipient.address, label: 'spam:receive-airdrop' })) };
}

export function planMultiplierUpdate(context: SolanaWorldContext, multiplier: number, effectiveTimestamp: number): PlannedTransaction {
  const mint = context.mints.scaled;
  return { feePayer: mint.authority, instructions: [updateMultiplierInstruction(mint, multiplier, effectiveTimestamp)], labels: [] };
}

export type PlannedFailureKind = 'usdc-overdraft' | 'scaled-overdraft' | 'sol-overdraft';

/**
 * A wallet sends one base unit (or lamport) more than it holds: the program fails with
 * InsufficientFunds, the transaction is recorded with its error and only the fee is charged.
 * Undefined when no free wallet holds the asset now.
 */
export async function planFailure(context: SolanaWorldContext, kind: PlannedFailureKind): Promise<PlannedTransaction | undefined> {
  for (const wallet of availableWallets(context)) {
    const balance = lamportsOf(context, wallet.address);
    if (balance < 10_000_000n) continue;
    const recipient = pickCounterparty(context, wallet.address);
    if (!recipient) return undefined;
    if (kind === 'sol-overdraft') {
      return {
        feePayer: wallet,
        instructions: [getTransferSolInstruction({ source: wallet, destination: recipient.address, amount: lamports(balance + 1n) })],
        labels: [
          { wallet: wallet.address, label: 'sol:transfer-failed' },
          { wallet: recipient.address, label: 'sol:receive-failed' },
        ],
        expectFailure: true,
      };
    }
    const key = kind === 'usdc-overdraft' ? 'usdc' : 'scaled';
    const mint: SolanaMint = context.mints[key];
    const held = await tokenAmountOf(context, wallet.address, mint);
    if (!held) continue;
    return {
      feePayer: wallet,
      instructions: await tokenTransferInstructions(context, mint, wallet, recipient, held + 1n, 'checked'),
      labels: [
        { wallet: wallet.address, label: `${key}:transfer-failed` },
        { wallet: recipient.address, label: `${key}:receive-failed` },
      ],
      expectFailure: true,
    };
  }
  return undefined;
}
