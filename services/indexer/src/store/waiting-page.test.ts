import type { WalletTransactionRecord } from './history-rows.js';
import { asListedRow, firstOfPage, matchesFilter, newestFirst } from './waiting-page.js';
import type { WalletTransactionFilter } from './wallet-transaction-query.js';

const base: WalletTransactionFilter = { address: '0xabc', chainIds: ['ethereum', 'base'], operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 101 };

const row = (change: Partial<WalletTransactionRecord> = {}): WalletTransactionRecord => ({
  chain_id: 'ethereum',
  address: '0xabc',
  block_number: '7',
  block_hash: '0x07',
  block_timestamp: 1_700_000_084,
  transaction_index: 2,
  hash: '0xh',
  operation_type: 'send',
  is_trash: 0,
  asset_types: ['fungible'],
  token_addresses: ['', '0xusdc'],
  counterparties: ['0xdef'],
  body: 'AAAA',
  legs: '',
  ...change,
});

describe("the page query's conditions applied to rows waiting in memory", () => {
  // Each case mirrors a condition of listWalletTransactionsQuery (see its tests): one row it keeps, one it drops.
  test.each([
    ['the wallet', {}, {}, { address: '0xother' }],
    ['the chains', {}, { chain_id: 'base' }, { chain_id: 'polygon' }],
    ['operation types', { operationTypes: ['trade', 'send'] }, {}, { operation_type: 'receive' }],
    ['only trash', { trash: 'only_trash' }, { is_trash: 1 }, {}],
    ['only non-trash', { trash: 'only_non_trash' }, {}, { is_trash: 1 }],
    ['asset types, any of', { assetTypes: ['nft', 'fungible'] }, {}, { asset_types: ['nft_collection'] }],
    // Inclusive millisecond bounds round inwards to whole seconds.
    ['the earliest mined time', { minMinedAtMs: 1_700_000_083_001n }, { block_timestamp: 1_700_000_084 }, { block_timestamp: 1_700_000_083 }],
    ['the latest mined time', { maxMinedAtMs: 1_700_000_084_999n }, { block_timestamp: 1_700_000_084 }, { block_timestamp: 1_700_000_085 }],
    ['a hash', { search: { kind: 'hash', hash: '0xh' } }, {}, { hash: '0xother' }],
    ['a counterparty', { search: { kind: 'address', address: '0xdef' } }, {}, { counterparties: ['0x123'] }],
    ['a token address', { search: { kind: 'address', address: '0xusdc' } }, {}, { token_addresses: [''] }],
    [
      'tokens per chain',
      {
        search: {
          kind: 'tokens',
          tokens: [
            { chainId: 'base', address: '0xusdc' },
            { chainId: 'ethereum', address: '' },
          ],
        },
      },
      { token_addresses: [''] },
      { chain_id: 'base', token_addresses: [''] },
    ],
    ['no tokens', { search: { kind: 'tokens', tokens: [] } }, undefined, {}],
    // Strictly older than the cursor by (mined time, block number, index, chain) descending.
    ['the cursor', { after: { minedAtMs: 1_700_000_084_500n, blockNumber: 7n, transactionIndex: 2, chainId: 'ethereum' } }, { chain_id: 'base' }, {}],
    ['the cursor by index', { after: { minedAtMs: 1_700_000_084_000n, blockNumber: 7n, transactionIndex: 3, chainId: 'base' } }, {}, { transaction_index: 4 }],
    [
      'the cursor by time',
      { after: { minedAtMs: 1_700_000_084_000n, blockNumber: 1n, transactionIndex: 0, chainId: 'base' } },
      { block_timestamp: 1_700_000_083, block_number: '99' },
      {},
    ],
  ] as [string, Partial<WalletTransactionFilter>, Partial<WalletTransactionRecord> | undefined, Partial<WalletTransactionRecord>][])(
    '%s',
    (_name, filter, kept, dropped) => {
      if (kept) expect(matchesFilter(row(kept), { ...base, ...filter })).toBe(true);
      expect(matchesFilter(row(dropped), { ...base, ...filter })).toBe(false);
    },
  );

  test('rows are ordered newest first by mined time, block number, index and chain, numbers compared as numbers', () => {
    const rows = [
      row({ block_timestamp: 10, block_number: '9', transaction_index: 1, chain_id: 'base' }),
      row({ block_timestamp: 10, block_number: '10', transaction_index: 0 }),
      row({ block_timestamp: 10, block_number: '9', transaction_index: 1, chain_id: 'ethereum' }),
      row({ block_timestamp: 9, block_number: '100' }),
      row({ block_timestamp: 10, block_number: '9', transaction_index: 10, chain_id: 'base' }),
    ].map(asListedRow);
    expect([...rows].sort(newestFirst).map((listed) => [listed.mined_at, listed.block_number, listed.transaction_index, listed.chain_id])).toEqual([
      [10, '10', 0, 'ethereum'],
      [10, '9', 10, 'base'],
      [10, '9', 1, 'ethereum'],
      [10, '9', 1, 'base'],
      [9, '100', 2, 'ethereum'],
    ]);
  });

  test('a page keeps one row per transaction identity, in order, up to its limit', () => {
    const stored = { ...asListedRow(row({ block_number: '7' })), block_number: '7' };
    const page = firstOfPage(
      [asListedRow(row({ block_number: '5', block_hash: '0x05' })), stored, asListedRow(row()), asListedRow(row({ block_number: '6', block_hash: '0x06' }))],
      2,
    );
    expect(page.map((listed) => listed.block_hash)).toEqual(['0x07', '0x06']);
  });
});
