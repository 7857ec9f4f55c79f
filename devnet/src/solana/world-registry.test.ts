import type { DevnetRegistry } from '../registry/registry-shape.js';
import type { SolanaWorldManifest } from './world-manifest.js';
import { solanaRegistryEntries, withSolanaRegistryEntries } from './world-registry.js';

// Addresses named for what they are (valid base58, mixed case as Solana's are).
const at = (name: string) => `${name}${'1'.repeat(44 - name.length)}`;

function world(id: string): SolanaWorldManifest {
  const mint = (key: 'usdc' | 'bonk' | 'scaled' | 'meta' | 'spam', symbol: string, name: string, decimals: number, kind: 'stable' | 'standard' | 'spam') => ({
    key,
    address: at(`${id === 'solana' ? 'Main' : 'Dev'}${key}Mint`),
    program: key === 'usdc' || key === 'bonk' ? ('spl-token' as const) : ('token-2022' as const),
    decimals,
    symbol,
    name,
    kind,
    authority: at(`${key}Auth`),
  });
  return {
    id,
    seed: 's',
    walletCount: 1,
    days: 1,
    endTimestamp: 0,
    rpcUrl: '',
    funder: at('Funder'),
    mints: [
      mint('usdc', 'USDC', 'USD Coin', 6, 'stable'),
      mint('bonk', 'BONK', 'Bonk', 5, 'standard'),
      mint('scaled', 'DSTKx', 'Devnet Stock xStock', 6, 'standard'),
      mint('meta', 'DMETA', 'Devnet Meta Token', 9, 'standard'),
      mint('spam', 'REWARD', 'Claim reward at sol-rewards.xyz', 0, 'spam'),
    ],
    wallets: [],
    endSlot: 0,
    endBlockhash: '',
    transactions: { sent: 0, failed: 0, withPriorityFee: 0 },
  };
}

describe('Solana registry entries', () => {
  const entries = solanaRegistryEntries([world('solana'), world('solana-devnet')]);

  test('verifies the real mints, one fungible per symbol across Solana chains, addresses as they are', () => {
    expect(entries.tokens.map((token) => [token.fungible_id, token.symbol, token.asset_class, token.implementations])).toEqual([
      [
        'usdc',
        'USDC',
        'stablecoin',
        [
          { chain_id: 'solana', address: at('MainusdcMint') },
          { chain_id: 'solana-devnet', address: at('DevusdcMint') },
        ],
      ],
      [
        'bonk',
        'BONK',
        undefined,
        [
          { chain_id: 'solana', address: at('MainbonkMint') },
          { chain_id: 'solana-devnet', address: at('DevbonkMint') },
        ],
      ],
      [
        'dstkx',
        'DSTKx',
        undefined,
        [
          { chain_id: 'solana', address: at('MainscaledMint') },
          { chain_id: 'solana-devnet', address: at('DevscaledMint') },
        ],
      ],
      [
        'dmeta',
        'DMETA',
        undefined,
        [
          { chain_id: 'solana', address: at('MainmetaMint') },
          { chain_id: 'solana-devnet', address: at('DevmetaMint') },
        ],
      ],
    ]);
  });

  test('lists the spam mint per chain', () => {
    expect(entries.spam_tokens).toEqual({ solana: [at('MainspamMint')], 'solana-devnet': [at('DevspamMint')] });
  });

  test('joins Solana USDC to the EVM USDC fungible when merged into the devnet registry', () => {
    const evm: DevnetRegistry = {
      dapps: [],
      tokens: [
        {
          fungible_id: 'usdc',
          symbol: 'USDC',
          name: 'USD Coin',
          icon_url: '',
          implementations: [{ chain_id: 'ethereum', address: '0x01' }],
          asset_class: 'stablecoin',
          non_circulating_holders: [{ chain_id: 'ethereum', address: '0x99' }],
        },
      ],
      spam_tokens: { ethereum: ['0x03'] },
      burn_addresses: [],
      high_volume_addresses: [],
      protocols: {},
      pricing: {},
    };
    const merged = withSolanaRegistryEntries(evm, entries);
    expect(merged.tokens.find((token) => token.fungible_id === 'usdc')!.implementations.map((entry) => entry.chain_id)).toEqual([
      'ethereum',
      'solana',
      'solana-devnet',
    ]);
    expect(merged.tokens.map((token) => token.fungible_id)).toEqual(['usdc', 'bonk', 'dstkx', 'dmeta']);
    expect(Object.keys(merged.spam_tokens)).toEqual(['ethereum', 'solana', 'solana-devnet']);
    expect(evm.tokens[0]!.implementations).toHaveLength(1);
  });
});
