import { WalletTransaction } from '@wallet-api/core/proto/events';
import type { SubscriptionEntry } from './subscription-entry.js';
import { createSubscriptionIndex } from './subscription-index.js';
import { transactionCandidates } from './transaction-candidates.js';

const alice = '0x00000000000000000000000000000000000000a1';
const bob = '0x00000000000000000000000000000000000000b0';
const safe = '0x000000000000000000000000000000000000005a';

const entry = (id: string, overrides: Partial<SubscriptionEntry> = {}): SubscriptionEntry => ({
  id,
  organizationId: '00000000-0000-0000-0000-000000000001',
  network: 'mainnet',
  callbackUrl: 'https://hooks.example/tx',
  addons: [],
  chainIds: [],
  enabled: true,
  filters: null,
  ...overrides,
});

const eligible = (network: string) => new Set(network === 'mainnet' ? ['ethereum', 'base'] : ['sepolia']);

function indexOf(entries: [SubscriptionEntry, string[]][]) {
  const index = createSubscriptionIndex();
  for (const [subscription, wallets] of entries) {
    index.put(subscription);
    index.addWallets(subscription.id, wallets);
  }
  return index;
}

const tx = (overrides: Partial<WalletTransaction>) =>
  WalletTransaction.fromPartial({ chainId: 'ethereum', from: alice, to: bob, wallets: [alice, bob], ...overrides });

const found = (candidates: ReturnType<typeof transactionCandidates>) =>
  candidates.map((candidate) => `${candidate.subscription.id}:${candidate.wallet}:${candidate.needsSmartWallet}`).sort();

describe('transactionCandidates', () => {
  test('each watched wallet of the transaction, once per subscription', () => {
    const index = indexOf([
      [entry('a'), [alice, bob]],
      [entry('b'), [bob]],
    ]);
    expect(found(transactionCandidates(tx({ wallets: [alice, bob, bob] }), index, eligible))).toEqual([`a:${alice}:false`, `a:${bob}:false`, `b:${bob}:false`]);
  });

  test('a disabled subscription gets nothing', () => {
    const index = indexOf([[entry('a', { enabled: false }), [alice]]]);
    expect(transactionCandidates(tx({}), index, eligible)).toEqual([]);
  });

  test.each([
    ['its listed chain', ['ethereum'], 'ethereum', true],
    ['a chain it does not list', ['base'], 'ethereum', false],
    ['an eligible chain when it lists none', [], 'base', true],
    ['a chain of the other network when it lists none', [], 'sepolia', false],
    ['a chain outside the gate when it lists none', [], 'solana', false],
  ])('chains: %s', (_name, chainIds, chainId, expected) => {
    const index = indexOf([[entry('a', { chainIds }), [alice]]]);
    expect(transactionCandidates(tx({ chainId }), index, eligible).length > 0).toBe(expected);
  });

  test('a failed transaction reaches its sender as is, and anyone else only as a smart-contract wallet', () => {
    const index = indexOf([[entry('a'), [alice, safe]]]);
    expect(found(transactionCandidates(tx({ failed: true, to: safe, wallets: [alice, safe] }), index, eligible))).toEqual(
      [`a:${safe}:true`, `a:${alice}:false`].sort(),
    );
  });
});
