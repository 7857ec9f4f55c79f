import fc from 'fast-check';
import type { WalletTransactionRecord } from './history-rows.js';
import { createStoredView } from './stored-view.js';
import { asListedRow, firstOfPage, matchesFilter } from './waiting-page.js';
import type { ListedRow, WalletTransactionFilter } from './wallet-transaction-query.js';

const row = (hash: string): ListedRow => ({
  chain_id: 'ethereum',
  address: '0xabc',
  block_number: '1',
  block_hash: '0x01',
  mined_at: 1,
  transaction_index: 0,
  hash,
  operation_type: 'send',
  is_trash: 0,
});
const block = (blockHash: string) => ({ chainId: 'ethereum', blockHash });
const filter = (change: Partial<WalletTransactionFilter> = {}): WalletTransactionFilter => ({
  address: '0xabc',
  chainIds: ['ethereum'],
  operationTypes: [],
  trash: 'no_filter',
  assetTypes: [],
  limit: 100,
  ...change,
});
const record = (change: Partial<WalletTransactionRecord>): WalletTransactionRecord => ({
  chain_id: 'ethereum',
  address: '0xabc',
  block_number: '1',
  block_hash: '0x01',
  block_timestamp: 1,
  transaction_index: 0,
  hash: '0xh',
  operation_type: 'send',
  is_trash: 0,
  asset_types: ['fungible'],
  token_addresses: [''],
  counterparties: [],
  body: '',
  legs: '',
  ...change,
});

