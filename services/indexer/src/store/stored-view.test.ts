import { createStoredView } from './stored-view.js';
import type { ListedRow } from './wallet-transaction-query.js';

const row = (hash: string): ListedRow => ({ chain_id: 'ethereum', address: '0xabc', block_number: '1', block_hash: '0x01', mined_at: 1, transaction_index: 0, hash, operation_type: 'send', is_trash: 0 });
const block = (blockHash: string) => ({ chainId: 'ethereum', blockHash });

describe('the stored view', () => {
  test('a page is read once while nothing reaches the tables, and again after something did', async () => {
    const view = createStoredView();
    let reads = 0;
    const load = async () => [row(`0x${(reads += 1)}`)];
    expect(await view.page('filter', load)).toEqual([row('0x1')]);
    expect(await view.page('filter', load)).toEqual([row('0x1')]);
    expect(await view.page('other filter', load)).toEqual([row('0x2')]);
    view.storedChanged();
    expect(await view.page('filter', load)).toEqual([row('0x3')]);
  });

  test('a page read while rows landed answers its caller but is not kept', async () => {
    const view = createStoredView();
    let reads = 0;
    const first = view.page('filter', async () => {
      view.storedChanged();
      return [row(`0x${(reads += 1)}`)];
    });
    expect(await first).toEqual([row('0x1')]);
    expect(await view.page('filter', async () => [row(`0x${(reads += 1)}`)])).toEqual([row('0x2')]);
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
    view.storedChanged();
    expect(await view.orphaned([block('0x01')], load)).toEqual(new Set());
    expect(asked).toEqual([['0x01', '0xdead'], ['0x02'], ['0x01']]);
  });
});
