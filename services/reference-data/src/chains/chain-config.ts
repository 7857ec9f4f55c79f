import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const flag = z.boolean();
const urlFormat = (placeholder: string) => z.url().refine((value) => value.includes(placeholder), { message: `must contain the ${placeholder} placeholder` });

export const chainConfigSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,32}$/, 'chain ids are lowercase letters, digits and dashes'),
    name: z.string().min(1),
    network: z.enum(['mainnet', 'testnet']),
    family: z.enum(['evm', 'solana']),
    evm_chain_id: z.number().int().positive().optional(),
    /** Overrides the derived external id (hex EVM chain id); required for non-EVM chains. */
    external_id: z.string().min(1).optional(),
    icon_url: z.url(),
    explorer: z.object({
      name: z.string().min(1),
      token_url_format: urlFormat('{ADDRESS}'),
      tx_url_format: urlFormat('{HASH}'),
      home_url: z.url(),
    }),
    rpc: z.object({ url: z.url(), public_servers_url: z.array(z.url()) }),
    // All six flags are required so that no chain can be served with one missing.
    flags: z.object({
      supports_trading: flag,
      supports_sending: flag,
      supports_bridge: flag,
      supports_transactions: flag,
      supports_positions: flag,
      supports_nft_positions: flag,
    }),
    /** The chain's native asset, served for a token reference with an empty address. */
    native: z.object({ name: z.string().min(1), symbol: z.string().min(1), decimals: z.number().int().min(0).max(255) }),
    native_fungible_id: z.string().min(1).max(44),
    wrapped_native_fungible_id: z.string().min(1).max(44).nullable().default(null),
  })
  .refine((chain) => chain.family !== 'evm' || chain.evm_chain_id !== undefined, {
    message: 'EVM chains need evm_chain_id',
    path: ['evm_chain_id'],
  })
  .refine((chain) => chain.family === 'evm' || chain.external_id !== undefined, {
    message: 'non-EVM chains need external_id',
    path: ['external_id'],
  });

export type ChainConfig = z.infer<typeof chainConfigSchema>;

export const chainsFileSchema = z
  .object({ chains: z.array(chainConfigSchema).min(1) })
  .refine((file) => new Set(file.chains.map((chain) => chain.id)).size === file.chains.length, {
    message: 'chain ids must be unique',
    path: ['chains'],
  });

/** `CHAIN_RPC_URL_<ID>` (id upper-cased, dashes as underscores) replaces a chain's configured RPC URL. */
export function rpcOverrideVariable(chainId: string): string {
  return `CHAIN_RPC_URL_${chainId.toUpperCase().replace(/-/g, '_')}`;
}

export function parseChainsConfig(json: unknown, env: NodeJS.ProcessEnv = {}): ChainConfig[] {
  const result = chainsFileSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid chains configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data.chains.map((chain) => {
    const override = env[rpcOverrideVariable(chain.id)];
    return override ? { ...chain, rpc: { ...chain.rpc, url: z.url().parse(override) } } : chain;
  });
}

export async function loadChainsConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<ChainConfig[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read chains configuration ${path}: ${(error as Error).message}`);
  }
  return parseChainsConfig(json, env);
}
