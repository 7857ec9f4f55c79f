import { createPublicClient, http, type PublicClient } from 'viem';
import { testLogger } from '@wallet-api/core/testing';
import { eventually } from '@wallet-api/core/testing';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createGasTrackers } from '../../reference-data/src/gas/gas-trackers.js';
import type { GasTracker } from '../../reference-data/src/gas/gas-tracker.js';
import { gasService } from '../../reference-data/src/grpc/gas-service.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { startGasAnvil, type GasAnvil } from '../../reference-data/test/gas-anvil.js';
import { expectedClassic, expectedEip1559 } from '../../reference-data/test/gas-truth.js';
import { publicUrl, startReferenceGateway, type ReferenceGateway } from './setup-reference-gateway.js';

// Response bodies are checked field by field below, so they are read untyped.
const json = (response: Response): Promise<any> => response.json();

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url).pathname;
const gwei = 1_000_000_000n;

/** The wei values of a served eip1559 `info`, as the chain truth gives them. */
function servedEip1559(info: any) {
  const speed = (name: string) => ({ priorityFee: BigInt(info[name].priority_fee), maxFee: BigInt(info[name].max_fee) });
  return { baseFee: BigInt(info.base_fee), slow: speed('slow'), standard: speed('standard'), fast: speed('fast'), rapid: speed('rapid') };
}

const servedClassic = (info: any) => ({ slow: BigInt(info.slow), standard: BigInt(info.standard), fast: BigInt(info.fast), rapid: BigInt(info.rapid) });

