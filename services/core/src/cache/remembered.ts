/** The part of a Map or an LRU cache that `remembered` uses. */
export interface PromiseStore<K, V> {
  get(key: K): Promise<V> | undefined;
  set(key: K, value: Promise<V>): unknown;
  delete(key: K): unknown;
}

/**
 * The value of `key` from `store`, or `load`'s, kept there while it runs and after it succeeds:
 * callers asking meanwhile share one read, and a failed read is forgotten so the next caller
 * reads again rather than getting the same failure.
 */
export function remembered<K, V>(store: PromiseStore<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  const kept = store.get(key);
  if (kept) return kept;
  const loading = load();
  store.set(key, loading);
  loading.catch(() => {
    if (store.get(key) === loading) store.delete(key);
  });
  return loading;
}
