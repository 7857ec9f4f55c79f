import type { ReferenceDataClient, TokenInfo, TokenRef } from '../generated/proto/reference_data.js';
import { createTokenDirectory } from './token-directory.js';

const mint = (address: string, scaled: boolean): TokenInfo => ({
  chainId: 'solana',
  address,
  interface: 2,
  name: address,
  symbol: address,
  decimals: 6,
  fungibleId: address,
  iconUrl: '',
  verified: false,
  isSpam: false,
  ...(scaled ? { scaledUiAmount: { multiplier: '1.5', newMultiplier: '1.5', newMultiplierEffectiveTimestamp: '0' } } : {}),
});

describe('token directory', () => {
  test('keeps a ScaledUiAmount token for the short scaled TTL only, the others for the cache TTL', async () => {
    const asked: string[][] = [];
    const client = {
      getTokens(request: { tokens: TokenRef[] }, _metadata: unknown, _options: unknown, callback: (error: null, response: { tokens: TokenInfo[] }) => void) {
        asked.push(request.tokens.map((token) => token.address));
        callback(null, { tokens: request.tokens.map((token) => mint(token.address, token.address === 'Scaled')) });
      },
    } as unknown as ReferenceDataClient;
    const directory = createTokenDirectory(client, { scaledTtlMs: 0 });
    const tokens = [
      { chainId: 'solana', address: 'Plain' },
      { chainId: 'solana', address: 'Scaled' },
    ];
    const first = await directory.load(tokens);
    expect(first.info('solana', 'Scaled')?.scaledUiAmount?.multiplier).toBe('1.5');
    await directory.load(tokens);
    expect(asked).toEqual([['Plain', 'Scaled'], ['Scaled']]);
  });
});
