import { status } from '@grpc/grpc-js';
import { createLogger } from '@wallet-api/core/logger';
import { TokenInterface, type ScaledUiAmount } from '@wallet-api/core/proto/reference_data';
import { parseChainsConfig } from '../chains/chain-config.js';
import { parseRegistryConfig } from '../registry/registry-config.js';
import { createRegistry } from '../registry/registry.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import { createTokenCatalog } from './token-catalog.js';
import type { ChainTokenMetadata, TokenReader } from './token-reader.js';
import { readFileSync } from 'node:fs';

const chains = parseChainsConfig(JSON.parse(readFileSync(new URL('../../config/chains.json', import.meta.url), 'utf8')));
const logger = createLogger('test', 'silent');

const evmUsdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const solanaUsdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
// A different mint: base58 is case-sensitive.
const lookalike = 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const scaledMint = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const registry = createRegistry(
  parseRegistryConfig(
    {
      tokens: [
        {
          fungible_id: 'usdc',
          symbol: 'USDC',
          name: 'USD Coin',
          implementations: [
            { chain_id: 'ethereum', address: evmUsdc },
            { chain_id: 'solana', address: solanaUsdc },
          ],
        },
      ],
    },
    'test',
  ),
  new Map(chains.map((chain) => [chain.id, chain.family])),
);

const scaled = (multiplier: string): ScaledUiAmount => ({ multiplier, newMultiplier: multiplier, newMultiplierEffectiveTimestamp: '0' });

function memoryStore(initial: StoredToken[] = []): TokenStore & { rows: StoredToken[] } {
  const rows = [...initial];
  return {
    rows,
    find: async (refs) => rows.filter((row) => refs.some((ref) => ref.chainId === row.chainId && ref.address === row.address)),
    findBySymbol: async (symbol, chainIds) => rows.filter((row) => row.symbol.toUpperCase() === symbol.toUpperCase() && chainIds.includes(row.chainId)),
    save: async (tokens) => {
      for (const token of tokens) if (!rows.some((row) => row.chainId === token.chainId && row.address === token.address)) rows.push({ ...token });
    },
  };
}

/** A Solana chain whose mints answer from `mints`; a mint set to an Error fails like an unreachable node. */
function solanaReader(mints: Map<string, ChainTokenMetadata | Error>): TokenReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async read(address) {
      reads.push(address);
      const answer = mints.get(address);
      if (answer instanceof Error) throw answer;
      return answer && structuredClone(answer);
    },
  };
}

function setup(options: { mints: Map<string, ChainTokenMetadata | Error>; stored?: StoredToken[]; scaledTtlMs?: number; now?: () => number }) {
  const store = memoryStore(options.stored);
  const reader = solanaReader(options.mints);
  const evm: TokenReader = { read: async () => ({ interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }) };
  const catalog = createTokenCatalog({
    chains,
    registry,
    store,
    logger,
    readers: new Map([
      ['ethereum', evm],
      ['solana', reader],
    ]),
    ...(options.scaledTtlMs === undefined ? {} : { scaledTtlMs: options.scaledTtlMs }),
    ...(options.now ? { now: options.now } : {}),
  });
  return { catalog, store, reader };
}

