import { randomBytes } from 'node:crypto';
import { publicUrl, startWalletGateway, type WalletGateway } from './setup-wallet-gateway.js';

const json = (response: Response): Promise<any> => response.json();
const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const malformed = (detail: string) => ({ errors: [{ title: 'Parameter is malformed', detail }] });

describe('GET /v1/wallets/{address}/portfolio: every 400, answered before the positions service is asked', () => {
  const wallet = randomAddress();
  const untracked = randomAddress();
  const solanaWallet = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const path = (query = '', address = wallet) => `/v1/wallets/${address}/portfolio${query}`;
  let gateway: WalletGateway;

  beforeAll(async () => {
    gateway = await startWalletGateway({
      positionsAddress: '127.0.0.1:1',
      untracked: { [untracked]: 'address is a high-volume address (Exchange) and is not tracked' },
    });
  });

  afterAll(async () => {
    await gateway.stop();
  });

  test.each([
    ['/v1/wallets/0x12345/portfolio', 'path parameter address: must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)'],
    [path('?currency=usdt'), 'parameter currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
    [path('?filter[positions]=simple'), 'parameter filter[positions]: must be only_simple, only_complex or no_filter'],
    [path('?sync=1'), 'parameter sync: must be true or false'],
    [path('', untracked), 'address is a high-volume address (Exchange) and is not tracked'],
  ])('400 for %s', async (url, detail) => {
    const response = await gateway.get(url);
    expect([response.status, await json(response)]).toEqual([400, malformed(detail)]);
  });

  test('400 for a URL over 2000 characters; X-Env other than testnet', async () => {
    const long = path(`?x=${'a'.repeat(2001 - publicUrl.length - path('?x=').length)}`);
    const response = await gateway.get(long);
    expect([response.status, await json(response)]).toEqual([400, malformed('request URL: must be at most 2000 characters (got 2001)')]);
    const header = await gateway.get(path(), { 'X-Env': 'prod' });
    expect([header.status, await json(header)]).toEqual([400, malformed('header X-Env: must be "testnet" when present')]);
  });

  test('a valid request reaches the positions service (503 with Retry-After while it is down), on testnet too', async () => {
    for (const headers of [{}, { 'X-Env': 'testnet' }] as Record<string, string>[]) {
      const response = await gateway.get(path('?currency=eur&filter[positions]=no_filter&sync=true'), headers);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
    }
  });

  test('a Solana wallet: only_complex is zeros on its chains without asking the positions service (protocol positions are EVM-only)', async () => {
    const response = await gateway.get(path('?filter[positions]=only_complex', solanaWallet));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      links: { self: `${publicUrl}${path('?filter[positions]=only_complex', solanaWallet)}` },
      data: {
        type: 'portfolio',
        id: solanaWallet,
        attributes: {
          positions_distribution_by_type: { wallet: 0, deposited: 0, borrowed: 0, locked: 0, staked: 0 },
          positions_distribution_by_chain: { solana: 0 },
          total: { positions: 0 },
          changes: { absolute_1d: 0, percent_1d: 0 },
        },
      },
    });
  });
});
