import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '@wallet-api/core/testing';
import { createPublicClient, http, type PublicClient } from 'viem';
import { anvilBinary } from '../../../devnet/src/chain/index.js';

/**
 * An anvil process of one test, on a free port, answering before this resolves. Tests that write
 * to a chain write here: the shared test-world chains are only read, since other suites index
 * them to their head and expect exactly the world's transactions.
 */
export interface OwnAnvil {
  rpcUrl: string;
  client: PublicClient;
  stop(): Promise<void>;
}

/** Starts anvil with `args` (host, port and `--silent` are added) and waits until it answers. */
export async function startOwnAnvil(args: readonly string[]): Promise<OwnAnvil> {
  const port = await freePort();
  const child: ChildProcess = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--silent', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 }) as PublicClient;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited at start: ${stderr.trim()}`);
    try {
      await client.getChainId();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`anvil did not answer on ${rpcUrl}: ${stderr.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    rpcUrl,
    client,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * A fork of the chain at `forkUrl`, taken at its head: the same contracts, pools and balances, with
 * the fork's own blocks for what the test sends (anvil mines each transaction as it arrives).
 */
export async function startForkAnvil(forkUrl: string): Promise<OwnAnvil> {
  return startOwnAnvil(['--fork-url', forkUrl]);
}
