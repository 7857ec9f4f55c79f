import { status } from '@grpc/grpc-js';
import { createGrpcClient, unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { SwapClient, type GetSwapQuotesRequest, type SwapQuote } from '@wallet-api/core/proto/swap';
import { parseUnits, type Address, type Hex, type PublicClient } from 'viem';
import { approve, balanceOf, fundedWallet, quotesOnChain, send, startSwapServer, type SwapServer } from './setup-swap.js';

// reference-data's Swap service over gRPC on the test's own fork of the world's ethereum anvil: both routers'
// transactions (V2 Router02 and the V3 SwapRouter, token and native output) executed from a
// wallet of the test's own, each delivering at least output_amount_min, every quote equal to the
// chain's own quote of its route.

let swap: SwapServer;
let grpc: InstanceType<typeof SwapClient>;
let client: PublicClient;
const context = { organizationId: 'org', roles: [], addons: [], network: Network.NETWORK_MAINNET };

const request = (fields: Partial<GetSwapQuotesRequest>): GetSwapQuotesRequest => ({
  context,
  chainId: 'ethereum',
  inputFungibleId: 'eth',
  outputFungibleId: 'usdc',
  inputAmount: '1',
  from: '0x1111111111111111111111111111111111111111',
  to: '',
  slippagePercent: 2,
  currency: 'usd',
  ...fields,
});
const getQuotes = (fields: Partial<GetSwapQuotesRequest>) => unary(grpc, grpc.getSwapQuotes, request(fields), { deadlineMs: 60_000 });

async function execute(from: Address, quote: SwapQuote): Promise<void> {
  const transaction = quote.transaction!;
  await send(client, { from, to: transaction.to as Address, data: transaction.data as Hex, value: BigInt(transaction.value), gas: BigInt(transaction.gas) });
}

beforeAll(async () => {
  swap = await startSwapServer();
  grpc = createGrpcClient(SwapClient, swap.address);
  client = swap.client;
}, 60_000);

afterAll(async () => {
  grpc.close();
  await swap.stop();
});

test("token to token: V2 and V3 quotes equal the chain's, and each router's transaction delivers at least the minimum", async () => {
  const gov = swap.worldToken('GOV');
  const usdc = swap.worldToken('USDC');
  const from = await fundedWallet(client, 10n);
  const to = await fundedWallet(client, 0n);
  const buy = await getQuotes({ outputFungibleId: 'gov', inputAmount: '0.2', from });
  await execute(from, buy.quotes[0]!);

  const amountIn = parseUnits('25', 18);
  const unapproved = await getQuotes({ inputFungibleId: 'gov', outputFungibleId: 'usdc', inputAmount: '25', from, to });
  const spenders = [...new Set(unapproved.quotes.map((quote) => quote.assetSpender))];
  expect(spenders.length).toBe(2);
  for (const spender of spenders) await approve(client, from, gov, spender as Address, amountIn * 2n);

  const answer = await getQuotes({ inputFungibleId: 'gov', outputFungibleId: 'usdc', inputAmount: '25', from, to });
  const truth = await quotesOnChain({
    client,
    registry: swap.registry,
    chainId: 'ethereum',
    tokenIn: gov,
    tokenOut: usdc,
    amountIn,
    blockNumber: BigInt(answer.blockNumber),
  });
  expect(new Map(answer.quotes.map((quote) => [quote.route.join('-'), BigInt(quote.outputAmount!.amount)]))).toEqual(truth);
  // One hop through WETH among them: GOV has V3 pools against WETH only.
  expect(answer.quotes.some((quote) => quote.route.length === 2)).toBe(true);

  for (const spender of spenders) {
    const quote = answer.quotes.find((candidate) => candidate.assetSpender === spender)!;
    expect(quote.transaction).toBeDefined();
    const before = await balanceOf(client, usdc, to);
    await execute(from, quote);
    expect((await balanceOf(client, usdc, to)) - before >= BigInt(quote.outputAmountMin!.amount)).toBe(true);
  }
}, 180_000);

test('token to native ETH: both routers unwrap to the recipient at least the minimum', async () => {
  const usdc = swap.worldToken('USDC');
  const from = await fundedWallet(client, 10n);
  const to = await fundedWallet(client, 0n);
  const buy = await getQuotes({ inputAmount: '1', from });
  await execute(from, buy.quotes[0]!);
  const unapproved = await getQuotes({ inputFungibleId: 'usdc', outputFungibleId: 'eth', inputAmount: '50', from, to });
  for (const spender of new Set(unapproved.quotes.map((quote) => quote.assetSpender)))
    await approve(client, from, usdc, spender as Address, parseUnits('100', 6));

  const answer = await getQuotes({ inputFungibleId: 'usdc', outputFungibleId: 'eth', inputAmount: '50', from, to });
  const kinds = new Map<string, SwapQuote>();
  for (const quote of answer.quotes) if (!kinds.has(quote.liquiditySource!.id)) kinds.set(quote.liquiditySource!.id, quote);
  expect([...kinds.keys()].sort()).toEqual(['uniswap-v2', 'uniswap-v3']);
  for (const quote of kinds.values()) {
    const before = await balanceOf(client, '', to);
    await execute(from, quote);
    expect((await balanceOf(client, '', to)) - before >= BigInt(quote.outputAmountMin!.amount)).toBe(true);
  }
}, 180_000);

test("fee tiers: protocol_percent is the route's pool fees compounded", async () => {
  const answer = await getQuotes({ inputAmount: '0.1' });
  expect(answer.quotes.length).toBeGreaterThan(1);
  for (const quote of answer.quotes) {
    if (quote.liquiditySource!.id === 'uniswap-v2') expect(quote.feeProtocolPercent).toBeCloseTo((1 - 0.997 ** quote.route.length) * 100, 10);
    else if (quote.route.length === 1) expect([0.01, 0.05, 0.3, 1]).toContain(Number(quote.feeProtocolPercent.toFixed(10)));
  }
});

test('ListSwapFungibles: the fungibles with a trusted pool on the chain, the native asset with its wrapped token', async () => {
  const { fungibleIds } = await unary(grpc, grpc.listSwapFungibles, { context, chainId: 'ethereum' });
  expect([...fungibleIds].sort()).toEqual(['dai', 'eth', 'frog', 'gov', 'usdc', 'wbtc', 'weth', 'yld']);
});

test.each([
  ['an unknown chain', { chainId: 'nochain' }, 'input[chain_id]'],
  ['an unknown fungible', { outputFungibleId: 'nosuchcoin' }, 'output[fungible_id]'],
  ['ETH for WETH', { outputFungibleId: 'weth' }, 'output[fungible_id]'],
  ['an amount with more decimals than USDC has', { inputFungibleId: 'usdc', outputFungibleId: 'dai', inputAmount: '0.0000001' }, 'input[amount]'],
  ['a slippage of 0', { slippagePercent: 0 }, 'slippage_percent'],
  ['a bad from', { from: '0x12' }, 'from'],
])('%s is INVALID_ARGUMENT naming the parameter', async (_name, fields, parameter) => {
  await expect(getQuotes(fields)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: expect.stringContaining(parameter) });
});
