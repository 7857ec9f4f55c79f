import { parseRegistryConfig } from '../registry/registry-config.js';
import { createRegistry } from '../registry/registry.js';
import { derivedFungibleId, isSpamToken } from './token-flags.js';

const usdc = '0x31149fa789dbf4da89356bd966d716b5c7d12497';
const listedSpam = '0x892e06e70c3d3302b1e8679528f961ce3d9cc0dd';
const other = '0x220c46b70e341fb10994b98165d1466053397a8e';

const registry = createRegistry(
  parseRegistryConfig(
    {
      tokens: [
        { fungible_id: 'usdc', symbol: 'USDC', name: 'USD Coin', implementations: [{ chain_id: 'ethereum', address: usdc }] },
        { fungible_id: 'curve', symbol: 'CRV', name: 'Curve.fi claim token', implementations: [{ chain_id: 'ethereum', address: other }] },
      ],
      spam_tokens: { ethereum: [listedSpam] },
    },
    'test',
  ),
);
const nativeSymbols = new Set(['ETH']);

describe('spam tokens', () => {
  test.each([
    ['the verified token', 'ethereum', usdc, 'USD Coin', 'USDC', false],
    ['a verified token whose name looks like bait', 'ethereum', other, 'Curve.fi claim token', 'CRV', false],
    ['a listed spam token', 'ethereum', listedSpam, 'Nice Token', 'NICE', true],
    ['the verified symbol on another contract', 'ethereum', other.replace('a8e', 'a8f'), 'USD Coin', 'usdc', true],
    ['the verified symbol on another chain', 'base', usdc, 'USD Coin', 'USDC', true],
    ['a native asset symbol', 'ethereum', other.replace('a8e', 'a8f'), 'Ether', 'ETH', true],
    ['a web address in the name', 'ethereum', other.replace('a8e', 'a8f'), 'Visit eth-gift.net for more', 'GIFT', true],
    ['a URL in the symbol', 'ethereum', other.replace('a8e', 'a8f'), 'Reward', 'https://x.io', true],
    ['a claim in the name', 'ethereum', other.replace('a8e', 'a8f'), 'Claim your airdrop', 'AIR', true],
    ['an ordinary unknown token', 'ethereum', other.replace('a8e', 'a8f'), 'Frog Coin', 'FROG', false],
    ['an unknown token with a dotted version', 'ethereum', other.replace('a8e', 'a8f'), 'Token v1.2', 'TKN', false],
  ])('%s', (_name, chainId, address, name, symbol, expected) => {
    expect(isSpamToken({ chainId, address, name, symbol }, registry, nativeSymbols)).toBe(expected);
  });
});

describe('derived fungible ids', () => {
  test('are stable, at most 44 characters, and differ per chain and contract', () => {
    const id = derivedFungibleId('ethereum', usdc);
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(derivedFungibleId('ethereum', usdc.toUpperCase().replace('0X', '0x'))).toBe(id);
    expect(derivedFungibleId('base', usdc)).not.toBe(id);
    expect(derivedFungibleId('ethereum', other)).not.toBe(id);
  });

  test('of Solana mints count the case: two mints differing only in case are two fungibles', () => {
    const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const id = derivedFungibleId('solana', mint);
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(derivedFungibleId('solana', 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).not.toBe(id);
    expect(derivedFungibleId('solana-devnet', mint)).not.toBe(id);
  });
});

describe('spam Solana mints', () => {
  const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const solanaRegistry = createRegistry(
    parseRegistryConfig(
      {
        tokens: [
          {
            fungible_id: 'usdc',
            symbol: 'USDC',
            name: 'USD Coin',
            implementations: [
              { chain_id: 'ethereum', address: usdc },
              { chain_id: 'solana', address: mint },
            ],
          },
        ],
        spam_tokens: { solana: ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'] },
      },
      'test',
    ),
  );
  const symbols = new Set(['ETH', 'SOL']);
  test.each([
    ['the verified mint', mint, 'USD Coin', 'USDC', false],
    ['a mint differing from it only in case, with its symbol', 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'USD Coin', 'USDC', true],
    ['a listed spam mint', 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', 'Bonk', 'BONK', true],
    ['a mint calling itself SOL', 'So11111111111111111111111111111111111111112', 'Wrapped SOL', 'SOL', true],
    ['an ordinary unknown mint', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', 'Dog Coin', 'DOG', false],
  ])('%s', (_name, address, name, symbol, expected) => {
    expect(isSpamToken({ chainId: 'solana', address, name, symbol }, solanaRegistry, symbols)).toBe(expected);
  });
});