describe('the stored view', () => {
  test('a page is read once while nothing reaches the tables, and again after something did', async () => {
    const view = createStoredView();
    let reads = 0;
    const load = async () => [row(`0x${(reads += 1)}`)];
    expect(await view.page(filter(), load)).toEqual([row('0x1')]);
    expect(await view.page(filter(), load)).toEqual([row('0x1')]);
    expect(await view.page(filter({ trash: 'only_trash' }), load)).toEqual([row('0x2')]);
    view.storedChanged();
    expect(await view.page(filter(), load)).toEqual([row('0x3')]);
  });

  test('a page read while rows landed answers its caller but is not kept', async () => {
    const view = createStoredView();
    let reads = 0;
    const first = view.page(filter(), async () => {
      view.rowsStored({ wallet_transactions: [record({ hash: '0xnew' })] });
      return [row(`0x${(reads += 1)}`)];
    });
    expect(await first).toEqual([row('0x1')]);
    expect(await view.page(filter(), async () => [row(`0x${(reads += 1)}`)])).toEqual([row('0x2')]);
  });

  test('orphan states: unknown blocks alone are asked, answers of either kind kept until something lands', async () => {
    const view = createStoredView();
    const asked: string[][] = [];
    const load = async (blocks: readonly { chainId: string; blockHash: string }[]) => {
      asked.push(blocks.map((entry) => entry.blockHash));
      return blocks.filter((entry) => entry.blockHash === '0xdead');
    };
    expect(await view.orphaned([block('0x01'), block('0xdead')], load)).toEqual(new Set(['ethereum|0xdead']));
    expect(await view.orphaned([block('0xdead'), block('0x02'), block('0x01')], load)).toEqual(new Set(['ethereum|0xdead']));
    // A round that stores a block's canonical row has its state asked again; the others stay known.
    view.rowsStored({ block_states: [{ chain_id: 'ethereum', block_hash: '0xdead', block_number: '9', orphaned: 0, sequence: '2' }] });
    expect(await view.orphaned([block('0xdead'), block('0x01')], load)).toEqual(new Set(['ethereum|0xdead']));
    view.storedChanged();
    expect(await view.orphaned([block('0x01')], load)).toEqual(new Set());
    expect(asked).toEqual([['0x01', '0xdead'], ['0x02'], ['0xdead'], ['0x01']]);
  });

  test('a round of rows of a block known as orphaned adds none of them to a page', async () => {
    const view = createStoredView();
    await view.page(filter(), async () => []);
    await view.orphaned([block('0xdead')], async (blocks) => blocks);
    view.rowsStored({ wallet_transactions: [record({ block_hash: '0xdead' }), record({ block_hash: '0x02', hash: '0xkept' })] });
    expect((await view.page(filter(), async () => [row('0xread')])).map((listed) => listed.hash)).toEqual(['0xkept']);
  });

  describe('rounds of INSERTs', () => {
    const wallets = ['0xa', '0xb'];
    const chains = ['ethereum', 'base'];
    const recordArbitrary = fc
      .record({
        address: fc.constantFrom(...wallets),
        chain: fc.constantFrom(...chains),
        block: fc.integer({ min: 1, max: 20 }),
        index: fc.integer({ min: 0, max: 3 }),
        operation: fc.constantFrom('send', 'receive', 'trade'),
        trash: fc.constantFrom(0, 1),
      })
      .map(({ address, chain, block, index, operation, trash }) =>
        // Blocks of a chain are a second apart; both chains' blocks share seconds, so ties fall to block, index and chain.
        record({
          address,
          chain_id: chain,
          block_number: String(block),
          block_hash: `${chain}-${block}`,
          block_timestamp: 1_000 + block,
          transaction_index: index,
          hash: `${chain}-${block}-${index}`,
          operation_type: operation,
          is_trash: trash,
        }),
      );
    const filterArbitrary = fc
      .record({
        address: fc.constantFrom(...wallets),
        chainIds: fc.subarray(chains, { minLength: 1 }),
        operationTypes: fc.subarray(['send', 'receive', 'trade']),
        trash: fc.constantFrom('no_filter' as const, 'only_trash' as const, 'only_non_trash' as const),
        limit: fc.integer({ min: 1, max: 6 }),
        after: fc.option(fc.record({ block: fc.integer({ min: 1, max: 20 }), index: fc.integer({ min: 0, max: 3 }), chain: fc.constantFrom(...chains) }), {
          nil: undefined,
        }),
      })
      .map(({ after, ...rest }) =>
        filter({
          ...rest,
          assetTypes: [],
          ...(after
            ? {
                after: {
                  minedAtMs: BigInt(1_000 + after.block) * 1000n,
                  blockNumber: BigInt(after.block),
                  transactionIndex: after.index,
                  chainId: after.chain,
                },
              }
            : {}),
        }),
      );
    // Reads pick one of a run's few filters, so kept pages are read again after rounds.
    const stepArbitrary = fc.oneof(
      { arbitrary: fc.record({ read: fc.nat() }), weight: 3 },
      { arbitrary: fc.record({ store: fc.array(recordArbitrary, { maxLength: 8 }) }), weight: 2 },
    );

    test.each([
      ['pages kept across rounds equal pages read from scratch, and a kept page is not read again', undefined],
      ['with room for a few rows only, pages dropped and kept again still equal pages read from scratch', 6],
    ])('%s', async (_name, maxPageRows) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(filterArbitrary, { minLength: 1, maxLength: 4 }),
          fc.array(stepArbitrary, { minLength: 1, maxLength: 40 }),
          async (filters, steps) => {
            const view = createStoredView(maxPageRows === undefined ? {} : { maxPageRows });
            // The table: what the page query would answer from it is the model.
            const table: WalletTransactionRecord[] = [];
            const fromScratch = (wanted: WalletTransactionFilter) =>
              firstOfPage(table.filter((stored) => matchesFilter(stored, wanted)).map(asListedRow), wanted.limit);
            const readBefore = new Set<string>();
            for (const step of steps) {
              if ('store' in step) {
                table.push(...step.store);
                view.rowsStored({ wallet_transactions: step.store });
                continue;
              }
              const wanted = filters[step.read % filters.length]!;
              let loaded = false;
              const page = await view.page(wanted, async () => {
                loaded = true;
                return fromScratch(wanted);
              });
              expect(page).toEqual(fromScratch(wanted));
              const key = JSON.stringify(wanted, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
              if (maxPageRows === undefined) expect(loaded).toBe(!readBefore.has(key));
              readBefore.add(key);
            }
          },
        ),
        { numRuns: 120 },
      );
    });
  });
});
