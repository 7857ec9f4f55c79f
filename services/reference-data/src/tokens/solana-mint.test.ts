import { parseMintAccount } from './solana-mint.js';

const authority = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const mintAddress = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** `value` of getAccountInfo with `encoding: 'jsonParsed'` for an account a token program owns (agave's account-decoder shape). */
function tokenProgramAccount(program: 'spl-token' | 'spl-token-2022', type: string, info: Record<string, unknown>) {
  return {
    executable: false,
    lamports: 1_461_600,
    owner: program === 'spl-token' ? 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' : 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    rentEpoch: 18_446_744_073_709_551_615n,
    space: 82,
    data: { program, parsed: { type, info }, space: 82 },
  };
}

const mintInfo = (extra: Record<string, unknown> = {}) => ({
  decimals: 6,
  freezeAuthority: null,
  isInitialized: true,
  mintAuthority: authority,
  supply: '1000000000',
  ...extra,
});

const scaledConfig = {
  extension: 'scaledUiAmountConfig',
  state: { authority, multiplier: '1.5', newMultiplierEffectiveTimestamp: 1_700_000_000, newMultiplier: '2.25' },
};
const tokenMetadata = {
  extension: 'tokenMetadata',
  state: {
    updateAuthority: authority,
    mint: mintAddress,
    name: 'Devnet Stock\u0000',
    symbol: 'DSTKx',
    uri: 'https://example.test/dstkx.json',
    additionalMetadata: [['isin', 'US0000000000']],
  },
};

describe('parseMintAccount', () => {
  test.each([
    ['no account', null, undefined],
    [
      'a wallet (system account, base64 data)',
      { owner: '11111111111111111111111111111111', data: ['', 'base64'], executable: false, lamports: 5, space: 0 },
      undefined,
    ],
    ['an account of another parsed program', { data: { program: 'nonce', parsed: { type: 'initialized', info: {} }, space: 80 } }, undefined],
    [
      'a token account',
      tokenProgramAccount('spl-token', 'account', {
        mint: mintAddress,
        owner: authority,
        state: 'initialized',
        isNative: false,
        tokenAmount: { amount: '5', decimals: 6, uiAmount: 0.000005, uiAmountString: '0.000005' },
      }),
      undefined,
    ],
    [
      'a multisig',
      tokenProgramAccount('spl-token', 'multisig', { isInitialized: true, numRequiredSigners: 1, numValidSigners: 1, signers: [authority] }),
      undefined,
    ],
    ['an uninitialized mint', tokenProgramAccount('spl-token', 'mint', mintInfo({ isInitialized: false })), undefined],
    ['a classic SPL Token mint', tokenProgramAccount('spl-token', 'mint', mintInfo()), { program: 'spl-token', decimals: 6 }],
    [
      'a Token-2022 mint without extensions (the node leaves the empty list out)',
      tokenProgramAccount('spl-token-2022', 'mint', mintInfo({ decimals: 9 })),
      { program: 'spl-token-2022', decimals: 9 },
    ],
    [
      'a Token-2022 mint with metadata (NUL padding dropped)',
      tokenProgramAccount(
        'spl-token-2022',
        'mint',
        mintInfo({ extensions: [{ extension: 'metadataPointer', state: { authority, metadataAddress: mintAddress } }, tokenMetadata] }),
      ),
      { program: 'spl-token-2022', decimals: 6, name: 'Devnet Stock', symbol: 'DSTKx' },
    ],
    [
      'a Token-2022 ScaledUiAmount mint, multipliers as the node prints them',
      tokenProgramAccount('spl-token-2022', 'mint', mintInfo({ extensions: [scaledConfig, tokenMetadata, { extension: 'unparseableExtension' }] })),
      {
        program: 'spl-token-2022',
        decimals: 6,
        name: 'Devnet Stock',
        symbol: 'DSTKx',
        scaledUiAmount: { multiplier: '1.5', newMultiplier: '2.25', newMultiplierEffectiveTimestamp: '1700000000' },
      },
    ],
    [
      'the same through @solana/kit (u64 and i64 numbers as bigint), full precision kept',
      tokenProgramAccount(
        'spl-token-2022',
        'mint',
        mintInfo({
          decimals: 6n,
          extensions: [
            {
              ...scaledConfig,
              state: { ...scaledConfig.state, multiplier: '1.0000000000000002', newMultiplierEffectiveTimestamp: 0n, newMultiplier: '1.0000000000000002' },
            },
          ],
        }),
      ),
      {
        program: 'spl-token-2022',
        decimals: 6,
        scaledUiAmount: { multiplier: '1.0000000000000002', newMultiplier: '1.0000000000000002', newMultiplierEffectiveTimestamp: '0' },
      },
    ],
    [
      'a server that sends the multipliers as numbers',
      tokenProgramAccount(
        'spl-token-2022',
        'mint',
        mintInfo({ extensions: [{ ...scaledConfig, state: { ...scaledConfig.state, multiplier: 1, newMultiplier: 1e-7 } }] }),
      ),
      { program: 'spl-token-2022', decimals: 6, scaledUiAmount: { multiplier: '1', newMultiplier: '1e-7', newMultiplierEffectiveTimestamp: '1700000000' } },
    ],
  ])('%s', (_name, account, expected) => {
    expect(parseMintAccount(account)).toEqual(expected);
  });

  test.each([
    ['mint fields', tokenProgramAccount('spl-token', 'mint', { supply: '1' })],
    [
      'a scaled config',
      tokenProgramAccount('spl-token-2022', 'mint', mintInfo({ extensions: [{ ...scaledConfig, state: { ...scaledConfig.state, multiplier: 'NaN' } }] })),
    ],
    [
      'a scaled config without its timestamp',
      tokenProgramAccount('spl-token-2022', 'mint', mintInfo({ extensions: [{ ...scaledConfig, state: { multiplier: '1', newMultiplier: '1' } }] })),
    ],
  ])('refuses %s of an unexpected shape', (_name, account) => {
    expect(() => parseMintAccount(account)).toThrow(/unexpected shape/);
  });
});
