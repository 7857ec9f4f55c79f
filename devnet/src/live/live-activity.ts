import type { Address } from 'viem';
import type { Logger } from '@wallet-api/core/logger';
import { createChainSession } from '../chain/index.js';
import type { Manifest } from '../manifest/index.js';
import { createRng } from '../world/index.js';
import type { ActionContext, ProtocolModule } from '../world/index.js';

export interface LiveOptions {
  manifest: Manifest;
  // biome-ignore lint/suspicious/noExplicitAny: modules differ in their manifest type; each is used only with its own
  modules: readonly ProtocolModule<any>[];
  /** One block per chain every this many milliseconds. */
  blockIntervalMs: number;
  /** Wallet actions per block (each may send several transactions). */
  actionsPerBlock: number;
  signal: AbortSignal;
  logger: Logger;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Keeps a loaded world alive: on every chain, one block per interval at the wall-clock time, with
 * wallets of the world acting as they did while it was built. Runs until `signal` aborts.
 */
export async function runLiveActivity(options: LiveOptions): Promise<void> {
  await Promise.all(
    options.manifest.chains.map(async (chain) => {
      const session = await createChainSession(chain.rpcUrl);
      const rng = createRng(`${options.manifest.seed}/live/${chain.id}`);
      const wallets = chain.wallets.filter((wallet) => wallet.kind === 'eoa').map((wallet) => wallet.address as Address);
      const actions = options.modules.flatMap((module) => module.actions(chain.protocols[module.name]));
      let last = await session.latestTimestamp();
      let blocks = 0;
      while (!options.signal.aborted) {
        await sleep(options.blockIntervalMs, options.signal);
        if (options.signal.aborted) break;
        const timestamp = Math.max(Math.floor(Date.now() / 1000), last + 1);
        const context: ActionContext = { session, rng, timestamp, wallets, deployer: chain.deployer as Address, deployed: chain.protocols };
        // A block is the market's when arbitrage is due, else the wallets': as while the world was
        // built, wallets trade against settled prices.
        let marketTrades = 0;
        for (const module of options.modules) {
          try {
            marketTrades += (await module.market?.(context, chain.protocols[module.name]))?.length ?? 0;
          } catch (error) {
            options.logger.warn({ err: error, chain: chain.id, module: module.name }, 'market trades could not be sent');
          }
        }
        for (const wallet of rng.shuffle(wallets).slice(0, marketTrades > 0 ? 0 : options.actionsPerBlock)) {
          const action = rng.weighted(actions.map((spec) => ({ weight: spec.weight, value: spec })));
          try {
            await action.run(context, wallet);
          } catch (error) {
            options.logger.warn({ err: error, chain: chain.id, action: action.kind }, 'live action could not be sent');
          }
        }
        const block = await session.mine(timestamp);
        last = block.timestamp;
        if (++blocks % 60 === 0) options.logger.info({ chain: chain.id, block: Number(block.number) }, 'live activity');
      }
    }),
  );
}