describe('token catalog on a Solana chain', () => {
  test('keeps mint addresses as written, lowercases EVM ones, and refuses an address of the wrong form, naming it', async () => {
    const { catalog } = setup({ mints: new Map([[solanaUsdc, { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }]]) });
    const [evm, solana] = await catalog.getTokens([
      { chainId: 'ethereum', address: evmUsdc.toUpperCase().replace('0X', '0x') },
      { chainId: 'solana', address: ` ${solanaUsdc} ` },
    ]);
    expect(evm!.address).toBe(evmUsdc);
    expect(solana!.address).toBe(solanaUsdc);
    for (const [chainId, address, rule] of [
      ['solana', solanaUsdc.toLowerCase(), 'a valid Solana address'],
      ['solana', evmUsdc, 'a valid Solana address'],
      ['solana-devnet', 'not-a-mint', 'a valid Solana address'],
      ['ethereum', solanaUsdc, 'a valid EVM address'],
    ] as const) {
      await expect(catalog.getTokens([{ chainId, address }])).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        message: expect.stringContaining(`token address ${address} should be ${rule}`),
      });
    }
  });

  test('reads an unknown mint once, stores it case-preserved and without its scaled config, and flags it from the registry', async () => {
    const { catalog, store, reader } = setup({
      mints: new Map<string, ChainTokenMetadata>([
        [solanaUsdc, { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
        [lookalike, { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
        [scaledMint, { interface: 'erc20', name: 'Devnet Stock', symbol: 'DSTKx', decimals: 6, scaledUiAmount: scaled('1.5') }],
      ]),
    });
    const tokens = await catalog.getTokens([
      { chainId: 'solana', address: solanaUsdc },
      { chainId: 'solana', address: lookalike },
      { chainId: 'solana', address: scaledMint },
      { chainId: 'solana', address: wallet },
      { chainId: 'solana', address: '' },
    ]);
    expect(tokens.map((token) => [token.address, token.interface, token.symbol, token.fungibleId, token.verified, token.isSpam, token.scaledUiAmount])).toEqual(
      [
        [solanaUsdc, TokenInterface.TOKEN_INTERFACE_ERC20, 'USDC', 'usdc', true, false, undefined],
        [lookalike, TokenInterface.TOKEN_INTERFACE_ERC20, 'USDC', expect.stringMatching(/^[0-9a-f]{40}$/), false, true, undefined],
        [scaledMint, TokenInterface.TOKEN_INTERFACE_ERC20, 'DSTKx', expect.stringMatching(/^[0-9a-f]{40}$/), false, false, scaled('1.5')],
        [wallet, TokenInterface.TOKEN_INTERFACE_UNKNOWN, '', '', false, false, undefined],
        ['', TokenInterface.TOKEN_INTERFACE_NATIVE, 'SOL', 'sol', true, false, undefined],
      ],
    );
    expect(tokens[4]!.decimals).toBe(9);
    expect(store.rows).toEqual([
      { chainId: 'solana', address: solanaUsdc, interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
      { chainId: 'solana', address: lookalike, interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
      { chainId: 'solana', address: scaledMint, interface: 'erc20', name: 'Devnet Stock', symbol: 'DSTKx', decimals: 6 },
    ]);
    expect(reader.reads.sort()).toEqual([lookalike, scaledMint, solanaUsdc, wallet].sort());
  });

  test('reads a scaled mint again once its config is older than the TTL; an unscaled mint never again', async () => {
    const mints = new Map<string, ChainTokenMetadata>([
      [solanaUsdc, { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
      [scaledMint, { interface: 'erc20', name: 'Devnet Stock', symbol: 'DSTKx', decimals: 6, scaledUiAmount: scaled('1.5') }],
    ]);
    let now = 1_000_000;
    const { catalog, reader } = setup({ mints, scaledTtlMs: 15_000, now: () => now });
    const refs = [
      { chainId: 'solana', address: solanaUsdc },
      { chainId: 'solana', address: scaledMint },
    ];
    await catalog.getTokens(refs);
    expect(reader.reads).toHaveLength(2);

    // The authority's UpdateMultiplier.
    mints.get(scaledMint)!.scaledUiAmount = { multiplier: '1.5', newMultiplier: '3', newMultiplierEffectiveTimestamp: '1700000000' };
    now += 14_999;
    expect((await catalog.getTokens(refs))[1]!.scaledUiAmount).toEqual(scaled('1.5'));
    expect(reader.reads).toHaveLength(2);

    now += 1;
    expect((await catalog.getTokens(refs))[1]!.scaledUiAmount).toEqual({
      multiplier: '1.5',
      newMultiplier: '3',
      newMultiplierEffectiveTimestamp: '1700000000',
    });
    expect(reader.reads.slice(2)).toEqual([scaledMint]);

    now += 3_600_000;
    await catalog.getTokens(refs);
    expect(reader.reads.slice(3)).toEqual([scaledMint]);
  });

  test('after a restart, a stored mint is read once more for its scaling; a stale config outlives a node that stops answering, an unknown one does not', async () => {
    const stored: StoredToken[] = [
      { chainId: 'solana', address: scaledMint, interface: 'erc20', name: 'Devnet Stock', symbol: 'DSTKx', decimals: 6 },
      { chainId: 'solana', address: solanaUsdc, interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    ];
    const mints = new Map<string, ChainTokenMetadata | Error>([
      [scaledMint, { interface: 'erc20', name: 'Devnet Stock', symbol: 'DSTKx', decimals: 6, scaledUiAmount: scaled('2') }],
    ]);
    const { catalog, store, reader } = setup({ mints, stored, scaledTtlMs: 0 });
    const [token] = await catalog.getTokens([{ chainId: 'solana', address: scaledMint }]);
    expect(token).toMatchObject({ name: 'Devnet Stock', decimals: 6, scaledUiAmount: scaled('2') });
    expect(reader.reads).toEqual([scaledMint]);
    expect(store.rows).toHaveLength(2);

    mints.set(scaledMint, new Error('connect ECONNREFUSED 127.0.0.1:18899'));
    mints.set(solanaUsdc, new Error('connect ECONNREFUSED 127.0.0.1:18899'));
    expect((await catalog.getTokens([{ chainId: 'solana', address: scaledMint }]))[0]!.scaledUiAmount).toEqual(scaled('2'));
    await expect(catalog.getTokens([{ chainId: 'solana', address: solanaUsdc }])).rejects.toMatchObject({ code: status.UNAVAILABLE });
  });

  test('finds a mint by symbol next to the EVM implementations of the network', async () => {
    const { catalog } = setup({ mints: new Map([[solanaUsdc, { interface: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }]]) });
    const found = await catalog.findBySymbol('usdc', 0);
    expect(found.map((token) => [token.chainId, token.address, token.fungibleId])).toEqual([
      ['ethereum', evmUsdc, 'usdc'],
      ['solana', solanaUsdc, 'usdc'],
    ]);
    expect((await catalog.findBySymbol('sol', 0)).map((token) => [token.chainId, token.interface])).toEqual([
      ['solana', TokenInterface.TOKEN_INTERFACE_NATIVE],
    ]);
  });
});
