import { z } from 'zod';

/** base58 of 32 bytes: 32 to 44 characters of the Bitcoin alphabet. */
const solanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

export const solanaMintSchema = z.object({
  key: z.enum(['usdc', 'bonk', 'scaled', 'meta', 'spam']),
  address: solanaAddress,
  program: z.enum(['spl-token', 'token-2022']),
  decimals: z.number().int().min(0),
  symbol: z.string(),
  name: z.string(),
  /** `spam`: an unsolicited look-alike airdropped to wallets (the registry's spam list). */
  kind: z.enum(['stable', 'standard', 'spam']),
  /** Key that mints (and, for the ScaledUiAmount mint, sets the multiplier); never the funder. */
  authority: solanaAddress,
  /** On-chain TokenMetadata (Token-2022 MetadataPointer to the mint itself). */
  metadataUri: z.string().optional(),
  /**
   * ScaledUiAmount mints: every multiplier in force over the history, oldest first, each from its
   * effective time (unix seconds); the first is the multiplier the mint was created with. Decimal
   * text of the f64 the program stores (`String(number)`); display amount = raw x multiplier / 10^decimals.
   */
  multipliers: z.array(z.object({ multiplier: z.string(), effectiveTimestamp: z.number().int() })).optional(),
});

export const solanaWalletSchema = z.object({
  address: solanaAddress,
  /** What the wallet did or received, e.g. `usdc:transfer-checked`; each label once, in order of first occurrence. */
  labels: z.array(z.string()),
  /** Slot of the block in which it received its first lamports (from the funder). */
  joinedAtSlot: z.number().int(),
});

export const solanaWorldSchema = z.object({
  /** Chain id, e.g. `solana` or `solana-devnet`. */
  id: z.string(),
  seed: z.string(),
  walletCount: z.number().int(),
  days: z.number().int(),
  endTimestamp: z.number().int(),
  rpcUrl: z.string(),
  /** Pre-funded at genesis (the only lamports not from a recorded transaction); pays every wallet's first lamports. */
  funder: solanaAddress,
  mints: z.array(solanaMintSchema),
  wallets: z.array(solanaWalletSchema),
  /** Slot and hash of the last sealed block, whose block time is `endTimestamp`. */
  endSlot: z.number().int(),
  endBlockhash: z.string(),
  /** Recorded transactions; `failed` were planned to fail and are recorded with their error. */
  transactions: z.object({ sent: z.number().int(), failed: z.number().int(), withPriorityFee: z.number().int() }),
});

export type SolanaWorldManifest = z.infer<typeof solanaWorldSchema>;
export type SolanaMintRecord = z.infer<typeof solanaMintSchema>;
export type SolanaWalletRecord = z.infer<typeof solanaWalletSchema>;

/** The mint of `key` in a Solana world's manifest. */
export function solanaMint(world: SolanaWorldManifest, key: SolanaMintRecord['key']): SolanaMintRecord {
  const mint = world.mints.find((candidate) => candidate.key === key);
  if (!mint) throw new Error(`the Solana world ${world.id} has no ${key} mint`);
  return mint;
}
