// What wallets do on their own: send SOL and tokens to each other (creating the recipient's
// associated token account when it has none), empty and close a token account, burn and close
// unsolicited spam.
import type { Instruction, KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { getBurnCheckedInstruction } from '@solana-program/token-2022';
import { lamportsOf, pickCounterparty, tokenAmountOf, type PlannedTransaction, type SolanaWorldContext } from './world-context.js';
import {
  closeAccountInstruction,
  createAtaInstruction,
  transferCheckedInstruction,
  transferInstruction,
  type SolanaMint,
  type SolanaMintKey,
} from './world-mints.js';

export interface WalletAction {
  kind: string;
  weight: number;
  /** The wallet's transaction, or undefined when the action does not apply to it now. */
  plan(context: SolanaWorldContext, wallet: KeyPairSigner): Promise<PlannedTransaction | undefined>;
}

/** Lamports a wallet keeps for fees and the rent of token accounts it creates for others. */
export const walletReserve = 50_000_000n;

/** A share of `held` between 5% and 50% (at least 1). */
function someOf(context: SolanaWorldContext, held: bigint): bigint {
  const low = held / 20n > 0n ? held / 20n : 1n;
  const high = held / 2n > low ? held / 2n : low;
  return context.rng.bigint(low, high);
}

const sendSol: WalletAction = {
  kind: 'sol:transfer',
  weight: 3,
  async plan(context, wallet) {
    const balance = lamportsOf(context, wallet.address);
    if (balance < walletReserve * 4n) return undefined;
    const recipient = pickCounterparty(context, wallet.address);
    if (!recipient) return undefined;
    const amount = context.rng.bigint(balance / 100n, balance / 8n);
    return {
      feePayer: wallet,
      instructions: [getTransferSolInstruction({ source: wallet, destination: recipient.address, amount })],
      labels: [
        { wallet: wallet.address, label: 'sol:transfer' },
        { wallet: recipient.address, label: 'sol:receive' },
      ],
    };
  },
};

/**
 * Instructions moving `amount` of `mint` from `wallet` to `recipient`, preceded by the creation of
 * the recipient's associated account (paid by the sender) when it has none.
 */
export async function tokenTransferInstructions(
  context: SolanaWorldContext,
  mint: SolanaMint,
  wallet: KeyPairSigner,
  recipient: KeyPairSigner,
  amount: bigint,
  style: 'checked' | 'unchecked',
): Promise<Instruction[]> {
  const source = await context.ata(wallet.address, mint);
  const destination = await context.ata(recipient.address, mint);
  const instructions: Instruction[] = [];
  if ((await tokenAmountOf(context, recipient.address, mint)) === undefined)
    instructions.push(createAtaInstruction(wallet, recipient.address, destination, mint));
  instructions.push(
    style === 'checked'
      ? transferCheckedInstruction(mint, source, destination, wallet, amount)
      : transferInstruction(mint, source, destination, wallet, amount),
  );
  return instructions;
}

function sendToken(key: SolanaMintKey, style: 'checked' | 'unchecked', weight: number): WalletAction {
  const kind = `${key}:${style === 'checked' ? 'transfer-checked' : 'transfer'}`;
  return {
    kind,
    weight,
    async plan(context, wallet) {
      const mint = context.mints[key];
      const held = await tokenAmountOf(context, wallet.address, mint);
      if (!held || lamportsOf(context, wallet.address) < walletReserve) return undefined;
      const recipient = pickCounterparty(context, wallet.address);
      if (!recipient) return undefined;
      return {
        feePayer: wallet,
        instructions: await tokenTransferInstructions(context, mint, wallet, recipient, someOf(context, held), style),
        labels: [
          { wallet: wallet.address, label: kind },
          { wallet: recipient.address, label: `${key}:receive` },
        ],
      };
    },
  };
}

/** Sends all of its BONK to another wallet (when it has any) and closes the emptied account, recovering its rent. */
export const closeBonkAccount: WalletAction = {
  kind: 'bonk:close-account',
  weight: 1,
  async plan(context, wallet) {
    const mint = context.mints.bonk;
    const held = await tokenAmountOf(context, wallet.address, mint);
    if (held === undefined || lamportsOf(context, wallet.address) < walletReserve) return undefined;
    const labels = [{ wallet: wallet.address, label: 'bonk:close-account' }];
    const instructions: Instruction[] = [];
    if (held > 0n) {
      const recipient = pickCounterparty(context, wallet.address);
      if (!recipient) return undefined;
      instructions.push(...(await tokenTransferInstructions(context, mint, wallet, recipient, held, 'checked')));
      labels.push({ wallet: recipient.address, label: 'bonk:receive' });
    }
    instructions.push(closeAccountInstruction(mint, await context.ata(wallet.address, mint), wallet));
    return { feePayer: wallet, instructions, labels };
  },
};

/** Burns the spam it was sent and closes the account (what a wallet app's "clean up" button does). */
const burnSpam: WalletAction = {
  kind: 'spam:burn-and-close',
  weight: 1,
  async plan(context, wallet) {
    const mint = context.mints.spam;
    const held = await tokenAmountOf(context, wallet.address, mint);
    if (held === undefined || lamportsOf(context, wallet.address) < walletReserve) return undefined;
    const account = await context.ata(wallet.address, mint);
    const instructions: Instruction[] = [];
    if (held > 0n) instructions.push(getBurnCheckedInstruction({ account, mint: mint.address, authority: wallet, amount: held, decimals: mint.decimals }));
    instructions.push(closeAccountInstruction(mint, account, wallet));
    return { feePayer: wallet, instructions, labels: [{ wallet: wallet.address, label: 'spam:burn-and-close' }] };
  },
};

export const walletActions: readonly WalletAction[] = [
  sendSol,
  sendToken('usdc', 'checked', 3),
  sendToken('usdc', 'unchecked', 1),
  sendToken('bonk', 'unchecked', 2),
  sendToken('scaled', 'checked', 2),
  sendToken('meta', 'checked', 1),
  closeBonkAccount,
  burnSpam,
];

/** Plans one action for `wallet`: up to four weighted draws until one applies. */
export async function planWalletAction(context: SolanaWorldContext, wallet: KeyPairSigner): Promise<PlannedTransaction | undefined> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const action = context.rng.weighted(walletActions.map((entry) => ({ weight: entry.weight, value: entry })));
    const planned = await action.plan(context, wallet);
    if (planned) return planned;
  }
  return undefined;
}
