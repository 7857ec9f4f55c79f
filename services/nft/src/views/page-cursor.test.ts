import { compareSortable, decodeCursor, encodeCursor, pageAfter, type PageCursor, type Sortable } from './page-cursor.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('encodeCursor / decodeCursor', () => {
  it.each<PageCursor>([
    { sort: 0, key: 12.5, id: '1:0xabc:1' },
    { sort: 3, key: null, id: 'devnet:0x5fbdb2315678afecb367f032d93f642f64180aa3:42' },
    { sort: 1, key: 0, id: 'a' },
    { sort: -1, key: -3, id: 'x'.repeat(300) },
    { sort: 2, key: 1e-12, id: 'café ☕ / + =' },
  ])('round-trips %j', (cursor) => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it.each([
    { name: 'empty text', text: '' },
    { name: 'garbage', text: 'not a cursor at all' },
    { name: 'non-base64 characters', text: '%%%***!!!' },
    { name: 'base64 of non-JSON', text: Buffer.from('hello').toString('base64url') },
    { name: 'base64 of truncated JSON', text: b64({ s: 0, k: 1, i: 'a' }).slice(0, 10) },
    { name: 'JSON null', text: b64(null) },
    { name: 'a JSON array', text: b64([0, 1, 'a']) },
    { name: 'a JSON string', text: b64('a') },
    { name: 'the long field names', text: b64({ sort: 0, key: 1, id: 'a' }) },
    { name: 'no sort', text: b64({ k: 1, i: 'a' }) },
    { name: 'no key', text: b64({ s: 0, i: 'a' }) },
    { name: 'no id', text: b64({ s: 0, k: 1 }) },
    { name: 'a sort as a string', text: b64({ s: '0', k: 1, i: 'a' }) },
    { name: 'a fractional sort', text: b64({ s: 0.5, k: 1, i: 'a' }) },
    { name: 'a key as a string', text: b64({ s: 0, k: '1', i: 'a' }) },
    { name: 'an id as a number', text: b64({ s: 0, k: 1, i: 1 }) },
    { name: 'an empty id', text: b64({ s: 0, k: 1, i: '' }) },
    { name: 'an id over 300 characters', text: b64({ s: 0, k: 1, i: 'x'.repeat(301) }) },
  ])('is undefined for $name', ({ text }) => {
    expect(decodeCursor(text)).toBeUndefined();
  });
});

describe('compareSortable', () => {
  it.each<{ name: string; ascending: boolean; a: Sortable; b: Sortable; sign: -1 | 0 | 1 }>([
    { name: 'ascending: smaller key first', ascending: true, a: { key: 1, id: 'z' }, b: { key: 2, id: 'a' }, sign: -1 },
    { name: 'ascending: larger key after', ascending: true, a: { key: 2, id: 'a' }, b: { key: 1, id: 'z' }, sign: 1 },
    { name: 'descending: larger key first', ascending: false, a: { key: 2, id: 'z' }, b: { key: 1, id: 'a' }, sign: -1 },
    { name: 'descending: smaller key after', ascending: false, a: { key: 1, id: 'a' }, b: { key: 2, id: 'z' }, sign: 1 },
    { name: 'ascending: null key last', ascending: true, a: { key: null, id: 'a' }, b: { key: 1e9, id: 'z' }, sign: 1 },
    { name: 'ascending: key before null', ascending: true, a: { key: -5, id: 'z' }, b: { key: null, id: 'a' }, sign: -1 },
    { name: 'descending: null key last', ascending: false, a: { key: null, id: 'a' }, b: { key: -1e9, id: 'z' }, sign: 1 },
    { name: 'descending: key before null', ascending: false, a: { key: 5, id: 'z' }, b: { key: null, id: 'a' }, sign: -1 },
    { name: 'ascending: zero key before null', ascending: true, a: { key: 0, id: 'z' }, b: { key: null, id: 'a' }, sign: -1 },
    { name: 'ascending: tie by id', ascending: true, a: { key: 1, id: 'a' }, b: { key: 1, id: 'b' }, sign: -1 },
    { name: 'descending: tie by id, still ascending', ascending: false, a: { key: 1, id: 'b' }, b: { key: 1, id: 'a' }, sign: 1 },
    { name: 'ascending: null keys tie by id', ascending: true, a: { key: null, id: 'b' }, b: { key: null, id: 'a' }, sign: 1 },
    { name: 'descending: null keys tie by id', ascending: false, a: { key: null, id: 'a' }, b: { key: null, id: 'b' }, sign: -1 },
    { name: 'the same item', ascending: true, a: { key: 1, id: 'a' }, b: { key: 1, id: 'a' }, sign: 0 },
    { name: 'the same item without a key', ascending: false, a: { key: null, id: 'a' }, b: { key: null, id: 'a' }, sign: 0 },
  ])('$name', ({ ascending, a, b, sign }) => {
    expect(Math.sign(compareSortable(ascending)(a, b))).toBe(sign);
    expect(Math.sign(compareSortable(ascending)(b, a))).toBe(-sign || 0);
  });

  it.each([
    { ascending: true, expected: ['c', 'a', 'd', 'b', 'e', 'f'] },
    { ascending: false, expected: ['b', 'a', 'd', 'c', 'e', 'f'] },
  ])('sorts a list, ascending $ascending', ({ ascending, expected }) => {
    const items: Sortable[] = [
      { key: null, id: 'f' },
      { key: 3, id: 'b' },
      { key: 1, id: 'c' },
      { key: null, id: 'e' },
      { key: 2, id: 'd' },
      { key: 2, id: 'a' },
    ];
    expect([...items].sort(compareSortable(ascending)).map((item) => item.id)).toEqual(expected);
  });
});

