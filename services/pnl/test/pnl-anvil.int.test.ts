import { createGrpcClient, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { eventually, setupChangeVersions, setupClickHouse, testLogger, uniqueName } from '@wallet-api/core/testing';
import { encodeFunctionData, erc20Abi, parseEther, parseUnits, type Address, type Hash } from 'viem';
import { compileContracts, type Artifacts } from '../../../devnet/src/compile/index.js';
import { createTransactionWriter, type TransactionWriter } from '../../indexer/src/consume/transaction-writer.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { setupIndexing, startOwnChain, type IndexingHarness, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { token } from '../../indexer/test/wallet-history-fixtures.js';
import type { PnlRequest, PnlResult, WalletPnl } from '../src/compute/wallet-pnl.js';
import { walletPnlOver } from './setup-history.js';

// The hand-made wallet on an anvil of the test's own, through the real chain indexer,
// Kafka, the transaction writer, ClickHouse and ListWalletHistory, with a reference-data of fixed
// prices: it buys 1 GOV for 100 USDC and 1 for 200 from a desk that trades at any price named,
// sends 1 GOV to itself, and sells 1 for 300; it buys 100 TAX (a fee-on-transfer token: 99
// arrive) and sends 50 away. Gas is real: each trade's cost carries its fee at 2,000 USD per ETH,
// read from the receipts. A reorg then takes the sale away.

// The devnet's own artifact cache: the world build has compiled its contracts there already.
const artifactsDir = new URL('../../../.data/devnet/artifacts', import.meta.url).pathname;
const clickhouse = setupClickHouse();
const changes = setupChangeVersions();
const chainId = uniqueName('pnl-anvil');
const deployer = '0x00000000000000000000000000000000000d0000' as Address;
const wallet = '0x0000000000000000000000000000000000077a11' as Address;
const friend = '0x000000000000000000000000000000000000f00d' as Address;
const ethPrice = 2_000;
const govNow = 250;
const taxPrice = 0.5;

let chain: OwnChain;
let indexing: IndexingHarness;
let referenceData: RunningReferenceData;
let writer: TransactionWriter;
let indexerServer: GrpcServer;
let indexer: IndexerClient;
let pnl: WalletPnl;
let artifacts: Artifacts;
let time = 1_700_000_000;
const tokens = { usdc: '' as Address, gov: '' as Address, tax: '' as Address, desk: '' as Address };
/** USD value of each fee the wallet paid, by transaction hash. */
const fees = new Map<Hash, number>();

async function send(from: Address, to: Address, data: `0x${string}`): Promise<Hash> {
  const receipt = await chain.session.sendAndMine({ from, to, data }, (time += 60));
  if (from === wallet) fees.set(receipt.transactionHash, (Number(receipt.gasUsed * receipt.effectiveGasPrice) / 1e18) * ethPrice);
  return receipt.transactionHash;
}
const transfer = (tokenAddress: Address, from: Address, to: Address, amount: bigint) =>
  send(from, tokenAddress, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }));
const swapAbi = [
  {
    type: 'function',
    name: 'swap',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'address' }, { type: 'uint256' }, { type: 'address' }, { type: 'uint256' }],
    outputs: [],
  },
] as const;
const swap = (given: Address, givenAmount: bigint, got: Address, gotAmount: bigint) =>
  send(wallet, tokens.desk, encodeFunctionData({ abi: swapAbi, functionName: 'swap', args: [given, givenAmount, got, gotAmount] }));

const request = (fields: Partial<PnlRequest> = {}): PnlRequest => ({
  context: { organizationId: '', roles: [], addons: [], network: 0 },
  addresses: [wallet.toLowerCase()],
  chainIds: [chainId],
  currency: 'usd',
  fungibleIds: ['gov', 'usdc', 'tax', 'eth'],
  fungibleImplementations: [],
  ...fields,
});
const feesPaid = () => [...fees.values()].reduce((sum, fee) => sum + fee, 0);
/** The PnL once the service has indexed every transaction the wallet paid a fee for (and no other). */
const indexedPnl = (): Promise<PnlResult> =>
  eventually(async () => {
    const result = await pnl.compute(request());
    expect(result.figures.totalFee).toBeCloseTo(feesPaid(), 9);
    return result;
  }, 60_000);

