import {
  inList,
  listWalletTransactionsQuery,
  orphanedAmongQuery,
  orphanedBlocks,
  transactionBodiesQuery,
  type WalletTransactionFilter,
} from './wallet-transaction-query.js';

const base: WalletTransactionFilter = { address: '0xabc', chainIds: ['ethereum'], operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 101 };
const squash = (text: string) => text.replace(/\s+/g, ' ');

describe('listWalletTransactionsQuery', () => {
  test('always scopes to the wallet and chains, excludes orphaned blocks, orders newest first and dedupes by identity', () => {
    const text = squash(listWalletTransactionsQuery(base).text);
    expect(text).toContain(
      "WHERE address = '0xabc' AND chain_id IN ('ethereum') AND (chain_id, block_hash) NOT IN (SELECT chain_id, block_hash FROM block_states",
    );
    expect(text).toContain(
      'ORDER BY block_timestamp DESC, block_number DESC, transaction_index DESC, chain_id DESC LIMIT 1 BY chain_id, block_hash, transaction_index LIMIT 101',
    );
    expect(text).not.toMatch(/is_trash =|operation_type IN|hasAny\(asset_types/);
  });

  test('reads the narrow columns only: bodies are read apart, by identity', () => {
    expect(listWalletTransactionsQuery(base).text).not.toContain('body');
  });

  test("reads bodies by the wallet and the transactions' identities, one per identity", () => {
    const text = squash(
      transactionBodiesQuery('0xabc', [
        { chainId: 'ethereum', blockHash: '0x01', transactionIndex: 3 },
        { chainId: 'base', blockHash: "0x'02", transactionIndex: 0 },
      ]).text,
    );
    expect(text).toContain(
      "PREWHERE address = '0xabc' AND chain_id IN ('ethereum', 'base') AND (chain_id, block_hash, transaction_index) IN (('ethereum', '0x01', 3), ('base', '0x\\'02', 0)) GROUP BY chain_id, block_hash, transaction_index",
    );
  });

  test.each([
    [{ trash: 'only_trash' }, 'is_trash = 1'],
    [{ trash: 'only_non_trash' }, 'is_trash = 0'],
    [{ operationTypes: ['trade', 'send'] }, "operation_type IN ('trade', 'send')"],
    [{ assetTypes: ['nft'] }, "hasAny(asset_types, ['nft'])"],
    // Inclusive millisecond bounds round inwards to whole seconds.
    [{ minMinedAtMs: 1_000_001n }, 'block_timestamp >= toDateTime(1001)'],
    [{ maxMinedAtMs: 1_000_999n }, 'block_timestamp <= toDateTime(1000)'],
    [{ minMinedAtMs: 99_999_999_999_999n }, 'block_timestamp >= toDateTime(4294967295)'],
    [{ search: { kind: 'hash', hash: '0xdead' } }, "hash = '0xdead'"],
    [{ search: { kind: 'address', address: '0xbeef' } }, "(has(counterparties, '0xbeef') OR has(token_addresses, '0xbeef'))"],
    [
      {
        search: {
          kind: 'tokens',
          tokens: [
            { chainId: 'ethereum', address: '' },
            { chainId: 'ethereum', address: '0x1' },
            { chainId: 'base', address: '0x2' },
          ],
        },
      },
      "((chain_id = 'ethereum' AND hasAny(token_addresses, ['', '0x1'])) OR (chain_id = 'base' AND hasAny(token_addresses, ['0x2'])))",
    ],
    [{ search: { kind: 'tokens', tokens: [] } }, 'AND 0 '],
    [
      { after: { minedAtMs: 1_700_000_012_000n, blockNumber: 5n, transactionIndex: 2, chainId: 'base' } },
      "(block_timestamp < toDateTime(1700000012) OR (block_timestamp = toDateTime(1700000012) AND (block_number < 5 OR (block_number = 5 AND (transaction_index < 2 OR (transaction_index = 2 AND chain_id < 'base'))))))",
    ],
  ] as [Partial<WalletTransactionFilter>, string][])('%j adds %s', (change, expected) => {
    expect(squash(listWalletTransactionsQuery({ ...base, ...change }).text)).toContain(expected);
  });

  test('values are bound as literals, so a quote in a search cannot end the string', () => {
    const text = listWalletTransactionsQuery({ ...base, search: { kind: 'address', address: "x') OR 1=1 --" } }).text;
    expect(text).toContain("has(counterparties, 'x\\') OR 1=1 --')");
  });
});

describe('inList and orphanedBlocks', () => {
  test('IN lists are parenthesised (18.16 refuses arrays there) and never empty', () => {
    expect(inList(['a', 'b']).text).toBe("('a', 'b')");
    expect(() => inList([])).toThrow(/at least one/);
  });

  test('an orphaned hash is one whose newest state by sequence is orphaned', () => {
    const text = squash(orphanedBlocks(['ethereum', 'base']).text);
    expect(text).toContain("block_hash IN (SELECT block_hash FROM orphaned_block_hashes WHERE chain_id IN ('ethereum', 'base'))");
    expect(text).toContain('GROUP BY chain_id, block_hash HAVING argMax(orphaned, sequence) = 1');
  });

  test('orphan states of given blocks are read as orphanedBlocks reads them, for those blocks only', () => {
    const text = squash(
      orphanedAmongQuery([
        { chainId: 'ethereum', blockHash: '0x01' },
        { chainId: 'base', blockHash: '0x02' },
        { chainId: 'ethereum', blockHash: '0x01' },
      ]).text,
    );
    expect(text).toContain("WHERE chain_id IN ('ethereum', 'base') AND block_hash IN ('0x01', '0x02')");
    expect(text).toContain(
      "block_hash IN (SELECT block_hash FROM orphaned_block_hashes WHERE chain_id IN ('ethereum', 'base') AND block_hash IN ('0x01', '0x02'))",
    );
    expect(text).toContain('GROUP BY chain_id, block_hash HAVING argMax(orphaned, sequence) = 1');
  });
});