describe('pageAfter', () => {
  interface Item extends Sortable {
    name: string;
  }
  const raw: Item[] = [
    { key: 5, id: 'a', name: 'A' },
    { key: null, id: 'b', name: 'B' },
    { key: 1, id: 'c', name: 'C' },
    { key: 5, id: 'd', name: 'D' },
    { key: 3, id: 'e', name: 'E' },
    { key: null, id: 'f', name: 'F' },
    { key: 3, id: 'g', name: 'G' },
    { key: 0, id: 'h', name: 'H' },
  ];
  const sortedBy = (ascending: boolean, items: readonly Item[] = raw) => [...items].sort(compareSortable(ascending));
  const ids = (items: readonly Sortable[]) => items.map((item) => item.id);
  const cursorOf = (item: Sortable): Sortable => ({ key: item.key, id: item.id });

  /** Every page from the first, each after the last item of the one before. */
  function allPages(sorted: readonly Item[], ascending: boolean, size: number): string[][] {
    const pages: string[][] = [];
    let after: Sortable | undefined;
    for (;;) {
      const { page, last } = pageAfter(sorted, compareSortable(ascending), size, after);
      pages.push(ids(page));
      if (!last) return pages;
      expect(last).toBe(page[page.length - 1]);
      after = cursorOf(last);
      if (pages.length > sorted.length + 1) throw new Error('paging does not end');
    }
  }

  it.each([
    { ascending: true, size: 3, expected: { page: ['h', 'c', 'e'], last: 'e' } },
    { ascending: false, size: 3, expected: { page: ['a', 'd', 'e'], last: 'e' } },
    { ascending: true, size: 8, expected: { page: ['h', 'c', 'e', 'g', 'a', 'd', 'b', 'f'], last: undefined } },
    { ascending: true, size: 20, expected: { page: ['h', 'c', 'e', 'g', 'a', 'd', 'b', 'f'], last: undefined } },
    { ascending: true, size: 7, expected: { page: ['h', 'c', 'e', 'g', 'a', 'd', 'b'], last: 'b' } },
  ])('first page, ascending $ascending, size $size', ({ ascending, size, expected }) => {
    const { page, last } = pageAfter(sortedBy(ascending), compareSortable(ascending), size, undefined);
    expect(ids(page)).toEqual(expected.page);
    expect(last?.id).toBe(expected.last);
    expect(page[0]).toHaveProperty('name');
  });

  it.each([
    { ascending: true, size: 1 },
    { ascending: true, size: 2 },
    { ascending: true, size: 3 },
    { ascending: true, size: 4 },
    { ascending: true, size: 8 },
    { ascending: false, size: 1 },
    { ascending: false, size: 3 },
    { ascending: false, size: 5 },
    { ascending: false, size: 9 },
  ])('following pages collect every item once, ascending $ascending, size $size', ({ ascending, size }) => {
    const sorted = sortedBy(ascending);
    const pages = allPages(sorted, ascending, size);
    expect(pages.flat()).toEqual(ids(sorted));
    expect(pages).toHaveLength(Math.max(1, Math.ceil(sorted.length / size)));
    for (const page of pages) expect(page.length).toBeGreaterThan(0);
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(size);
  });

  it('the final page has no last item', () => {
    const sorted = sortedBy(true);
    const { page, last } = pageAfter(sorted, compareSortable(true), 3, cursorOf(sorted[4]!));
    expect(ids(page)).toEqual(['d', 'b', 'f']);
    expect(last).toBeUndefined();
  });

  it.each([
    { name: 'an empty list', sorted: [] as Item[], after: undefined, expected: [] },
    { name: 'a cursor after the last item', sorted: sortedBy(true), after: { key: null, id: 'z' }, expected: [] },
    { name: 'a cursor on the last item', sorted: sortedBy(true), after: { key: null, id: 'f' }, expected: [] },
  ])('an empty final page for $name', ({ sorted, after, expected }) => {
    const result = pageAfter(sorted, compareSortable(true), 3, after);
    expect(ids(result.page)).toEqual(expected);
    expect(result.last).toBeUndefined();
  });

  it.each<{ name: string; ascending: boolean; after: Sortable; expected: string[] }>([
    // h0 c1 e3 g3 a5 d5 b- f-
    { name: 'a key between two keys', ascending: true, after: { key: 2, id: 'zz' }, expected: ['e', 'g', 'a'] },
    { name: 'a removed item tied on key, id between', ascending: true, after: { key: 3, id: 'f' }, expected: ['g', 'a', 'd'] },
    { name: 'a removed item tied on key, id first', ascending: true, after: { key: 5, id: '0' }, expected: ['a', 'd', 'b'] },
    { name: 'a removed item below every key', ascending: true, after: { key: -1, id: 'a' }, expected: ['h', 'c', 'e'] },
    { name: 'a removed item without a key', ascending: true, after: { key: null, id: 'c' }, expected: ['f'] },
    { name: 'a removed item whose key now sorts last (null, before every null id)', ascending: true, after: { key: null, id: '0' }, expected: ['b', 'f'] },
    // a5 d5 e3 g3 c1 h0 b- f-
    { name: 'descending: a key between two keys', ascending: false, after: { key: 4, id: 'a' }, expected: ['e', 'g', 'c'] },
    { name: 'descending: a removed item tied on key', ascending: false, after: { key: 5, id: 'b' }, expected: ['d', 'e', 'g'] },
    { name: 'descending: a removed item above every key', ascending: false, after: { key: 99, id: 'z' }, expected: ['a', 'd', 'e'] },
    { name: 'descending: a removed item without a key', ascending: false, after: { key: null, id: 'e' }, expected: ['f'] },
  ])('a cursor on an item that disappeared continues after its place: $name', ({ ascending, after, expected }) => {
    const sorted = sortedBy(ascending);
    expect(sorted.some((item) => item.key === after.key && item.id === after.id)).toBe(false);
    expect(ids(pageAfter(sorted, compareSortable(ascending), 3, after).page)).toEqual(expected);
  });

  it.each([true, false])('the cursor item removed and an item added before it between pages: no repeat, no skip, ascending %s', (ascending) => {
    const first = pageAfter(sortedBy(ascending), compareSortable(ascending), 3, undefined);
    const changed = sortedBy(ascending, [...raw.filter((item) => item.id !== first.last!.id), { key: ascending ? -10 : 100, id: 'new', name: 'N' }]);
    const second = pageAfter(changed, compareSortable(ascending), 100, cursorOf(first.last!));
    expect(ids(second.page)).toEqual(ids(sortedBy(ascending)).slice(3));
    expect([...ids(first.page), ...ids(second.page)].sort()).toEqual(ids(raw).sort());
  });
});
