// Benchmark: time to build a devnet world from scratch (default 10,000 wallets, three chains),
// with blocks and transactions per second. The world is built in a fresh folder, never the cache.
//   pnpm bench:devnet [--wallets 10000] [--actions-per-wallet 4] [--days 450]
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@wallet-api/core/logger';
import { devnetChains, ensureWorld } from '../devnet/src/cache/index.js';
import { worldModules } from '../devnet/src/protocols/index.js';

const { values } = parseArgs({
  options: {
    wallets: { type: 'string', default: '10000' },
    'actions-per-wallet': { type: 'string', default: '4' },
    days: { type: 'string', default: '450' },
  },
});
const root = new URL('..', import.meta.url).pathname;
await mkdir(join(root, '.data/devnet/bench'), { recursive: true });
const dataDir = await mkdtemp(join(root, '.data/devnet/bench/world-'));
const started = performance.now();
try {
  const world = await ensureWorld({
    seed: 'bench',
    walletCount: Number(values.wallets),
    days: Number(values.days),
    endTimestamp: Date.parse('2026-11-01T00:00:00Z') / 1000,
    actionsPerWallet: Number(values['actions-per-wallet']),
    reorgCount: 3,
    chains: devnetChains,
    modules: worldModules,
    dataDir,
    logger: createLogger('bench-devnet', 'warn'),
  });
  const seconds = (performance.now() - started) / 1000;
  const rows = world.manifest.chains.map((chain) => ({
    chain: chain.id,
    wallets: chain.wallets.length,
    blocks: chain.endBlock,
    transactions: chain.transactions.sent,
    'failed (planned)': chain.transactions.failedAsPlanned,
    'failed (unplanned)': chain.transactions.failedUnplanned,
    reorgs: chain.reorgs.length,
  }));
  const blocks = rows.reduce((sum, row) => sum + row.blocks, 0);
  const transactions = rows.reduce((sum, row) => sum + row.transactions, 0);
  console.log(`\ndevnet world: ${values.wallets} wallets, ${values.days} days, ${values['actions-per-wallet']} actions per wallet`);
  console.table(rows);
  console.log(
    `built in ${seconds.toFixed(1)} s: ${(blocks / seconds).toFixed(1)} blocks/s, ${(transactions / seconds).toFixed(0)} tx/s (three chains built concurrently)`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
