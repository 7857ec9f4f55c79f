import { createGrpcClient, unary } from '@wallet-api/core/grpc';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { createPublicClient, http, type Address } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { readWalletTruth } from '../../../devnet/src/truth/index.js';
import { protocolHoldings } from './chain-truth.js';
import { startPositionsHarness, type PositionsHarness } from './setup-positions.js';

// GetProtocolPositionsAt through gRPC on the shared test world: the positions at past blocks as
// the chain had them, and every request it refuses with the status and reason a caller acts on.

let harness: PositionsHarness;
let client: PositionsClient;
let world: ChainWorld;

beforeAll(async () => {
  world = (await readManifest()).chains.find((chain) => chain.id === 'ethereum')!;
  harness = await startPositionsHarness();
  const service = await harness.startService();
  client = createGrpcClient(PositionsClient, service.address);
}, 120_000);

afterAll(async () => {
  client?.close();
  await harness?.close();
});

const ask = (request: { address: string; chainId: string; blockNumbers: string[] }) =>
  unary(client, client.getProtocolPositionsAt, request, { deadlineMs: 60_000 });

test('answers each distinct block once, ascending, with what the truth readers find there', async () => {
  const chain = createPublicClient({ transport: http(world.rpcUrl), cacheTime: 0 });
  let found = 0;
  for (const { address } of world.wallets.filter((wallet) => wallet.address !== world.deployer).slice(0, 12)) {
    const wallet = address.toLowerCase() as Address;
    const blocks = [world.endBlock, world.activityStartBlock + 40, world.endBlock].map(String);
    const { blocks: answered } = await ask({ address: wallet, chainId: 'ethereum', blockNumbers: blocks });
    expect(answered.map((entry) => entry.blockNumber)).toEqual([String(world.activityStartBlock + 40), String(world.endBlock)]);
    for (const { blockNumber, positions } of answered) {
      const truth = protocolHoldings(await readWalletTruth(chain, world, wallet, BigInt(blockNumber)), world).filter((holding) => holding.amount > 0n);
      const served = positions.filter((position) => position.amount !== '0');
      expect(served.map((position) => `${position.positionType}:${position.token}:${position.amount}:${position.poolAddress}`).sort()).toEqual(
        truth.map((holding) => `${holding.type}:${holding.token}:${holding.amount}:${holding.pool}`).sort(),
      );
      found += served.length;
    }
  }
  expect(found).toBeGreaterThan(0);
}, 120_000);

test('a chain without protocol positions has none at any block', async () => {
  const { blocks } = await ask({ address: world.wallets[1]!.address.toLowerCase(), chainId: 'solana', blockNumbers: ['7', '3'] });
  expect(blocks).toEqual([
    { blockNumber: '3', positions: [] },
    { blockNumber: '7', positions: [] },
  ]);
});

test.each([
  [
    'a Solana address',
    { address: 'So11111111111111111111111111111111111111112', chainId: 'ethereum', blockNumbers: ['1'] },
    3,
    'address must be an EVM address (protocol positions are EVM-only)',
  ],
  [
    'more blocks than a chart has points',
    { address: '0x00000000000000000000000000000000000000aa', chainId: 'ethereum', blockNumbers: Array.from({ length: 501 }, (_, index) => String(index)) },
    3,
    'at most 500 blocks per request (got 501)',
  ],
  [
    'a block the node does not have',
    { address: '0x00000000000000000000000000000000000000aa', chainId: 'ethereum', blockNumbers: ['999999999'] },
    14,
    'protocol positions on ethereum at past blocks cannot be read right now; retry later',
  ],
])('%s: refused with its reason', async (_name, request, code, details) => {
  await expect(ask(request)).rejects.toMatchObject({ code, details });
});
