import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSolanaRpcClient, createSolanaTokenReader, jsonParsedAccounts } from './solana-token-reader.js';

const scaledMint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const classicMint = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const unnamedMint = 'So11111111111111111111111111111111111111112';
const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const mint = (program: string, decimals: number, extensions?: unknown[]) => ({
  owner: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  data: {
    program,
    parsed: {
      type: 'mint',
      info: { decimals, supply: '1', isInitialized: true, mintAuthority: null, freezeAuthority: null, ...(extensions ? { extensions } : {}) },
    },
    space: 82,
  },
});

const accounts: Record<string, unknown> = {
  [scaledMint]: mint('spl-token-2022', 6, [
    { extension: 'scaledUiAmountConfig', state: { authority: wallet, multiplier: '1', newMultiplierEffectiveTimestamp: 1_700_000_000, newMultiplier: '1.05' } },
    {
      extension: 'tokenMetadata',
      state: { updateAuthority: wallet, mint: scaledMint, name: 'Devnet Stock', symbol: 'DSTKx', uri: '', additionalMetadata: [] },
    },
  ]),
  [classicMint]: mint('spl-token', 5),
  [unnamedMint]: mint('spl-token', 9),
  [wallet]: { owner: '11111111111111111111111111111111', data: ['', 'base64'] },
};

describe('Solana token reader', () => {
  const asked: string[] = [];
  const reader = createSolanaTokenReader({
    account: async (address) => {
      asked.push(address);
      return accounts[address] ?? null;
    },
    verified: (address) => (address === classicMint || address === scaledMint ? { fungibleId: 'bonk', symbol: 'BONK', name: 'Bonk', iconUrl: '' } : undefined),
  });

  test.each([
    [
      'a Token-2022 mint: its metadata extension wins over the registry, its scaled config comes along',
      scaledMint,
      {
        interface: 'erc20',
        name: 'Devnet Stock',
        symbol: 'DSTKx',
        decimals: 6,
        scaledUiAmount: { multiplier: '1', newMultiplier: '1.05', newMultiplierEffectiveTimestamp: '1700000000' },
      },
    ],
    ['a classic mint without on-chain metadata: named by the registry', classicMint, { interface: 'erc20', name: 'Bonk', symbol: 'BONK', decimals: 5 }],
    ['a mint neither names', unnamedMint, { interface: 'erc20', name: '', symbol: '', decimals: 9 }],
    ['a wallet is no token', wallet, undefined],
    ['an address without account is no token', 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', undefined],
  ])('%s', async (_name, address, expected) => {
    expect(await reader.read(address)).toEqual(expected);
    // The mint is asked for as written: base58 is case-sensitive.
    expect(asked.at(-1)).toBe(address);
  });

  test('a transport failure rejects: it says nothing about the mint', async () => {
    const failing = createSolanaTokenReader({ account: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:18899')), verified: () => undefined });
    await expect(failing.read(classicMint)).rejects.toThrow('ECONNREFUSED');
  });
});

describe('Solana token reader through @solana/kit', () => {
  let server: Server;
  const requests: { method: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    // A JSON-RPC server answering getAccountInfo as a node does: the body is plain JSON text.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        requests.push(call);
        const value = accounts[call.params[0] as string] ?? null;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { context: { slot: 7, apiVersion: '2.2.0' }, value } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('asks for the jsonParsed account at confirmed and reads the scaled config kit hands back', async () => {
    const rpc = createSolanaRpcClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const reader = createSolanaTokenReader({ account: jsonParsedAccounts(rpc), verified: () => undefined });
    expect(await reader.read(scaledMint)).toEqual({
      interface: 'erc20',
      name: 'Devnet Stock',
      symbol: 'DSTKx',
      decimals: 6,
      scaledUiAmount: { multiplier: '1', newMultiplier: '1.05', newMultiplierEffectiveTimestamp: '1700000000' },
    });
    expect(await reader.read(wallet)).toBeUndefined();
    expect(await reader.read('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4')).toBeUndefined();
    expect(requests[0]).toMatchObject({ method: 'getAccountInfo', params: [scaledMint, { encoding: 'jsonParsed', commitment: 'confirmed' }] });
  });
});
