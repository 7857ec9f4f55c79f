// Benchmark: GET /v1/wallets/{address}/nft-positions/?include=nfts,nft_collections, the first page, of
// a wallet holding 10,000 NFTs over 200 collections, through the gateway, the nft service and
// PostgreSQL, against a bare Express route serving the same bytes, in the same run with autocannon.
// Setup on the start command's ethereum anvil: a fresh wallet, funded (anvil_setBalance) and
// impersonated (anvil_impersonateAccount), deploys 200 DevnetHarborBirds collections and mints 50
// of each to itself. Prints how long that took, the wallet's first read (202s until the 200), the
// positions counted through links.next, and warm p50/p99 and req/s of both routes with their ratio.
// Target: warm p99 < 50 ms. Requests carry the Accept-Encoding of fetch and browsers (as bench:api);
// the bare route sends the same encoded bytes, as the gateway's answer cache keeps them.
// Needs the running stack of `bash scripts/start.sh` (its `devnet live` mines the blocks).
//   pnpm bench:nft-positions [--wallet 0x...] [--collections 200] [--per-collection 50] [--duration 10] [--connections 50]
//     [--url http://127.0.0.1:8080] [--chain ethereum] [--rpc <the manifest's rpcUrl>] [--accept-encoding 'gzip, deflate, br'] [--metadata-timeout 600]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeDeployData, encodeFunctionData, parseEther, toHex, type Address, type Hash, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const usage = `usage: pnpm bench:nft-positions [--wallet 0x...] [--collections 200] [--per-collection 50] [--duration 10] [--connections 50]
         [--url http://127.0.0.1:8080] [--chain ethereum] [--rpc URL] [--accept-encoding 'gzip, deflate, br'] [--metadata-timeout 600]
  --wallet             use a wallet that holds NFTs already (no setup on the chain)
  --collections        ERC-721 collections deployed by the setup (DevnetHarborBirds)
  --per-collection     NFTs minted of each collection to the wallet
  --rpc                the chain's anvil (default: its rpcUrl in .data/devnet/manifest.json)
  --metadata-timeout   seconds to wait for the nft service's metadata worker before measuring
Needs the running stack of \`bash scripts/start.sh\`.`;

const { values } = parseArgs({
  options: {
    help: { type: 'boolean', short: 'h', default: false },
    wallet: { type: 'string' },
    collections: { type: 'string', default: '200' },
    'per-collection': { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    chain: { type: 'string', default: 'ethereum' },
    rpc: { type: 'string' },
    'accept-encoding': { type: 'string', default: 'gzip, deflate, br' },
    'metadata-timeout': { type: 'string', default: '600' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const positiveInteger = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    console.error(`--${name} must be a positive integer, got ${JSON.stringify(value)}\n${usage}`);
    process.exit(2);
  }
  return parsed;
};
const collectionCount = positiveInteger('collections', values.collections);
const perCollection = positiveInteger('per-collection', values['per-collection']);
const duration = positiveInteger('duration', values.duration);
const connections = positiveInteger('connections', values.connections);
const metadataTimeoutMs = positiveInteger('metadata-timeout', values['metadata-timeout']) * 1000;
if (values.wallet !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(values.wallet)) {
  console.error(`--wallet must be an EVM address, got ${JSON.stringify(values.wallet)}\n${usage}`);
  process.exit(2);
}
const chainId = values.chain;
const acceptEncoding = values['accept-encoding'];

// Imported after the arguments are read, so `--help` needs neither the built services nor the stack.
const { compileContracts } = await import('../devnet/src/compile/index.js');
const { createDevnetClient } = await import('../devnet/src/chain/index.js');
const { readManifest } = await import('../devnet/src/manifest/index.js');
const { createPrisma } = await import('@wallet-api/core/db');
const { answerCacheDuring, benchAuthorization, measure } = await import('./load.js');

const root = new URL('..', import.meta.url).pathname;
const barePort = 18087;
/** The route template the gateway counts its answer cache under. */
const route = '/v1/wallets/{address}/nft-positions/';
/** The nft endpoints' default page size. */
const defaultPageSize = 50;
/**
 * Gas limits in flight at once. The live devnet mines one block a second with its own transactions,
 * and fails if one of them is left out of the block: the bench's transactions wait in waves well
 * under the chain's block gas limit (1,000,000,000), so a block always has room for the live ones.
 */
const waveGas = 250_000_000n;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const manifest = await readManifest();
const manifestChain = manifest.chains.find((chain) => chain.id === chainId);
if (!manifestChain) throw new Error(`the devnet manifest has no chain ${chainId}`);
const rpcUrl = values.rpc ?? manifestChain.rpcUrl;
const prisma = createPrisma(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api');
const headers = benchAuthorization(root);
const loadHeaders = { ...headers, 'accept-encoding': acceptEncoding };

/** The gateway's URL for a link it handed out (its `links` are absolute, under its own base URL). */
const onGateway = (link: string) => {
  const url = new URL(link);
  return `${values.url}${url.pathname}${url.search}`;
};

/**
 * A fresh wallet holding `perCollection` NFTs of each of `collectionCount` new ERC-721 collections:
 * it deploys them and mints to itself, impersonated, with plain eth_sendTransaction. Answers the
 * wallet and the newest block of its transactions.
 */
async function walletWithNfts(): Promise<{ wallet: Address; lastBlock: bigint }> {
  const client = createDevnetClient(rpcUrl);
  // The devnet's own artifact cache: the world build compiled its contracts there already.
  const artifacts = await compileContracts(join(root, 'devnet/contracts'), join(root, '.data/devnet/artifacts'));
  const birds = artifacts.DevnetHarborBirds;
  if (!birds) throw new Error('the devnet contracts have no DevnetHarborBirds');
  const nfts = (manifestChain!.protocols.nfts ?? {}) as { metadataBaseUrl?: string };
  // The devnet's metadata server (`devnet live`) answers every token id of its hosted collections.
  const baseUri = `${nfts.metadataBaseUrl ?? 'http://127.0.0.1:18600/'}harbor-birds/`;
  const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Address;
  await client.setBalance({ address: wallet, value: parseEther('10000') });
  await client.impersonateAccount({ address: wallet });
  let lastBlock = 0n;
  try {
    let nonce = await client.getTransactionCount({ address: wallet, blockTag: 'pending' });

    /** Sends the transactions in waves under `waveGas`, each wave at once, and waits for every receipt. */
    async function sendAll(label: string, transactions: { to?: Address; data: Hex; gas: bigint }[]) {
      const receipts = [];
      const started = performance.now();
      for (let first = 0; first < transactions.length; ) {
        let gas = 0n;
        let end = first;
        while (end < transactions.length && (end === first || gas + transactions[end]!.gas <= waveGas)) gas += transactions[end++]!.gas;
        const wave = transactions.slice(first, end);
        const firstNonce = nonce;
        nonce += wave.length;
        const hashes = await Promise.all(
          wave.map(
            (transaction, index) =>
              client.request({
                method: 'eth_sendTransaction',
                params: [
                  {
                    from: wallet,
                    ...(transaction.to ? { to: transaction.to } : {}),
                    data: transaction.data,
                    gas: toHex(transaction.gas),
                    nonce: toHex(firstNonce + index),
                  },
                ],
              } as never) as Promise<Hash>,
          ),
        );
        await waitForNonce(nonce, label);
        for (const receipt of await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))) {
          if (receipt.status !== 'success') throw new Error(`${label}: transaction ${receipt.transactionHash} reverted`);
          if (receipt.blockNumber > lastBlock) lastBlock = receipt.blockNumber;
          receipts.push(receipt);
        }
        first = end;
        process.stdout.write(`\r  ${label}: ${receipts.length}/${transactions.length} mined (${seconds(performance.now() - started)})`);
      }
      process.stdout.write('\n');
      return receipts;
    }

    /** Waits until the wallet's transactions up to `next` - 1 are mined (anvil may be mining on an interval). */
    async function waitForNonce(next: number, label: string): Promise<void> {
      let mined = -1;
      let progressAt = Date.now();
      for (;;) {
        const count = await client.getTransactionCount({ address: wallet, blockTag: 'latest' });
        if (count >= next) return;
        if (count !== mined) [mined, progressAt] = [count, Date.now()];
        if (Date.now() - progressAt > 120_000) {
          throw new Error(
            `${label}: no transaction of ${wallet} mined for 2 minutes (${count} of ${next}); is anything mining ${rpcUrl} (the start command's devnet live)?`,
          );
        }
        await sleep(200);
      }
    }

    const deployData = encodeDeployData({ abi: birds.abi, bytecode: birds.bytecode, args: [baseUri] });
    const deployGas = ((await client.estimateGas({ account: wallet, data: deployData })) * 5n) / 4n;
    const deployed = await sendAll(
      `deploying ${collectionCount} collections`,
      Array.from({ length: collectionCount }, () => ({ data: deployData, gas: deployGas })),
    );
    const collections = deployed.map((receipt) => receipt.contractAddress!);

    const maxPerMint = Number(await client.readContract({ address: collections[0]!, abi: birds.abi, functionName: 'MAX_PER_MINT' }));
    const mintData = (quantity: number) => encodeFunctionData({ abi: birds.abi, functionName: 'mint', args: [BigInt(quantity)] });
    const mintGas = ((await client.estimateGas({ account: wallet, to: collections[0]!, data: mintData(maxPerMint) })) * 5n) / 4n;
    // `mint` takes at most MAX_PER_MINT (3) a call: 17 calls for 50.
    const quantities: number[] = [];
    for (let left = perCollection; left > 0; left -= maxPerMint) quantities.push(Math.min(left, maxPerMint));
    const mints = quantities.flatMap((quantity) => collections.map((to) => ({ to, data: mintData(quantity), gas: mintGas })));
    await sendAll(`minting ${perCollection} of each (${mints.length} mints of up to ${maxPerMint})`, mints);
  } finally {
    await client.stopImpersonatingAccount({ address: wallet }).catch(() => undefined);
  }
  return { wallet, lastBlock };
}

/** Waits until the nft service has the block (its wallet reads are made at the newest block it has). */
async function waitForBlock(block: bigint): Promise<number> {
  const started = performance.now();
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    const state = await prisma.nftBlockState.findFirst({ where: { chainId, orphaned: false, blockNumber: { gte: block } }, select: { blockNumber: true } });
    if (state) return performance.now() - started;
    await sleep(250);
  }
  throw new Error(`the nft service did not receive block ${block} of ${chainId} within 5 minutes; is the indexer running?`);
}

async function get(url: string, extra: Record<string, string> = {}): Promise<{ status: number; text: string; contentType: string | null; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { ...headers, ...extra } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200 && response.status !== 202) throw new Error(`${url}: ${response.status} ${text.slice(0, 500)}`);
  return { status: response.status, text, contentType: response.headers.get('content-type'), ms };
}

/** The wallet's first read: asks until the gateway answers 200 instead of 202. */
async function firstRead(url: string): Promise<{ ms: number; accepted: number; firstMs: number }> {
  const started = performance.now();
  let accepted = 0;
  let firstMs = 0;
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    const answer = await get(url);
    if (accepted === 0 && firstMs === 0) firstMs = answer.ms;
    if (answer.status === 200) return { ms: performance.now() - started, accepted, firstMs };
    accepted += 1;
    await sleep(100);
  }
  throw new Error(`${url} still answered 202 after 10 minutes (${accepted} times)`);
}