// The shipped chains, `base` pointed at a pre-London anvil of the test's own (classic prices, and
// blocks the test may mine); `ethereum` and `sepolia` are the shared devnet chains, only read.
describe('GET /v1/gas-prices/ end to end through gRPC', () => {
  let berlin: GasAnvil;
  let trackers: Map<string, GasTracker>;
  let gateway: ReferenceGateway;
  const clients = new Map<string, PublicClient>();

  beforeAll(async () => {
    berlin = await startGasAnvil({ hardfork: 'berlin' });
    await berlin.mineBlockWith([{ gasPrice: 3n * gwei }, { gasPrice: 4n * gwei }, { gasPrice: 9n * gwei }]);
    const chains = await loadChainsConfig(chainsFile, { CHAIN_RPC_URL_BASE: berlin.rpcUrl });
    for (const chain of chains) if (chain.family === 'evm') clients.set(chain.id, createPublicClient({ transport: http(chain.rpc.url) }));
    trackers = createGasTrackers(chains, { intervalMs: 100, logger: testLogger });
    for (const tracker of trackers.values()) tracker.start();
    const registry = createChainRegistry(chains);
    gateway = await startReferenceGateway([referenceDataService(registry), gasService(registry, trackers)]);
    // Each tracker's first snapshot.
    await eventually(() => {
      for (const tracker of trackers.values()) if (!tracker.snapshot()) throw new Error(`no snapshot of ${tracker.chainId} yet`);
    });
  }, 60_000);

  afterAll(async () => {
    await gateway.stop();
    await Promise.all([...trackers.values()].map((tracker) => tracker.stop()));
    await berlin.stop();
  });

  async function list(query = '', headers: Record<string, string> = {}): Promise<any> {
    const response = await gateway.get(`/v1/gas-prices/${query}`, headers);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.links).toEqual({ self: `${publicUrl}/v1/gas-prices/${query}` });
    return body;
  }

  /** Checks a served resource against the chain's own reads at the block the resource names. */
  async function expectChainTruth(resource: any): Promise<void> {
    const chainId = resource.relationships.chain.data.id;
    const block = BigInt(resource.meta.block_number);
    expect(resource.relationships.chain).toEqual({ links: { related: `${publicUrl}/v1/chains/${chainId}` }, data: { type: 'chains', id: chainId } });
    expect(resource.id).toBe(`${chainId}-${resource.attributes.gas_type}`);
    expect(Date.parse(resource.attributes.updated_at)).toBeGreaterThan(Date.now() - 600_000);
    const client = clients.get(chainId)!;
    if (resource.attributes.gas_type === 'eip1559') {
      expect(servedEip1559(resource.attributes.info)).toEqual(await expectedEip1559(client, block));
      expect(resource.attributes.info.rapid.estimation_seconds).toBeGreaterThan(0);
    } else {
      expect(resource.attributes.gas_type).toBe('classic');
      expect(servedClassic(resource.attributes.info)).toEqual(await expectedClassic(client, block));
    }
  }

  test('every EVM chain of mainnet, one entry each of its gas type, equal to the chain at the block served; no Solana', async () => {
    const body = await list();
    expect(body.data.map((resource: any) => resource.id).sort()).toEqual(['base-classic', 'ethereum-eip1559']);
    for (const resource of body.data) {
      expect(resource.type).toBe('gas-prices');
      await expectChainTruth(resource);
    }
    const classic = body.data.find((resource: any) => resource.id === 'base-classic');
    expect(servedClassic(classic.attributes.info).rapid).toBe(9n * gwei);
  });

  test('a block mined on the own chain moves its served prices to that block', async () => {
    const before = (await list('?filter[chain_ids]=base')).data[0];
    const mined = await berlin.mineBlockWith([{ gasPrice: 30n * gwei }, { gasPrice: 40n * gwei }, { gasPrice: 50n * gwei }, { gasPrice: 60n * gwei }]);
    const after = await eventually(async () => {
      const resource = (await list('?filter[chain_ids]=base')).data[0];
      expect(BigInt(resource.meta.block_number)).toBe(mined);
      return resource;
    }, 10_000);
    expect(after.meta.block_number).toBe(before.meta.block_number + 1);
    await expectChainTruth(after);
    expect(servedClassic(after.attributes.info).rapid).toBe(60n * gwei);
  });

  test('filters by chain and gas type', async () => {
    expect((await list('?filter[chain_ids]=ethereum')).data.map((resource: any) => resource.id)).toEqual(['ethereum-eip1559']);
    expect((await list('?filter[gas_types]=classic')).data.map((resource: any) => resource.id)).toEqual(['base-classic']);
    expect((await list('?filter[gas_types]=eip1559,classic&filter[chain_ids]=ethereum')).data.map((resource: any) => resource.id)).toEqual([
      'ethereum-eip1559',
    ]);
    // No configured chain has the OP-stack GasPriceOracle: optimistic is a known type with nothing to serve.
    expect((await list('?filter[gas_types]=optimistic')).data).toEqual([]);
  });

  test('X-Env: testnet serves the testnet chains', async () => {
    const body = await list('', { 'X-Env': 'testnet' });
    expect(body.data.map((resource: any) => resource.id)).toEqual(['sepolia-eip1559']);
    await expectChainTruth(body.data[0]);
  });

  test.each([
    ['?filter[chain_ids]=solana', {}, 'parameter filter[chain_ids]: chain solana has no gas prices'],
    ['?filter[chain_ids]=ethereum,nowhere', {}, 'parameter filter[chain_ids]: chain nowhere is not supported'],
    ['?filter[chain_ids]=ethereum', { 'X-Env': 'testnet' }, 'parameter filter[chain_ids]: chain ethereum is not supported'],
    ['?filter[chain_ids]=ethereum,,base', {}, 'parameter filter[chain_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    ['?filter[gas_types]=legacy', {}, 'parameter filter[gas_types]: each value must be one of classic, eip1559, optimistic (got "legacy")'],
    ['', { 'X-Env': 'mainnet' }, 'header X-Env: must be "testnet" when present'],
  ])('%s %j is a 400 naming the parameter', async (query, headers, detail) => {
    const response = await gateway.get(`/v1/gas-prices/${query}`, headers);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ errors: [{ title: 'Parameter is malformed', detail }] });
  });
});
