// Devnet command line, used by scripts/start.sh and scripts/test.sh:
//   world --seed S --wallets N [--days D] [--end-date YYYY-MM-DD] [--actions-per-wallet A] [--reorgs R]
//         builds the world or takes it from the cache, links its chain states into .data/devnet/world
//         (scripts/infra/anvil.sh loads them) and writes .data/devnet/manifest.json and the world's
//         dapp and token registry .data/devnet/registry.json (read by reference-data via REGISTRY_PATHS)
//   live [--interval-ms MS] [--actions N]
//         keeps producing activity on the chains of .data/devnet/manifest.json until stopped, and
//         serves the hosted NFT metadata on 127.0.0.1:18600
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@wallet-api/core/logger';
import { devnetChains, ensureWorld } from '../cache/index.js';
import { defaultManifestPath, readManifest, type Manifest } from '../manifest/index.js';
import { runLiveActivity } from '../live/index.js';
import { defaultRegistryPath, writeDevnetRegistry } from '../registry/index.js';
import { startMetadataServer } from '../metadata-server/index.js';
import { worldModules } from '../protocols/index.js';

const logger = createLogger('devnet');
const dataDir = new URL('../../../../.data/devnet', import.meta.url).pathname;
const chainPorts: Record<string, number> = { ethereum: 18545, base: 18546, sepolia: 18547 };

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: devnet world --seed S --wallets N [--days D] [--end-date YYYY-MM-DD] [--actions-per-wallet A] [--reorgs R]\n       devnet live [--interval-ms MS] [--actions N]\n`);
  process.exit(2);
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) usage(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return parsed;
}

async function world(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seed: { type: 'string' },
      wallets: { type: 'string' },
      days: { type: 'string' },
      'end-date': { type: 'string' },
      'actions-per-wallet': { type: 'string' },
      reorgs: { type: 'string' },
    },
  });
  if (!values.seed) usage('--seed is required');
  const endDate = values['end-date'] ?? '2026-11-01';
  const endTimestamp = Date.parse(`${endDate}T00:00:00Z`) / 1000;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(endDate) || Number.isNaN(endTimestamp)) usage(`--end-date must be YYYY-MM-DD, got ${endDate}`);
  const built = await ensureWorld({
    seed: values.seed,
    walletCount: positiveInteger('wallets', values.wallets, 20),
    days: positiveInteger('days', values.days, 450),
    endTimestamp,
    actionsPerWallet: positiveInteger('actions-per-wallet', values['actions-per-wallet'], 40),
    reorgCount: positiveInteger('reorgs', values.reorgs, 3),
    chains: devnetChains,
    modules: worldModules,
    dataDir,
    logger,
  });
  const worldDir = join(dataDir, 'world');
  await rm(worldDir, { recursive: true, force: true });
  await mkdir(worldDir, { recursive: true });
  for (const [chain, file] of Object.entries(built.stateFiles)) await symlink(file, join(worldDir, `${chain}.state.json`));
  const manifest: Manifest = {
    ...built.manifest,
    chains: built.manifest.chains.map((chain) => ({ ...chain, rpcUrl: `http://127.0.0.1:${chainPorts[chain.id]}` })),
  };
  await writeFile(defaultManifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await writeDevnetRegistry(manifest, defaultRegistryPath);
  logger.info({ manifest: defaultManifestPath, registry: defaultRegistryPath, fromCache: built.fromCache, key: manifest.cacheKey }, 'devnet world ready');
}

async function live(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'interval-ms': { type: 'string' }, actions: { type: 'string' } } });
  const controller = new AbortController();
  process.on('SIGTERM', () => controller.abort());
  process.on('SIGINT', () => controller.abort());
  // The hosted NFT collections point their token URIs at this port (nfts module default).
  const metadata = await startMetadataServer({ port: 18600 });
  logger.info({ url: metadata.url }, 'NFT metadata server listening');
  try {
    await runLiveActivity({
      manifest: await readManifest(),
      modules: worldModules,
      blockIntervalMs: positiveInteger('interval-ms', values['interval-ms'], 1000),
      actionsPerBlock: positiveInteger('actions', values.actions, 4),
      signal: controller.signal,
      logger,
    });
  } finally {
    await metadata.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'world') await world(rest);
  else if (command === 'live') await live(rest);
  else usage(command ? `unknown command ${command}` : 'a command is required');
} catch (error) {
  logger.error({ err: error }, `devnet ${command} failed`);
  process.exitCode = 1;
}
