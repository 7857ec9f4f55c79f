import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { solanaWorldSchema } from '../solana/world-manifest.js';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const walletSchema = z.object({
  address,
  kind: z.enum(['eoa', 'safe', 'smart-account']),
  /** What the wallet did, e.g. `uniswap:v2-swap`; each label once, in order of first occurrence. */
  labels: z.array(z.string()),
  /** Block in which the wallet first received funds. */
  joinedAtBlock: z.number().int(),
});

export const reorgSchema = z.object({
  /** Tip height when the reorg happened; the new branch has the same height. */
  tip: z.number().int(),
  depth: z.number().int().min(1),
  commonAncestor: z.object({ number: z.number().int(), hash }),
  orphaned: z.array(z.object({ number: z.number().int(), hash })),
  replacement: z.array(z.object({ number: z.number().int(), hash })),
});

export const chainWorldSchema = z.object({
  id: z.string(),
  chainId: z.number().int(),
  rpcUrl: z.string(),
  deployer: address,
  genesisTimestamp: z.number().int(),
  /** First block after the protocol deployments, where wallet activity starts. */
  activityStartBlock: z.number().int(),
  endBlock: z.number().int(),
  endTimestamp: z.number().int(),
  endBlockHash: hash,
  /** Manifest section of each protocol module, by module name (shapes documented in each module). */
  protocols: z.record(z.string(), z.unknown()),
  wallets: z.array(walletSchema),
  reorgs: z.array(reorgSchema),
  /** `marketTrades`: the arbitrageur's, in blocks of their own (see protocols/uniswap/market-maker.ts). */
  transactions: z.object({ sent: z.number().int(), failedAsPlanned: z.number().int(), failedUnplanned: z.number().int(), marketTrades: z.number().int() }),
});

export const manifestSchema = z.object({
  seed: z.string(),
  walletCount: z.number().int(),
  days: z.number().int(),
  cacheKey: z.string(),
  chains: z.array(chainWorldSchema),
  /** The Solana chains' worlds (served by `devnet solana`, rebuilt from these fields at every start). */
  solana: z.array(solanaWorldSchema).optional(),
});

export type WalletRecord = z.infer<typeof walletSchema>;
export type ReorgRecord = z.infer<typeof reorgSchema>;
export type ChainWorld = z.infer<typeof chainWorldSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

/** Where the start and test commands leave the manifest of the world loaded on the local chains. */
export const defaultManifestPath = new URL('../../../.data/devnet/manifest.json', import.meta.url).pathname;

export async function readManifest(path: string = defaultManifestPath): Promise<Manifest> {
  return manifestSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

export function chainWorld(manifest: Manifest, chainId: string): ChainWorld {
  const chain = manifest.chains.find((candidate) => candidate.id === chainId);
  if (!chain) throw new Error(`the manifest has no chain ${chainId}`);
  return chain;
}
