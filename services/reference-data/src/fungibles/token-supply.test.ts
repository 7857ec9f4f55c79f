import { status } from '@grpc/grpc-js';
import { createTokenSupply, type SolanaSupplyRpc } from './token-supply.js';

const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const holder = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const tokenAccount = (amount: string) => ({
  pubkey: 'x',
  account: { data: { program: 'spl-token', parsed: { type: 'account', info: { mint, owner: holder, tokenAmount: { amount, decimals: 6 } } } } },
});

describe('token supply of Solana mints', () => {
  const asked: unknown[][] = [];
  const rpc = {
    getTokenSupply: (...args: unknown[]) => ({
      send: async () => (asked.push(['getTokenSupply', ...args]), { value: { amount: '18446744073709551615', decimals: 6 } }),
    }),
    getTokenAccountsByOwner: (...args: unknown[]) => ({
      send: async () => (asked.push(['getTokenAccountsByOwner', ...args]), { value: [tokenAccount('1500000'), tokenAccount('2500000')] }),
    }),
  } as unknown as SolanaSupplyRpc;
  const supply = createTokenSupply(new Map(), new Map([['solana', rpc]]));

  test("the mint's supply, in base units, without rounding", async () => {
    expect(await supply.totalSupply('solana', mint)).toBe(18446744073709551615n);
    expect(asked[0]).toEqual(['getTokenSupply', mint, { commitment: 'confirmed' }]);
  });

  test("a holder's balance sums all its token accounts of the mint", async () => {
    expect(await supply.balanceOf('solana', mint, holder)).toBe(4_000_000n);
    expect(asked[1]).toEqual(['getTokenAccountsByOwner', holder, { mint }, { encoding: 'jsonParsed', commitment: 'confirmed' }]);
  });

  test('a chain without endpoint and a failing node are UNAVAILABLE', async () => {
    await expect(supply.totalSupply('solana-devnet', mint)).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      message: 'chain solana-devnet has no RPC endpoint',
    });
    const failing = createTokenSupply(
      new Map(),
      new Map([['solana', { getTokenSupply: () => ({ send: () => Promise.reject(new Error('connect ECONNREFUSED')) }) } as unknown as SolanaSupplyRpc]]),
    );
    await expect(failing.totalSupply('solana', mint)).rejects.toMatchObject({ code: status.UNAVAILABLE, message: expect.stringContaining('ECONNREFUSED') });
  });
});
