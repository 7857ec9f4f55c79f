// Benchmark: GET /v1/wallets/{address}/positions/ and /portfolio for a wallet with 200 positions,
// through the gateway, the positions service, reference-data and PostgreSQL, against a bare Express
// route serving the same JSON, in the same run with autocannon. Cold: the first request for a wallet
// (no protocol snapshot yet, every token's metadata and price asked for the first time); warm: under
// load afterwards. Each endpoint gets a wallet of its own so that both first requests are cold.
// Needs the running stack of `bash scripts/start.sh`; deploys 2 x 200 tokens on its ethereum chain.
//   pnpm bench:positions [--duration 10] [--connections 50] [--url http://127.0.0.1:8080] [--tokens 200]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPrisma } from '@wallet-api/core/db';
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { backendTimeOf, benchAuthorization, measure } from './load.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    rpc: { type: 'string', default: 'http://127.0.0.1:18545' },
    tokens: { type: 'string', default: '200' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const tokenCount = Number(values.tokens);
const root = new URL('..', import.meta.url).pathname;
const barePort = 18083;
const headers = benchAuthorization(root);

const artifactsDir = join(root, '.data/devnet/artifacts');
const artifactsFile = readdirSync(artifactsDir).find((name) => name.endsWith('.json'));
if (!artifactsFile) throw new Error('no compiled devnet contracts in .data/devnet/artifacts; run scripts/start.sh first');
const erc20 = (JSON.parse(readFileSync(join(artifactsDir, artifactsFile), 'utf8')) as Record<string, { abi: Abi; bytecode: Hex }>).DevnetERC20!;

const publicClient = createPublicClient({ transport: http(values.rpc) });
const chain = defineChain({
  id: await publicClient.getChainId(),
  name: 'devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [values.rpc] } },
});
const deployer = privateKeyToAccount(generatePrivateKey());
const walletClient = createWalletClient({ account: deployer, transport: http(values.rpc), chain });
await publicClient.request({ method: 'anvil_setBalance' as never, params: [deployer.address, `0x${parseEther('1000').toString(16)}`] as never });

/** A fresh wallet holding `tokenCount` tokens, each minted to it by its constructor. */
async function walletWithTokens(label: string): Promise<Address> {
  const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Address;
  const nonce = await publicClient.getTransactionCount({ address: deployer.address, blockTag: 'pending' });
  const hashes: Hex[] = [];
  for (let index = 0; index < tokenCount; index++) {
    hashes.push(
      await walletClient.deployContract({
        abi: erc20.abi,
        bytecode: erc20.bytecode,
        args: [`Bench ${label} ${index}`, `B${label}${index}`, 18, parseEther(String(index + 1)), wallet],
        nonce: nonce + index,
      }),
    );
  }
  for (const hash of hashes) await publicClient.waitForTransactionReceipt({ hash, timeout: 300_000 });
  return wallet;
}

/** Waits until the positions service has applied every token's balance (read from its own table). */
async function waitForBalances(wallet: Address): Promise<void> {
  const prisma = createPrisma(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api');
  try {
    for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
      const held = await prisma.walletBalance.count({ where: { chainId: 'ethereum', wallet, NOT: { amount: 0 } } });
      if (held >= tokenCount) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`the positions service did not apply ${tokenCount} balances of ${wallet} within 5 minutes`);
  } finally {
    await prisma.$disconnect();
  }
}

async function timedGet(url: string): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

const children: ChildProcess[] = [];
let port = barePort;
async function benchmark(endpoint: 'positions' | 'portfolio', wallet: Address) {
  const path =
    endpoint === 'positions' ? `/v1/wallets/${wallet}/positions/?filter[positions]=no_filter` : `/v1/wallets/${wallet}/portfolio?filter[positions]=no_filter`;
  // The benchmark's API key is new and its process has not talked to the gateway yet: a request
  // that names no wallet first, so the cold figure is the wallet's, not the key's or the socket's.
  await timedGet(`${values.url}/v1/chains/`);
  const { result: cold, methods } = await backendTimeOf(() => timedGet(`${values.url}${path}`));
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-')), `${endpoint}.json`);
  writeFileSync(bodyFile, JSON.stringify(cold.body));
  const barePortForEndpoint = port++;
  const bare = fork(join(root, 'bench/bare-server.ts'), [bodyFile, String(barePortForEndpoint), path.split('?')[0]!], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  children.push(bare);
  await new Promise((resolve) => bare.once('message', resolve));
  const load = { connections, duration };
  const gateway = { title: `${endpoint}: gateway + services (warm)`, ...(await measure(`${values.url}${path}`, headers, load)) };
  const baseline = { title: `${endpoint}: bare Express`, ...(await measure(`http://127.0.0.1:${barePortForEndpoint}${path}`, {}, load)) };
  const rows = endpoint === 'positions' ? (cold.body.data as unknown[]).length : undefined;
  return { endpoint, path, rows, coldMs: cold.ms, coldMethods: methods, gateway, baseline };
}

try {
  console.log(`deploying 2 x ${tokenCount} tokens on ${values.rpc} ...`);
  const positionsWallet = await walletWithTokens('p');
  const portfolioWallet = await walletWithTokens('f');
  await Promise.all([waitForBalances(positionsWallet), waitForBalances(portfolioWallet)]);
  const results = [await benchmark('positions', positionsWallet), await benchmark('portfolio', portfolioWallet)];
  for (const result of results) {
    console.log(
      `\nGET ${result.path}${result.rows === undefined ? '' : `  (${result.rows} positions)`}; ${connections} connections, ${duration} s each, after 2 s warm-up`,
    );
    console.log(`cold (first request for the wallet): ${result.coldMs.toFixed(1)} ms; time the services behind it spent per gRPC method:`);
    console.table(result.coldMethods);
    console.table(
      [result.gateway, result.baseline].map((row) => ({
        target: row.title,
        'req/s': Math.round(row.requestsPerSecond),
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        requests: row.total,
      })),
    );
    console.log(`gateway / bare throughput ratio: ${(result.gateway.requestsPerSecond / result.baseline.requestsPerSecond).toFixed(3)}`);
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
}
