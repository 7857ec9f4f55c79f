// Devnet command line, used by scripts/start.sh and scripts/test.sh:
//   world --seed S --wallets N [--days D] [--end-date YYYY-MM-DD] [--actions-per-wallet A] [--reorgs R]
//         builds the world or takes it from the cache, links its chain states into .data/devnet/world
//         (scripts/infra/anvil.sh loads them), builds the Solana chains' worlds (solana, solana-devnet)
//         and writes .data/devnet/manifest.json and the world's
//         dapp and token registry .data/devnet/registry.json (read by reference-data via REGISTRY_PATHS)
//   live [--interval-ms MS] [--actions N]
//         keeps producing activity on the chains of .data/devnet/manifest.json until stopped, and
//         serves the hosted NFT metadata on 127.0.0.1:18600
//   crowd --wallets N [--chain ID]
//         adds N more wallets to the running chain ID (default ethereum) of the loaded world, funded
//         in a few blocks at the wall-clock time, and writes their addresses to .data/devnet/crowd.json
//         (bench:mix reads them); run before `live`, which sends from the same deployer
//   solana --port P [--slot-ms MS] [--chain ID]
//         a local Solana chain (LiteSVM) behind a JSON-RPC server on 127.0.0.1:P: rebuilds the
//         chain's world from the manifest's `solana` section when it has one, then seals a block
//         every MS milliseconds (default 400) until SIGTERM (scripts/infra/solana.sh)
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@wallet-api/core/logger';
import type { Address } from 'viem';
import { createChainSession } from '../chain/index.js';
import { compileContracts } from '../compile/index.js';
import { buildCrowd, planCrowd } from '../crowd/index.js';
import { devnetChains, ensureWorld } from '../cache/index.js';
import { chainWorld, defaultManifestPath, readManifest, type Manifest } from '../manifest/index.js';
import { runLiveActivity } from '../live/index.js';
import { defaultRegistryPath, writeDevnetRegistry } from '../registry/index.js';
import { startMetadataServer } from '../metadata-server/index.js';
import { worldModules } from '../protocols/index.js';
import type { TokensManifest } from '../protocols/tokens/index.js';
import type { UniswapManifest } from '../protocols/uniswap/index.js';
import { createSolanaLedger, startSolanaRpcServer } from '../solana/index.js';
import { buildSolanaWorld } from '../solana/world.js';
import type { SolanaWorldManifest } from '../solana/world-manifest.js';

