import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@wallet-api/core/logger';
import { createChainSession, startAnvil } from '../chain/index.js';
import { compileContracts } from '../compile/index.js';
import { manifestSchema, type Manifest } from '../manifest/index.js';
import { buildChainWorld, genesisTimestamp } from '../world/build-chain-world.js';
import type { ProtocolModule } from '../world/index.js';

export interface DevnetChainSpec {
  id: string;
  chainId: number;
  participation: number;
}

export interface WorldOptions {
  seed: string;
  walletCount: number;
  days: number;
  endTimestamp: number;
  actionsPerWallet: number;
  reorgCount: number;
  chains: readonly DevnetChainSpec[];
  // biome-ignore lint/suspicious/noExplicitAny: modules differ in their manifest type; each is used only with its own
  modules: readonly ProtocolModule<any>[];
  /** The project's `.data/devnet` folder. */
  dataDir: string;
  logger: Logger;
}

export interface World {
  manifest: Manifest;
  /** anvil state dump of each chain (blocks, receipts and historical states), by chain id. */
  stateFiles: Record<string, string>;
  fromCache: boolean;
}

export const devnetChains: readonly DevnetChainSpec[] = [
  { id: 'ethereum', chainId: 1, participation: 1 },
  { id: 'base', chainId: 8453, participation: 0.6 },
  { id: 'sepolia', chainId: 11155111, participation: 0.3 },
];

const packageRoot = new URL('../../', import.meta.url).pathname;

// Code that only reads a built world (the command line, the registry derived from the manifest):
// changing it must not rebuild the world, which takes minutes.
const worldIndependent = ['src/cli/', 'src/registry/'];

/** Whether a file of this package (path relative to it) shapes the built world, so its content is part of the cache key. */
export function shapesWorld(relativePath: string): boolean {
  return /\.(ts|sol)$/.test(relativePath) && !relativePath.endsWith('.test.ts') && !worldIndependent.some((folder) => relativePath.startsWith(folder));
}

/** Hash of the generator's own code and contracts: a change to either builds a new world. */
async function codeHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['src', 'contracts']) {
    const entries = await readdir(join(packageRoot, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => shapesWorld(file.slice(packageRoot.length)))
      .sort();
    for (const file of files) hash.update(file.slice(packageRoot.length)).update(await readFile(file));
  }
  return hash.digest('hex');
}

export async function worldCacheKey(options: WorldOptions): Promise<string> {
  const { seed, walletCount, days, endTimestamp, actionsPerWallet, reorgCount, chains } = options;
  return createHash('sha256')
    .update(JSON.stringify({ seed, walletCount, days, endTimestamp, actionsPerWallet, reorgCount, chains, modules: options.modules.map((m) => m.name) }))
    .update(await codeHash())
    .digest('hex')
    .slice(0, 16);
}

/**
 * The world for these options: loaded from `.data/devnet/cache/<key>` when an earlier run built
 * it, otherwise built chain by chain on temporary anvils whose state is dumped into the cache.
 */
export async function ensureWorld(options: WorldOptions): Promise<World> {
  const key = await worldCacheKey(options);
  const dir = join(options.dataDir, 'cache', key);
  const stateFiles = Object.fromEntries(options.chains.map((chain) => [chain.id, join(dir, `${chain.id}.state.json`)]));
  try {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    options.logger.info({ key, seed: options.seed, wallets: options.walletCount }, 'devnet world loaded from cache');
    return { manifest, stateFiles, fromCache: true };
  } catch {
    // not built yet
  }

  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const artifacts = await compileContracts(join(packageRoot, 'contracts'), join(options.dataDir, 'artifacts'));
  const chains = await Promise.all(
    options.chains.map(async (chain) => {
      const anvil = await startAnvil({
        chainId: chain.chainId,
        cachePath: join(building, `${chain.id}.anvil`),
        dumpState: join(building, `${chain.id}.state.json`),
        genesisTimestamp: genesisTimestamp(options),
      });
      try {
        const session = await createChainSession(anvil.rpcUrl);
        return await buildChainWorld(session, {
          id: chain.id,
          seed: options.seed,
          walletCount: options.walletCount,
          days: options.days,
          endTimestamp: options.endTimestamp,
          participation: chain.participation,
          actionsPerWallet: options.actionsPerWallet,
          reorgCount: options.reorgCount,
          modules: options.modules,
          artifacts,
          logger: options.logger,
        });
      } finally {
        await anvil.stop();
        await rm(join(building, `${chain.id}.anvil`), { recursive: true, force: true });
      }
    }),
  );
  const manifest: Manifest = {
    seed: options.seed,
    walletCount: options.walletCount,
    days: options.days,
    cacheKey: key,
    chains: chains.map((chain) => ({ ...chain, rpcUrl: '' })),
  };
  await writeFile(join(building, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(dir, { recursive: true, force: true });
  // The rename makes a half-built world impossible to mistake for a cached one.
  await rename(building, dir);
  await pruneCache(join(options.dataDir, 'cache'), key);
  return { manifest, stateFiles, fromCache: false };
}

/** Worlds kept besides the newest: each code change makes a new key, and a dump can be large. */
const keptWorlds = 3;

async function pruneCache(cacheDir: string, newest: string): Promise<void> {
  const entries = await readdir(cacheDir, { withFileTypes: true });
  const worlds = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && entry.name !== newest && !entry.name.includes('.building-'))
      .map(async (entry) => ({ path: join(cacheDir, entry.name), modified: (await stat(join(cacheDir, entry.name))).mtimeMs })),
  );
  worlds.sort((a, b) => b.modified - a.modified);
  for (const world of worlds.slice(keptWorlds)) await rm(world.path, { recursive: true, force: true });
}