beforeAll(async () => {
  artifacts = {
    ...(await compileContracts(new URL('../../../devnet/contracts/', import.meta.url).pathname, artifactsDir)),
    ...(await compileContracts(new URL('./contracts/', import.meta.url).pathname, artifactsDir)),
  };
  chain = await startOwnChain({ genesisTimestamp: time });
  for (const account of [deployer, wallet]) await chain.session.setBalance(account, parseEther('100'));
  const deploy = (name: string, args: readonly unknown[]) => chain.session.deploy(artifacts[name]!, args, deployer, (time += 60));
  tokens.usdc = await deploy('DevnetERC20', ['USD Coin', 'USDC', 6, parseUnits('1000000', 6), deployer]);
  tokens.gov = await deploy('DevnetERC20', ['Guild Governance', 'GOV', 18, parseUnits('1000', 18), deployer]);
  tokens.tax = await deploy('DevnetFeeOnTransferToken', ['Tax Token', 'TAX', parseUnits('1000000', 18), deployer, 100n]);
  tokens.desk = await deploy('PnlOtcDesk', []);

  const lower = (address: Address) => address.toLowerCase();
  referenceData = await startReferenceDataFixture({
    tokens: [
      token(chainId, '', { interface: 1, symbol: 'ETH', decimals: 18, fungibleId: 'eth' }),
      token(chainId, lower(tokens.usdc), { symbol: 'USDC', decimals: 6, fungibleId: 'usdc' }),
      token(chainId, lower(tokens.gov), { symbol: 'GOV', decimals: 18, fungibleId: 'gov' }),
      token(chainId, lower(tokens.tax), { symbol: 'TAX', decimals: 18, fungibleId: 'tax' }),
    ],
    dapps: [],
    // GOV has a price today only: at its trades the trade itself values it.
    price: (query) => {
      const address = query.token?.address;
      if (address === '') return ethPrice;
      if (address === lower(tokens.usdc)) return 1;
      if (address === lower(tokens.tax)) return taxPrice;
      return address === lower(tokens.gov) && query.timestamp === '0' ? govNow : undefined;
    },
  });
  indexing = await setupIndexing();
  writer = createTransactionWriter({
    kafka: indexing.kafka,
    clickhouse,
    referenceData: referenceData.client,
    versions: changes.versions,
    logger: testLogger,
    topics: indexing.topics,
    groupId: uniqueName('pnl-anvil'),
  });
  await writer.start();
  indexerServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [indexerService({ clickhouse, referenceData: referenceData.client })],
    logger: testLogger,
  });
  indexer = createGrpcClient(IndexerClient, `127.0.0.1:${indexerServer.port}`);
  pnl = walletPnlOver({ indexer, referenceData: referenceData.client }, changes.versions);
  indexing.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 3 });

  await transfer(tokens.usdc, deployer, tokens.desk, parseUnits('100000', 6));
  await transfer(tokens.gov, deployer, tokens.desk, parseUnits('100', 18));
  await transfer(tokens.tax, deployer, tokens.desk, parseUnits('1000', 18));
  await transfer(tokens.usdc, deployer, wallet, parseUnits('1000', 6));
  for (const spent of [tokens.usdc, tokens.gov, tokens.tax]) {
    await send(wallet, spent, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [tokens.desk, 2n ** 255n] }));
  }
}, 120_000);

afterAll(async () => {
  await indexing?.close();
  await writer?.stop();
  indexer?.close();
  await indexerServer?.shutdown(1_000);
  await referenceData?.stop();
  await chain?.stop();
  changes.close();
  await clickhouse.close();
});

test('buy 1 GOV at 100, 1 at 200, a transfer to itself, sell 1 at 300: realized 200 less the first lot fee, the 200 lot left at 250 today', async () => {
  const buy1 = await swap(tokens.usdc, parseUnits('100', 6), tokens.gov, parseUnits('1', 18));
  const buy2 = await swap(tokens.usdc, parseUnits('200', 6), tokens.gov, parseUnits('1', 18));
  await transfer(tokens.gov, wallet, wallet, parseUnits('1', 18));
  const snapshot = (await chain.session.client.request({ method: 'evm_snapshot' as never })) as string;
  await swap(tokens.gov, parseUnits('1', 18), tokens.usdc, parseUnits('300', 6));
  const [cost1, cost2] = [100 + fees.get(buy1)!, 200 + fees.get(buy2)!];

  const sold = await indexedPnl();
  expect(sold.breakdown?.entries.get('gov')).toMatchObject({ averageSellPrice: 300 });
  const gov = sold.breakdown!.entries.get('gov')!;
  expect(gov.realizedGain).toBeCloseTo(300 - cost1, 9);
  expect(gov.realizedCostBasis).toBeCloseTo(cost1, 9);
  expect(gov.unrealizedGain).toBeCloseTo(govNow - cost2, 9);
  expect(gov.netInvested).toBeCloseTo(cost2, 9);
  expect(gov.averageBuyPrice).toBeCloseTo((cost1 + cost2) / 2, 9);
  // The 1,000 USDC sent by the deployer is the one external receipt; every fee the wallet paid is counted.
  expect(sold.figures.receivedExternal).toBeCloseTo(1_000, 9);
  expect(sold.figures.totalFee).toBeCloseTo(feesPaid(), 9);

  // A reorg replaces the sale's block with an empty one: the sale is gone, both lots are open.
  await chain.session.client.request({ method: 'evm_revert' as never, params: [snapshot] as never });
  chain.session.resetNonces();
  for (let block = 0; block < 2; block++) await chain.session.mine((time += 30));
  const saleFee = [...fees.keys()].at(-1)!;
  fees.delete(saleFee);
  const reorged = await indexedPnl();
  const kept = reorged.breakdown!.entries.get('gov')!;
  expect(kept.realizedGain).toBe(0);
  expect(kept.netInvested).toBeCloseTo(cost1 + cost2, 9);
  expect(kept.unrealizedGain).toBeCloseTo(2 * govNow - cost1 - cost2, 9);
}, 120_000);

test('a fee-on-transfer token: the lot holds what arrived (99 of 100), a send of 50 takes 50 of it at cost', async () => {
  const buy = await swap(tokens.usdc, parseUnits('50', 6), tokens.tax, parseUnits('100', 18));
  await transfer(tokens.tax, wallet, friend, parseUnits('50', 18));
  const cost = 50 + fees.get(buy)!;
  const result = await indexedPnl();
  const tax = result.breakdown!.entries.get('tax')!;
  expect(tax.totalInvested).toBeCloseTo(cost, 9);
  expect(tax.averageBuyPrice).toBeCloseTo(cost / 99, 9);
  expect(tax.sentExternal).toBeCloseTo(50 * taxPrice, 9);
  expect(tax.netInvested).toBeCloseTo((cost * 49) / 99, 9);
  expect(tax.unrealizedGain).toBeCloseTo(49 * taxPrice - (cost * 49) / 99, 9);
  expect(tax.realizedGain).toBe(0);
}, 120_000);