const logger = createLogger('devnet');
const dataDir = new URL('../../../.data/devnet', import.meta.url).pathname;
const packageRoot = new URL('../../', import.meta.url).pathname;
const chainPorts: Record<string, number> = { ethereum: 18545, base: 18546, sepolia: 18547 };
/** scripts/infra/solana.sh serves each Solana chain here. */
const solanaPorts: Record<string, number> = { solana: 18899, 'solana-devnet': 18900 };

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: devnet world --seed S --wallets N [--days D] [--end-date YYYY-MM-DD] [--actions-per-wallet A] [--reorgs R]\n       devnet live [--interval-ms MS] [--actions N]\n       devnet crowd --wallets N [--chain ID]\n       devnet solana --port P [--slot-ms MS] [--chain ID]\n`,
  );
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
    solana: await buildSolanaWorlds({ seed: values.seed, walletCount: built.manifest.walletCount, days: built.manifest.days, endTimestamp }),
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

async function crowd(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { wallets: { type: 'string' }, chain: { type: 'string' } } });
  const count = positiveInteger('wallets', values.wallets, 10_000);
  const manifest = await readManifest();
  const chain = chainWorld(manifest, values.chain ?? 'ethereum');
  const started = Date.now();
  const wallets = planCrowd({
    seed: manifest.seed,
    count,
    tokens: chain.protocols.tokens as TokensManifest,
    uniswap: chain.protocols.uniswap as UniswapManifest,
  });
  const blocks = await buildCrowd({
    session: await createChainSession(chain.rpcUrl),
    artifacts: await compileContracts(join(packageRoot, 'contracts'), join(dataDir, 'artifacts')),
    deployer: chain.deployer as Address,
    tokens: chain.protocols.tokens as TokensManifest,
    uniswap: chain.protocols.uniswap as UniswapManifest,
    wallets,
    nextTimestamp: (latest) => Math.max(Math.floor(Date.now() / 1000), latest + 1),
  });
  const crowdFile = join(dataDir, 'crowd.json');
  const record = {
    chain: chain.id,
    firstBlock: Number(blocks[0]!.number),
    lastBlock: Number(blocks.at(-1)!.number),
    wallets: wallets.map((wallet) => wallet.address),
  };
  await writeFile(crowdFile, `${JSON.stringify(record)}\n`);
  logger.info(
    {
      chain: chain.id,
      wallets: count,
      positions: wallets.filter((wallet) => wallet.position).length,
      blocks: blocks.length,
      ms: Date.now() - started,
      file: crowdFile,
    },
    'crowd funded',
  );
}

/** The manifest's world of Solana chain `chain`, if the loaded world has one. */
async function solanaWorldOf(chain: string): Promise<SolanaWorldManifest | undefined> {
  try {
    return (await readManifest()).solana?.find((world) => world.id === chain);
  } catch {
    return undefined;
  }
}

/**
 * The Solana chains' worlds of a devnet world: same seed, wallets and days; the testnet a quarter
 * of the wallets. Built on a throwaway ledger only for their manifest sections; `devnet solana`
 * builds the same blocks again when it starts (the builder is deterministic).
 */
async function buildSolanaWorlds(options: { seed: string; walletCount: number; days: number; endTimestamp: number }): Promise<SolanaWorldManifest[]> {
  const chains = [
    { id: 'solana', walletCount: options.walletCount },
    { id: 'solana-devnet', walletCount: Math.max(4, Math.ceil(options.walletCount / 4)) },
  ];
  const worlds: SolanaWorldManifest[] = [];
  for (const chain of chains) {
    const started = Date.now();
    worlds.push(await buildSolanaWorld(createSolanaLedger(), { ...options, ...chain, rpcUrl: `http://127.0.0.1:${solanaPorts[chain.id]}` }));
    logger.info({ chain: chain.id, wallets: chain.walletCount, ms: Date.now() - started }, 'Solana world built');
  }
  return worlds;
}

async function solana(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, 'slot-ms': { type: 'string' }, chain: { type: 'string' } } });
  if (!values.port) usage('--port is required');
  const port = positiveInteger('port', values.port, 0);
  const chain = values.chain ?? 'solana';
  const ledger = createSolanaLedger();
  const recorded = await solanaWorldOf(chain);
  if (recorded) {
    const started = Date.now();
    const built = await buildSolanaWorld(ledger, {
      seed: recorded.seed,
      walletCount: recorded.walletCount,
      endTimestamp: recorded.endTimestamp,
      days: recorded.days,
      id: chain,
      rpcUrl: recorded.rpcUrl,
    });
    const head = ledger.head();
    if (head?.blockhash !== recorded.endBlockhash) {
      logger.warn(
        { chain, expected: recorded.endBlockhash, rebuilt: head?.blockhash },
        'the rebuilt Solana world ends on another blockhash than the manifest records',
      );
    }
    logger.info(
      { chain, slot: head?.slot.toString(), blockhash: head?.blockhash, ms: Date.now() - started, transactions: built.transactions.sent },
      'Solana world rebuilt',
    );
  } else {
    logger.info({ chain }, 'no Solana world for this chain in the manifest: starting an empty chain');
  }
  const server = await startSolanaRpcServer({
    ledger,
    port,
    slotIntervalMs: positiveInteger('slot-ms', values['slot-ms'], 400),
    onError: (error) => logger.error({ err: error }, 'solana rpc error'),
  });
  logger.info({ chain, url: server.url }, 'Solana JSON-RPC listening');
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  logger.info({ chain }, 'Solana JSON-RPC stopped');
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'world') await world(rest);
  else if (command === 'live') await live(rest);
  else if (command === 'crowd') await crowd(rest);
  else if (command === 'solana') await solana(rest);
  else usage(command ? `unknown command ${command}` : 'a command is required');
} catch (error) {
  logger.error({ err: error }, `devnet ${command} failed`);
  process.exitCode = 1;
}
