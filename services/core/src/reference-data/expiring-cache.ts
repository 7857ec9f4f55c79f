export interface CacheOptions {
  ttlMs: number;
  maxEntries: number;
}

export interface ExpiringCache<T> {
  get(key: string): T | undefined;
  /** `ttlMs` overrides the cache's for this entry (a value known to change sooner). */
  set(key: string, value: T, ttlMs?: number): void;
}

/** A bounded map whose entries expire; when full, the oldest entry makes room. */
export function createExpiringCache<T>({ ttlMs = 10 * 60_000, maxEntries = 100_000 }: Partial<CacheOptions> = {}): ExpiringCache<T> {
  const entries = new Map<string, { value: T; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, entryTtlMs = ttlMs) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expiresAt: Date.now() + entryTtlMs });
    },
  };
}