/** Every position of the wallet, pages of 500 through links.next. */
async function countPositions(wallet: string): Promise<{ positions: number; collections: number; pages: number; ms: number }> {
  const started = performance.now();
  const contracts = new Set<string>();
  let positions = 0;
  let pages = 0;
  let next: string | undefined = `${values.url}/v1/wallets/${wallet}/nft-positions/?page[size]=500`;
  while (next) {
    const answer = await get(next);
    if (answer.status !== 200) throw new Error(`${next}: ${answer.status} while counting`);
    const page = JSON.parse(answer.text) as { data: { attributes: { nft_info: { contract_address: string } } }[]; links: { next?: string } };
    positions += page.data.length;
    for (const position of page.data) contracts.add(position.attributes.nft_info.contract_address);
    pages += 1;
    next = page.links.next ? onGateway(page.links.next) : undefined;
  }
  return { positions, collections: contracts.size, pages, ms: performance.now() - started };
}

/** NFTs of the wallet whose metadata the nft service's worker has not fetched yet (each fetch recomputes the wallet's answers). */
async function pendingMetadata(wallet: string): Promise<{ pending: number; tokens: number }> {
  const [row] = await prisma.$queryRaw<{ pending: number; tokens: number }[]>`
    SELECT count(*) FILTER (WHERE t.metadata_state = 'pending')::int AS pending, count(*)::int AS tokens
    FROM nft_tokens t
    WHERE (t.chain_id, t.contract, t.token_id) IN (
      SELECT chain_id, contract, token_id FROM nft_opening_holdings WHERE wallet = ${wallet} AND chain_id = ${chainId}
      UNION SELECT chain_id, contract, token_id FROM nft_transfer_entries WHERE wallet = ${wallet} AND chain_id = ${chainId}
    )`;
  return row ?? { pending: 0, tokens: 0 };
}

