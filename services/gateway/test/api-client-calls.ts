import { erc20Abi, toHex, type Address, type PublicClient } from 'viem';
import { eventually } from '@wallet-api/core/testing';
import type { WalletApiClient } from '../../../clients/typescript/src/index.js';
import type { RegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { expectedEip1559 } from '../../reference-data/test/gas-truth.js';
import { certificatePem } from './setup-tx-subscriptions-gateway.js';

// The calls of api-client.int.test.ts, one per endpoint (method and path) of the OpenAPI document,
// each through the typed client and asserting its status and what its body says; see that file for
// the gateway they run against. Adding an endpoint is one entry in `calls`.

export const publicUrl = 'https://api.wallet.test';
export const callbackUrl = 'https://127.0.0.1:9/hooks';

export interface World {
  client: WalletApiClient;
  /** The ethereum anvil of the devnet, for the truth the chain endpoints are held against. */
  ethereum: PublicClient;
  /** A wallet of the devnet world. */
  wallet: Address;
  registry: RegistryConfig;
  /** A token of the devnet's registry on ethereum: its fungible id and contract. */
  token: { fungibleId: string; address: Address };
  /** A new subscription of the test organization, watching `wallet`. */
  subscription(): Promise<string>;
}

type Call = (world: World) => Promise<void>;

/** An answer of the typed client: its HTTP status and the JSON:API errors it carried, if any. */
interface Answer {
  response: Response;
  error?: unknown;
}

/**
 * 400 from the route's own validation, its detail naming `parameter`. A value the generated types
 * forbid (an unknown chart period) is sent `as never`, on purpose.
 */
function refusedAtTheGateway(answer: Answer, parameter: string): void {
  expect({ status: answer.response.status, error: answer.error }).toEqual({
    status: 400,
    error: { errors: [{ title: 'Parameter is malformed', detail: expect.stringContaining(parameter) }] },
  });
}

const notAnAddress = 'not-an-address';
const poolTokensAbi = [
  { type: 'function', name: 'token0', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'token1', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
] as const;

interface ServedFungible {
  attributes: { symbol: string; implementations: { chain_id: string; address: string; decimals: number }[] };
}

/**
 * The fungible's day chart as this test's reference-data has it: over the last 24 hours, and without
 * a point, as no price of it was ever indexed into this test's own ClickHouse database.
 */
function expectPricelessDayChart(
  chart: { id: string; attributes: { begin_at: string; end_at: string; points: unknown[] }; relationships: { fungible: { data: { id: string } } } },
  fungibleId: string,
): void {
  expect(chart.id).toBe(`${fungibleId}-day`);
  expect(chart.relationships.fungible.data.id).toBe(fungibleId);
  expect(Date.parse(chart.attributes.end_at) - Date.parse(chart.attributes.begin_at)).toBe(24 * 3600_000);
  expect(chart.attributes.points).toEqual([]);
}

/** The fungible's symbol and its ethereum implementation's decimals are what the token contract says. */
async function expectImplementationAsOnChain(ethereum: PublicClient, address: Address, fungible: ServedFungible): Promise<void> {
  const [symbol, decimals] = await Promise.all([
    ethereum.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
    ethereum.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
  ]);
  expect(fungible.attributes.symbol).toBe(symbol);
  const implementation = fungible.attributes.implementations.find((candidate) => candidate.chain_id === 'ethereum');
  expect(implementation).toMatchObject({ address: address.toLowerCase(), decimals });
}

export const calls: Record<string, Call> = {
  async 'GET /v1/chains/'({ client, ethereum }) {
    const { data, response } = await client.GET('/v1/chains/');
    expect(response.status).toBe(200);
    const chain = data!.data.find((candidate) => candidate.id === 'ethereum')!;
    expect(chain.attributes.external_id).toBe(toHex(await ethereum.getChainId()));
    expect(data!.links.self).toBe(`${publicUrl}/v1/chains/`);
  },
  async 'GET /v1/chains/{chain_id}'({ client, ethereum }) {
    const { data, response } = await client.GET('/v1/chains/{chain_id}', { params: { path: { chain_id: 'ethereum' } } });
    expect(response.status).toBe(200);
    expect(data!.data.attributes.external_id).toBe(toHex(await ethereum.getChainId()));
  },
  async 'GET /v1/dapps'({ client, registry }) {
    const { data, response } = await client.GET('/v1/dapps', { params: { query: { 'page[size]': '100' } } });
    expect(response.status).toBe(200);
    const ids = new Set(registry.dapps.map((dapp) => dapp.id));
    expect(data!.data.length).toBe(Math.min(100, ids.size));
    for (const dapp of data!.data) expect(ids.has(dapp.id)).toBe(true);
    const first = registry.dapps.find((dapp) => dapp.id === data!.data[0]!.id)!;
    expect(data!.data[0]!.attributes.name).toBe(first.name);
  },
  async 'GET /v1/fungibles/'({ client, ethereum, token }) {
    const { data, response } = await client.GET('/v1/fungibles/', { params: { query: { 'filter[fungible_ids]': token.fungibleId } } });
    expect(response.status).toBe(200);
    expect(data!.data.map((fungible) => fungible.id)).toEqual([token.fungibleId]);
    await expectImplementationAsOnChain(ethereum, token.address, data!.data[0]!);
  },
  async 'GET /v1/fungibles/by-implementation'({ client, ethereum, token }) {
    const { data, response } = await client.GET('/v1/fungibles/by-implementation', { params: { query: { implementation: `ethereum:${token.address}` } } });
    expect(response.status).toBe(200);
    expect(data!.data.id).toBe(token.fungibleId);
    await expectImplementationAsOnChain(ethereum, token.address, data!.data);
  },
  async 'GET /v1/fungibles/{fungible_id}'({ client, ethereum, token }) {
    const { data, response } = await client.GET('/v1/fungibles/{fungible_id}', { params: { path: { fungible_id: token.fungibleId } } });
    expect(response.status).toBe(200);
    expect(data!.data.id).toBe(token.fungibleId);
    await expectImplementationAsOnChain(ethereum, token.address, data!.data);
  },
  async 'GET /v1/fungibles/by-implementation/charts/{chart_period}'({ client, token }) {
    const { data, response } = await client.GET('/v1/fungibles/by-implementation/charts/{chart_period}', {
      params: { path: { chart_period: 'day' }, query: { implementation: `ethereum:${token.address}` } },
    });
    expect(response.status).toBe(200);
    expectPricelessDayChart(data!.data, token.fungibleId);
  },
  async 'GET /v1/fungibles/{fungible_id}/charts/{chart_period}'({ client, token }) {
    const { data, response } = await client.GET('/v1/fungibles/{fungible_id}/charts/{chart_period}', {
      params: { path: { fungible_id: token.fungibleId, chart_period: 'day' } },
    });
    expect(response.status).toBe(200);
    expectPricelessDayChart(data!.data, token.fungibleId);
  },
  async 'GET /v1/gas-prices/'({ client, ethereum }) {
    // The tracker's first poll of the anvil may still be on its way.
    const { data, response } = await eventually(async () => {
      const answer = await client.GET('/v1/gas-prices/', { params: { query: { 'filter[chain_ids]': 'ethereum' } } });
      expect(answer.data?.data.length).toBeGreaterThan(0);
      return answer;
    });
    expect(response.status).toBe(200);
    const [price] = data!.data;
    expect(price!.attributes.gas_type).toBe('eip1559');
    // What the chain says its fees were at the block the answer names.
    const truth = await expectedEip1559(ethereum, BigInt(price!.meta.block_number));
    const served = price!.attributes.info as { base_fee: number; standard: { priority_fee: number; max_fee: number } };
    expect(served.base_fee).toBe(Number(truth.baseFee));
    expect(served.standard).toMatchObject({ priority_fee: Number(truth.standard.priorityFee), max_fee: Number(truth.standard.maxFee) });
  },
  async 'GET /v1/swap/fungibles/'({ client, ethereum }) {
    const { data, response } = await client.GET('/v1/swap/fungibles/', { params: { query: { 'input[chain_id]': 'ethereum' } } });
    expect(response.status).toBe(200);
    const weth = data!.data.find((fungible) => fungible.id === 'weth')!;
    const address = weth.attributes!.implementations.find((implementation) => implementation.chain_id === 'ethereum')!.address as Address;
    await expectImplementationAsOnChain(ethereum, address, weth as ServedFungible);
  },
  async 'GET /v1/swap/quotes/'({ client, ethereum, token, wallet }) {
    const query = {
      'input[chain_id]': 'ethereum',
      'input[fungible_id]': 'weth',
      'input[amount]': '0.01',
      'output[fungible_id]': token.fungibleId,
      from: wallet,
    };
    const { data, response } = await client.GET('/v1/swap/quotes/', { params: { query } });
    expect(response.status).toBe(200);
    const [quote] = data!.data;
    expect(quote!.attributes.input_amount.int).toBe(String(10n ** 16n));
    expect(BigInt(quote!.attributes.output_amount.int)).toBeGreaterThan(0n);
    // The route is a pool of the devnet trading exactly these two tokens, as its contract says.
    const weth = (await client.GET('/v1/fungibles/{fungible_id}', { params: { path: { fungible_id: 'weth' } } })).data!.data;
    const wethAddress = weth.attributes.implementations.find((implementation) => implementation.chain_id === 'ethereum')!.address as Address;
    const pool = quote!.attributes.route.at(-1) as Address;
    const pair = await Promise.all(
      ['token0', 'token1'].map((functionName) =>
        ethereum.readContract({ address: pool, abi: poolTokensAbi, functionName: functionName as 'token0' | 'token1' }),
      ),
    );
    expect(pair.map((address) => address.toLowerCase()).sort()).toEqual([wethAddress.toLowerCase(), token.address.toLowerCase()].sort());
    // And whether the wallet holds the input is what the chain says of its balance.
    const balance = await ethereum.readContract({ address: wethAddress, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
    expect(quote!.attributes.preconditions_met.enough_balance).toBe(balance >= 10n ** 16n);
    // The test organization lacks the pending-orders role: no quote became an unsigned action.
    expect(data!.data.map((candidate) => candidate.attributes.action_id)).toEqual(data!.data.map(() => null));
  },
  // Called with real actions through the typed client in services/gateway/test/unsigned-actions.int.test.ts.
  async 'POST /v1/transactions/build-action/'({ client }) {
    const { error, response } = await client.POST('/v1/transactions/build-action/', { body: { action_id: 'act_0123456789abcdef0123456789abcdef' } });
    expect({ status: response.status, error }).toEqual({
      status: 403,
      error: { errors: [{ title: 'Forbidden', detail: 'POST /v1/transactions/build-action/ requires the pending-orders role' }] },
    });
  },
  // Called with real actions through the typed client in services/gateway/test/unsigned-actions.int.test.ts.
  async 'POST /v1/transactions/dismiss-action/'({ client }) {
    refusedAtTheGateway(
      await client.POST('/v1/transactions/dismiss-action/', { body: { action_id: 'act_0123456789abcdef0123456789abcdef', signature: 'not a signature' } }),
      'signature',
    );
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallets/{address}/transactions/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/transactions/', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallets/{address}/positions/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/positions/', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallets/{address}/portfolio'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/portfolio', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/chart/test/chart-world.int.test.ts.
  async 'GET /v1/wallets/{address}/charts/{chart_period}'({ client, wallet }) {
    refusedAtTheGateway(
      await client.GET('/v1/wallets/{address}/charts/{chart_period}', { params: { path: { address: wallet, chart_period: 'fortnight' as never } } }),
      'chart_period',
    );
  },
  // Called for real data through the typed client in services/gateway/test/wallet-pnl.int.test.ts.
  async 'GET /v1/wallets/{address}/pnl'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/pnl', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-nfts.int.test.ts.
  async 'GET /v1/wallets/{address}/nft-positions/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/nft-positions/', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-nfts.int.test.ts.
  async 'GET /v1/wallets/{address}/nft-collections/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/nft-collections/', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-nfts.int.test.ts.
  async 'GET /v1/wallets/{address}/nft-portfolio'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallets/{address}/nft-portfolio', { params: { path: { address: notAnAddress } } }), 'address');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallet-sets/portfolio'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallet-sets/portfolio', { params: { query: { addresses: notAnAddress } } }), 'addresses');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallet-sets/positions/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallet-sets/positions/', { params: { query: { addresses: notAnAddress } } }), 'addresses');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-sets.int.test.ts.
  async 'GET /v1/wallet-sets/transactions/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallet-sets/transactions/', { params: { query: { addresses: notAnAddress } } }), 'addresses');
  },
  // Called for real data through the typed client in services/chart/test/chart-world.int.test.ts.
  async 'GET /v1/wallet-sets/charts/{chart_period}'({ client, wallet }) {
    refusedAtTheGateway(
      await client.GET('/v1/wallet-sets/charts/{chart_period}', { params: { path: { chart_period: 'fortnight' as never }, query: { addresses: wallet } } }),
      'chart_period',
    );
  },
  // Called for real data through the typed client in services/gateway/test/wallet-pnl.int.test.ts.
  async 'GET /v1/wallet-sets/pnl'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/wallet-sets/pnl', { params: { query: { addresses: notAnAddress } } }), 'addresses');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-nfts.int.test.ts.
  async 'GET /v1/nfts/'({ client }) {
    refusedAtTheGateway(await client.GET('/v1/nfts/', { params: { query: { 'filter[references]': 'nonsense' } } }), 'filter[references]');
  },
  // Called for real data through the typed client in services/gateway/test/wallet-nfts.int.test.ts.
  async 'GET /v1/nfts/{nft_id}'({ client }) {
    // An id of no known form names no NFT: the gateway answers 404 without asking the nft service.
    const { error, response } = await client.GET('/v1/nfts/{nft_id}', { params: { path: { nft_id: 'nonsense' } } });
    expect({ status: response.status, error }).toEqual({ status: 404, error: { errors: [{ title: 'Not Found', detail: 'no NFT with id nonsense' }] } });
  },
  async 'POST /v1/tx-subscriptions/'({ client, wallet }) {
    const { data, response } = await client.POST('/v1/tx-subscriptions/', {
      body: { callback_url: callbackUrl, addresses: [wallet], chain_ids: ['ethereum'] },
    });
    expect(response.status).toBe(201);
    expect(data!.data.attributes).toMatchObject({ callback_url: callbackUrl, chain_ids: ['ethereum'], enabled: true, wallets_count: 1 });
  },
  async 'GET /v1/tx-subscriptions/'({ client, subscription }) {
    const id = await subscription();
    const { data, response } = await client.GET('/v1/tx-subscriptions/', { params: { query: { 'page[size]': '100' } } });
    expect(response.status).toBe(200);
    expect(data!.data.map((entry) => entry.id)).toContain(id);
  },
  async 'GET /v1/tx-subscriptions/{subscription_id}'({ client, subscription }) {
    const id = await subscription();
    const { data, response } = await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    expect(response.status).toBe(200);
    expect(data!.data).toMatchObject({ type: 'tx_subscriptions', id, attributes: { callback_url: callbackUrl, wallets_count: 1 } });
  },
  async 'DELETE /v1/tx-subscriptions/{subscription_id}'({ client, subscription }) {
    const id = await subscription();
    const path = { subscription_id: id };
    expect((await client.DELETE('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).response.status).toBe(404);
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/callback_url'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const renamed = 'https://127.0.0.1:9/renamed';
    expect(
      (await client.PATCH('/v1/tx-subscriptions/{subscription_id}/callback_url', { params: { path }, body: { callback_url: renamed } })).response.status,
    ).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).data!.data.attributes.callback_url).toBe(renamed);
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/chain_ids'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    expect((await client.PATCH('/v1/tx-subscriptions/{subscription_id}/chain_ids', { params: { path }, body: { chain_ids: ['base'] } })).response.status).toBe(
      204,
    );
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).data!.data.attributes.chain_ids).toEqual(['base']);
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/filters'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    expect((await client.PATCH('/v1/tx-subscriptions/{subscription_id}/filters', { params: { path }, body: { filters: null } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).response.status).toBe(200);
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/disable'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    expect((await client.PATCH('/v1/tx-subscriptions/{subscription_id}/disable', { params: { path } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).data!.data.attributes.enabled).toBe(false);
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/enable'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    await client.PATCH('/v1/tx-subscriptions/{subscription_id}/disable', { params: { path } });
    expect((await client.PATCH('/v1/tx-subscriptions/{subscription_id}/enable', { params: { path } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}', { params: { path } })).data!.data.attributes.enabled).toBe(true);
  },
  async 'POST /v1/tx-subscriptions/{subscription_id}/signing-secret/rotate'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const { data, response } = await client.POST('/v1/tx-subscriptions/{subscription_id}/signing-secret/rotate', { params: { path } });
    expect(response.status).toBe(200);
    expect(JSON.stringify(data)).toContain(path.subscription_id);
  },
  async 'GET /v1/tx-subscriptions/{subscription_id}/wallets'({ client, subscription, wallet }) {
    const path = { subscription_id: await subscription() };
    const { data, response } = await client.GET('/v1/tx-subscriptions/{subscription_id}/wallets', { params: { path } });
    expect(response.status).toBe(200);
    expect(JSON.stringify(data!.data).toLowerCase()).toContain(wallet.toLowerCase());
  },
  async 'PATCH /v1/tx-subscriptions/{subscription_id}/wallets'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const added = '0x00000000000000000000000000000000000a11ce';
    expect((await client.PATCH('/v1/tx-subscriptions/{subscription_id}/wallets', { params: { path }, body: { add: [added] } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}/wallets/count', { params: { path } })).data).toMatchObject({
      data: { attributes: { count: 2 } },
    });
  },
  async 'PUT /v1/tx-subscriptions/{subscription_id}/wallets'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const replaced = ['0x00000000000000000000000000000000000b0b01', '0x00000000000000000000000000000000000b0b02', '0x00000000000000000000000000000000000b0b03'];
    expect((await client.PUT('/v1/tx-subscriptions/{subscription_id}/wallets', { params: { path }, body: { addresses: replaced } })).response.status).toBe(204);
    expect((await client.GET('/v1/tx-subscriptions/{subscription_id}/wallets/count', { params: { path } })).data).toMatchObject({
      data: { attributes: { count: 3 } },
    });
  },
  async 'GET /v1/tx-subscriptions/{subscription_id}/wallets/count'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const { data, response } = await client.GET('/v1/tx-subscriptions/{subscription_id}/wallets/count', { params: { path } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: { attributes: { count: 1 } } });
  },
  async 'GET /v1/tx-subscriptions/{subscription_id}/deliveries'({ client, subscription }) {
    const path = { subscription_id: await subscription() };
    const { data, response } = await client.GET('/v1/tx-subscriptions/{subscription_id}/deliveries', { params: { path } });
    expect(response.status).toBe(200);
    // A subscription no transaction has matched yet has delivered nothing.
    expect(data!.data).toEqual([]);
  },
  async 'POST /v1/tx-subscriptions/{subscription_id}/deliveries/{delivery_id}/retry'({ client, subscription }) {
    const path = { subscription_id: await subscription(), delivery_id: 'msg_unknown' };
    const { error, response } = await client.POST('/v1/tx-subscriptions/{subscription_id}/deliveries/{delivery_id}/retry', { params: { path } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ errors: [{ title: 'Not Found', detail: 'delivery msg_unknown not found' }] });
  },
  async 'GET /v1/webhooks/certificate.pem'({ client }) {
    const { data, response } = await client.GET('/v1/webhooks/certificate.pem', { parseAs: 'text' });
    expect(response.status).toBe(200);
    expect(data).toBe(certificatePem);
  },
};
