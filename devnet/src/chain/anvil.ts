import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

const require = createRequire(import.meta.url);

/** The anvil binary shipped in the npm package (started directly: killing `npx anvil` orphans it). */
export function anvilBinary(): string {
  const wrapper = dirname(require.resolve('@foundry-rs/anvil/package.json'));
  const platform = createRequire(join(wrapper, 'package.json')).resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return join(dirname(platform), 'bin', 'anvil');
}

export interface AnvilOptions {
  chainId: number;
  port?: number;
  /** Folder for anvil's on-disk history; always inside the project's data folder. */
  cachePath: string;
  loadState?: string;
  dumpState?: string;
  /** Unix seconds of the genesis block, so a world built from one seed is the same every time. */
  genesisTimestamp?: number;
  /** How long anvil may take to answer; loading a large world's state takes minutes. Default 30 s. */
  readyTimeoutMs?: number;
}

export interface AnvilInstance {
  rpcUrl: string;
  port: number;
  /** Stops anvil (SIGINT, which makes it write `dumpState`), resolving when it has exited. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Gas limit high enough that a block never leaves a queued transaction behind. */
export const devnetBlockGasLimit = 1_000_000_000n;

export async function startAnvil(options: AnvilOptions): Promise<AnvilInstance> {
  const port = options.port ?? (await freePort());
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(options.chainId),
    '--cache-path',
    options.cachePath,
    '--gas-limit',
    String(devnetBlockGasLimit),
    '--accounts',
    '0',
    '--silent',
  ];
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp));
  if (options.loadState) args.push('--load-state', options.loadState);
  if (options.dumpState) args.push('--dump-state', options.dumpState, '--preserve-historical-states');
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited at start: ${stderr.trim()}`);
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} within ${readyTimeoutMs / 1000} s: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    rpcUrl,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
