import { remembered } from './remembered.js';

describe('remembered', () => {
  test('callers share one read, and a success is kept', async () => {
    const store = new Map<string, Promise<number>>();
    let reads = 0;
    const load = async () => ++reads;
    expect(await Promise.all([remembered(store, 'a', load), remembered(store, 'a', load)])).toEqual([1, 1]);
    expect(await remembered(store, 'a', load)).toBe(1);
    expect(reads).toBe(1);
  });

  test('a failed read is forgotten, so the next caller reads again', async () => {
    const store = new Map<string, Promise<number>>();
    await expect(remembered(store, 'b', () => Promise.reject(new Error('node down')))).rejects.toThrow('node down');
    expect(store.has('b')).toBe(false);
    expect(await remembered(store, 'b', async () => 7)).toBe(7);
  });

  test('a failure does not drop a newer value stored under the same key', async () => {
    const store = new Map<string, Promise<number>>();
    let fail!: (error: Error) => void;
    const failing = remembered(store, 'c', () => new Promise<number>((_, reject) => (fail = reject)));
    const newer = Promise.resolve(9);
    store.set('c', newer);
    fail(new Error('late'));
    await expect(failing).rejects.toThrow('late');
    expect(store.get('c')).toBe(newer);
  });
});