async function waitForMetadata(wallet: string): Promise<void> {
  const started = performance.now();
  let shownAt = 0;
  for (;;) {
    const { pending, tokens } = await pendingMetadata(wallet);
    const elapsed = performance.now() - started;
    if (pending === 0) {
      console.log(`metadata of the wallet's ${tokens} NFTs fetched by the nft service's worker: ${seconds(elapsed)} after the first 200`);
      return;
    }
    if (elapsed > metadataTimeoutMs) {
      console.log(
        `metadata: ${pending} of ${tokens} NFTs still pending after ${seconds(elapsed)}; measuring anyway (their fetches recompute the answer: see "recomputed")`,
      );
      return;
    }
    if (elapsed - shownAt >= 10_000) {
      shownAt = elapsed;
      console.log(`  metadata: ${tokens - pending} of ${tokens} NFTs fetched (${seconds(elapsed)})`);
    }
    await sleep(1_000);
  }
}

const children: ChildProcess[] = [];
try {
  let wallet: string;
  let expected: number | undefined;
  if (values.wallet) {
    wallet = values.wallet.toLowerCase();
    console.log(`wallet ${wallet} (given: no setup)`);
  } else {
    console.log(`setting up a wallet with ${collectionCount} x ${perCollection} NFTs on ${chainId} (${rpcUrl}) ...`);
    const started = performance.now();
    const setup = await walletWithNfts();
    wallet = setup.wallet;
    expected = collectionCount * perCollection;
    console.log(
      `wallet ${wallet}: ${collectionCount} collections, ${expected} NFTs, mined by block ${setup.lastBlock}; setup took ${seconds(performance.now() - started)}`,
    );
    const waited = await waitForBlock(setup.lastBlock);
    console.log(`the nft service had block ${setup.lastBlock} ${seconds(waited)} later`);
  }

  const path = `/v1/wallets/${wallet}/nft-positions/?include=nfts,nft_collections`;
  // The benchmark's API key is new: a request naming no wallet first, so the first read's figure is the wallet's.
  await get(`${values.url}/v1/chains/`);
  const read = await firstRead(`${values.url}${path}`);
  console.log(
    `first read: 200 after ${read.ms.toFixed(0)} ms from the first request (${read.accepted} answers 202 before it; the first one took ${read.firstMs.toFixed(0)} ms)`,
  );

  const first = JSON.parse((await get(`${values.url}${path}`)).text) as { data: unknown[]; links: { next?: string }; included?: { type: string }[] };
  const byType = new Map<string, number>();
  for (const resource of first.included ?? []) byType.set(resource.type, (byType.get(resource.type) ?? 0) + 1);
  const included = [...byType].map(([type, count]) => `${count} ${type}`);
  console.log(
    `first page: ${first.data.length} positions (default page size ${defaultPageSize}: ${first.data.length === defaultPageSize ? 'yes' : 'no'}), links.next ${first.links.next ? 'present' : 'absent'}, included ${included.join(', ') || 'nothing'}`,
  );
  let counted = await countPositions(wallet);
  // The read was made at the newest block the nft service had; NFTs of later blocks arrive as balance changes.
  for (const deadline = Date.now() + 60_000; expected !== undefined && counted.positions < expected && Date.now() < deadline; ) {
    await sleep(2_000);
    counted = await countPositions(wallet);
  }
  console.log(
    `all positions through links.next (page[size]=500): ${counted.positions} over ${counted.collections} collections in ${counted.pages} pages, ${counted.ms.toFixed(0)} ms${expected === undefined ? '' : ` (expected ${expected}: ${counted.positions === expected ? 'yes' : 'no'})`}`,
  );
  await waitForMetadata(wallet);

  // Warm: one request first, then the bare route serves exactly its bytes, encoded as the gateway's answer cache keeps them.
  const warm = await get(`${values.url}${path}`, { 'accept-encoding': 'identity' });
  if (warm.status !== 200) throw new Error(`${path}: ${warm.status} after the first read`);
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-')), 'nft-positions.json');
  writeFileSync(bodyFile, warm.text);
  const bare = fork(join(root, 'bench/bare-server.ts'), [bodyFile, String(barePort), path.split('?')[0]!, 'encoded'], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  children.push(bare);
  await new Promise((resolve) => bare.once('message', resolve));
  const load = { connections, duration };
  const {
    result: gateway,
    recomputed,
    meanComputeMs,
    waitedPercent,
  } = await answerCacheDuring(route, () => measure(`${values.url}${path}`, loadHeaders, load));
  const baseline = await measure(`http://127.0.0.1:${barePort}${path}`, { 'accept-encoding': acceptEncoding }, load);
  bare.kill('SIGTERM');
  const ratio = gateway.requestsPerSecond / baseline.requestsPerSecond;

  console.log(
    `\nGET ${path}: ${Math.round(Buffer.byteLength(warm.text) / 1024)} KB of JSON; ${connections} connections, ${duration} s each after a 2 s warm-up; Accept-Encoding: ${acceptEncoding}`,
  );
  console.table(
    [
      { target: 'gateway + nft service (warm)', ...gateway },
      { target: 'bare Express, same bytes', ...baseline },
    ].map((row) => ({
      target: row.target,
      'req/s': Math.round(row.requestsPerSecond),
      'p50 ms': row.p50,
      'p99 ms': row.p99,
      requests: row.total,
      'KB sent': Number((row.bytesPerAnswer / 1024).toFixed(1)),
    })),
  );
  console.log(`gateway / bare throughput ratio: ${ratio.toFixed(3)}`);
  console.log(
    `answer cache during the gateway run: recomputed ${recomputed} times (mean ${meanComputeMs} ms), ${waitedPercent}% of requests waited for a computation`,
  );
  console.log(`target warm p99 < 50 ms: ${gateway.p99 < 50 ? 'met' : 'not met'} (${gateway.p99} ms)`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await prisma.$disconnect();
}
