import { randomBytes } from 'node:crypto';
import { publicUrl, startWalletGateway, type WalletGateway } from './setup-wallet-gateway.js';

const json = (response: Response): Promise<any> => response.json();
const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const list = (count: number, item: (index: number) => string) => Array.from({ length: count }, (_, index) => item(index)).join(',');
const malformed = (detail: string) => ({ errors: [{ title: 'Parameter is malformed', detail }] });

describe('GET /v1/wallets/{address}/positions/: every 400 of spec 4.4 and 8, answered before the positions service is asked', () => {
  const wallet = randomAddress();
  const untracked = randomAddress();
  const solanaWallet = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const path = (query = '', address = wallet) => `/v1/wallets/${address}/positions/${query}`;
  let gateway: WalletGateway;

  beforeAll(async () => {
    // Nothing listens there: a request that passes validation reaches it and is answered 503.
    gateway = await startWalletGateway({ positionsAddress: '127.0.0.1:1', untracked: { [untracked]: 'address is a burn address and is not tracked' } });
  });

  afterAll(async () => {
    await gateway.stop();
  });

  const longUrlPath = path(`?filter[fungible_ids]=usdc&x=${'a'.repeat(2000 - publicUrl.length - path('?filter[fungible_ids]=usdc&x=').length + 1)}`);

  test.each([
    ['/v1/wallets/0x123/positions/', 'path parameter address: must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)'],
    [
      '/v1/wallets/0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl/positions/',
      'path parameter address: must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)',
    ],
    [path('?currency=doge'), 'parameter currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
    [path('?filter[positions]=all'), 'parameter filter[positions]: must be only_simple, only_complex or no_filter'],
    [path(`?filter[position_types]=${list(9, () => 'wallet')}`), 'parameter filter[position_types]: must name at most 8 values (got 9)'],
    [
      path('?filter[position_types]=wallet,farming'),
      'parameter filter[position_types]: each value must be one of deposit, loan, locked, staked, reward, wallet, investment (got "farming")',
    ],
    [
      path('?filter[position_types]=wallet,,loan'),
      'parameter filter[position_types]: must not contain an empty value (a comma-separated list of non-empty values)',
    ],
    [path(`?filter[chain_ids]=${list(26, () => 'ethereum')}`), 'parameter filter[chain_ids]: must name at most 25 values (got 26)'],
    [
      path('?filter[chain_ids]=bad$chain'),
      'parameter filter[chain_ids]: each chain id must be 1 to 64 letters, digits, dots, dashes or underscores (got "bad$chain")',
    ],
    [path('?filter[chain_ids]=ethereum,,base'), 'parameter filter[chain_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [path('?filter[chain_ids]='), 'parameter filter[chain_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [path('?filter[chain_ids]=ethereum,unknown-chain'), 'parameter filter[chain_ids]: chain unknown-chain is not supported'],
    [path('?filter[chain_ids]=ethereum,legacy'), 'chain legacy does not support positions'],
    [path('?filter[chain_ids]=solana'), 'chain solana does not support this wallet address type'],
    [path('?filter[chain_ids]=ethereum', solanaWallet), 'chain ethereum does not support this wallet address type'],
    [path(`?filter[fungible_ids]=${list(26, (index) => `f${index}`)}`), 'parameter filter[fungible_ids]: must name at most 25 values (got 26)'],
    [
      path(`?filter[fungible_ids]=usdc,${'f'.repeat(45)}`),
      `parameter filter[fungible_ids]: each fungible id must be at most 44 characters (got "${'f'.repeat(45)}")`,
    ],
    [path('?filter[fungible_ids]=usdc,'), 'parameter filter[fungible_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [path(`?filter[dapp_ids]=${list(26, (index) => `d${index}`)}`), 'parameter filter[dapp_ids]: must name at most 25 values (got 26)'],
    [path(`?filter[dapp_ids]=${'d'.repeat(33)}`), `parameter filter[dapp_ids]: each dapp id must be 1 to 32 characters (got "${'d'.repeat(33)}")`],
    [path('?filter[dapp_ids]=,uniswap'), 'parameter filter[dapp_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [path('?filter[trash]=maybe'), 'parameter filter[trash]: must be only_trash, only_non_trash or no_filter'],
    [path('?sort=-price'), 'parameter sort: must be value (largest value first) or -value (smallest first)'],
    [path('?sync=yes'), 'parameter sync: must be true or false'],
    [path('?sort=value&sort=-value'), 'parameter sort: must be value (largest value first) or -value (smallest first)'],
    [path('', untracked), 'address is a burn address and is not tracked'],
  ])('400 for %s', async (url, detail) => {
    const response = await gateway.get(url);
    expect(await json(response)).toEqual(malformed(detail));
    expect(response.status).toBe(400);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  test('400 for a URL over 2000 characters, counted as links.self states it', async () => {
    const response = await gateway.get(longUrlPath);
    expect(publicUrl.length + longUrlPath.length).toBe(2001);
    expect([response.status, await json(response)]).toEqual([400, malformed('request URL: must be at most 2000 characters (got 2001)')]);
  });

  test('X-Env takes testnet only, and testnet knows no mainnet chain', async () => {
    const header = await gateway.get(path(), { 'X-Env': 'mainnet' });
    expect([header.status, await json(header)]).toEqual([400, malformed('header X-Env: must be "testnet" when present')]);
    const mainnetChain = await gateway.get(path('?filter[chain_ids]=ethereum'), { 'X-Env': 'testnet' });
    expect([mainnetChain.status, await json(mainnetChain)]).toEqual([400, malformed('parameter filter[chain_ids]: chain ethereum is not supported')]);
  });

  test('a URL of exactly 2000 characters, page[size] and unknown filters pass validation and reach the positions service (503 with Retry-After)', async () => {
    const atLimit = path(`?page[size]=5000&filter[unknown]=1&x=${'a'.repeat(2000 - publicUrl.length - path('?page[size]=5000&filter[unknown]=1&x=').length)}`);
    expect(publicUrl.length + atLimit.length).toBe(2000);
    for (const url of [atLimit, path('?filter[chain_ids]=ethereum,base,ethereum&sync=true&sort=-value&filter[trash]=no_filter&currency=eur')]) {
      const response = await gateway.get(url);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await json(response)).toEqual({
        errors: [{ title: 'Service is temporarily unavailable', detail: 'a backend service is unavailable; retry later' }],
      });
    }
  });

  test('a Solana wallet: only_complex is an empty list without asking the positions service (protocol positions are EVM-only); its wallet rows are asked for', async () => {
    const response = await gateway.get(path('?filter[positions]=only_complex', solanaWallet));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ links: { self: `${publicUrl}${path('?filter[positions]=only_complex', solanaWallet)}` }, data: [] });
    for (const filter of ['only_simple', 'no_filter']) expect((await gateway.get(path(`?filter[positions]=${filter}`, solanaWallet))).status).toBe(503);
  });

  test('the OpenAPI document lists the parameters', async () => {
    const document = await json(await fetch(`${gateway.baseUrl}/v1/openapi.json`));
    const operation = document.paths['/v1/wallets/{address}/positions/'].get;
    expect(operation.parameters.map((parameter: any) => `${parameter.in} ${parameter.name}`).sort()).toEqual([
      'header X-Env',
      'path address',
      'query currency',
      'query filter[chain_ids]',
      'query filter[dapp_ids]',
      'query filter[fungible_ids]',
      'query filter[position_types]',
      'query filter[positions]',
      'query filter[trash]',
      'query sort',
      'query sync',
    ]);
    // 402: a keyless GET of data may be paid for per request (x402) instead of presenting a key.
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '402', '429', '500', '503']);
  });

  test('401 without a key comes before any parameter check', async () => {
    const response = await fetch(`${gateway.baseUrl}${path('?currency=doge')}`);
    expect(response.status).toBe(401);
  });
});
